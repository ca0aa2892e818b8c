"""Words coloured by a metric's own word labels (LENS-SALSA's edit tags, say).

The extension point is :meth:`simpeval.Metric.word_labels` (the labels, for the legend) and
:meth:`simpeval.Metric.label_words` (per output, spans of text with a label or none). For each
scored metric that declares labels, the report labels only what it shows: every system's output
of every sampled item, once; the HTML page shows them under the outputs, with a legend. The core
knows no metric by name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from simpeval.metrics.base import Metric

LabelSpan = tuple[str | None, str]


@dataclass
class LabelledWords:
    """One metric's labels of the samples' outputs."""

    metric: str
    legend: dict[str, str]  # label -> what it marks, in legend order
    spans: dict[tuple[int, int], list[LabelSpan]]  # (system position, item index) -> spans of its output


def label_samples(metrics: Sequence[Metric], sources: Sequence[str], systems: Sequence[Sequence[str]],
                  items: Sequence[int]) -> list[LabelledWords]:
    """The labels of every metric in ``metrics`` that declares some, for the outputs of ``items``
    (``systems[k][i]``: system k's output of item i)."""
    from simpeval.metrics.base import checked_word_spans

    found: list[LabelledWords] = []
    seen: set[str] = set()
    for metric in metrics:
        legend = metric.word_labels()
        if not legend or metric.name in seen or not items:
            continue
        seen.add(metric.name)
        keys = [(k, i) for k in range(len(systems)) for i in items]
        outputs = [systems[k][i] for k, i in keys]
        spans = checked_word_spans(metric, outputs, metric.label_words([sources[i] for _, i in keys], outputs))
        found.append(LabelledWords(metric.name, dict(legend), dict(zip(keys, spans))))
    return found
