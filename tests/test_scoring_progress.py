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


def test_a_neural_metric_moves_the_bar_within_one_batch(monkeypatch, tmp_path):
    """One engine batch of 12 items scored by an encoder metric (a tiny BERT, 2 texts per forward pass):
    the bar moves after the encoder's sub-batches, not once at the end, and counts each item once."""
    from simpeval.testing import save_tiny_bert

    sources = [" ".join(["the", "old", "committee"] + ["approved"] * (i % 6) + ["plan", str(i)]) for i in range(12)]
    outputs = [" ".join(["the", "committee"] + ["approved"] * (i % 4) + [str(i)]) for i in range(12)]
    model = save_tiny_bert(tmp_path / "tiny", [w for t in sources + outputs for w in t.split()])
    bars = []
    monkeypatch.setattr(execute, "progress_bar", lambda *a, **k: bars.append(Recording(*a, **k)) or bars[-1])
    requests = resolve_metrics(load_registry(autoload=False), [f"bertscore:model={model},layer=2,batch_size=2"])
    evaluate(requests, sources, outputs, [[o] for o in outputs], batch_size=512, progress=True)
    [bar] = bars
    moves = [e for e in bar.events if isinstance(e, int) and e > 0]
    assert bar.total == 12 and sum(moves) == 12
    assert len(moves) > 3, bar.events  # several steps within the one batch (12 distinct texts per side, 2 a pass)
    assert moves[-1] >= 1 and bar.events[0] == "bertscore"
