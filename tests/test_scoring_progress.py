"""The scoring bar counts scores (items x metrics, unit "score"), names the metric it waits for and moves
after each metric of a batch, not once per batch (issue 28: lens-mini sat 42 s at 0/100 "items")."""

from __future__ import annotations

from simpeval.engine import execute
from simpeval.registry import load_registry
from simpeval.runner import evaluate, resolve_metrics

SOURCES = [f"The old committee approved plan number {i} after a very long debate ." for i in range(10)]
OUTPUTS = [f"The committee approved plan {i} ." for i in range(10)]


class Recording:
    def __init__(self, total, enabled, *, desc, unit):
        self.total, self.desc, self.unit, self.events = total, desc, unit, []

    def update(self, n=1):
        self.events.append(n)

    def set_postfix_str(self, text="", refresh=True):
        self.events.append(text)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass


def test_the_bar_moves_per_metric_and_batch_and_names_the_metric(monkeypatch):
    bars = []
    monkeypatch.setattr(execute, "progress_bar", lambda *a, **k: bars.append(Recording(*a, **k)) or bars[-1])
    requests = resolve_metrics(load_registry(autoload=False), ["fkgl", "qe"])
    evaluate(requests, SOURCES, OUTPUTS, batch_size=4, progress=True)
    [bar] = bars
    assert (bar.total, bar.unit, bar.desc) == (20, "score", "scoring")
    assert bar.events == ["fkgl", 4, "qe", 4, "fkgl", 4, "qe", 4, "fkgl", 2, "qe", 2]
