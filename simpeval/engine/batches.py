"""Batches and tasks: the unit of caching and of parallel work.

A :class:`Batch` is a run of consecutive items (sources, outputs, item-major references
and the per-item fields some metrics read); a :class:`Task` says what one metric computes
on it. :func:`score_batch` runs every metric on one batch, here or in a worker of
:mod:`simpeval.engine.parallel`, so every way of running computes the same numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from simpeval.progress import reporting

if TYPE_CHECKING:
    from simpeval.metrics.base import Metric

DEFAULT_BATCH_SIZE = 512


@dataclass
class Batch:
    """Items ``start`` to ``start + len(outputs)`` of a run: the unit of caching and of parallel work."""

    index: int
    start: int
    sources: Sequence[str]
    outputs: Sequence[str]
    references: Sequence[Sequence[str]] | None
    fields: dict[str, list] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.outputs)

    @property
    def inputs(self) -> tuple:
        return self.sources, self.outputs, self.references

    def fields_for(self, metric: Metric) -> dict[str, list]:
        """The per-item fields of this batch that ``metric`` reads (its ``item_fields``)."""
        return {k: v for k, v in self.fields.items() if k in metric.item_fields}

    def describe(self) -> str:
        return f"batch {self.index} (items {self.start + 1}-{self.start + len(self)})"


@dataclass(frozen=True)
class Task:
    """What one metric computes on one batch: sentence scores, summed corpus statistics, and the
    per-item corpus statistics (what paired tests resample), as asked."""

    sentences: bool
    statistics: bool
    item_statistics: bool = False


BatchScores = list[tuple["dict[str, list[float]] | None", Any, "list[list[float]] | None"]]
"""Per metric: its sentence scores on a batch, its summed corpus statistics and its per-item
corpus statistics (each None when not asked)."""


def make_batches(
    sources: Sequence[str],
    outputs: Sequence[str],
    references: Sequence[Sequence[str]] | None,
    batch_size: int,
    fields: dict[str, Sequence[object]] | None = None,
) -> list[Batch]:
    """Aligned lists cut into batches of ``batch_size`` items (the last one may be shorter)."""
    return [
        Batch(index, start, sources[start : start + batch_size], outputs[start : start + batch_size],
              None if references is None else references[start : start + batch_size],
              {k: list(v[start : start + batch_size]) for k, v in (fields or {}).items()})
        for index, start in enumerate(range(0, len(outputs), batch_size))
    ]


def score_batch(metrics: Sequence[Metric], tasks: Sequence[Task | None], batch: Batch,
                progress: Callable[[Metric, bool], None] | None = None) -> BatchScores:
    """Every metric's sentence scores and corpus statistics on ``batch``, as ``tasks`` ask.

    Metrics run one after the other on the same batch, so the texts they share are
    counted once while they are in the run's store. ``progress(metric, finished)`` is called
    before and after each metric with a task (a progress bar names the metric it waits for, and
    moves while a long batch is scored); its ``within(share)``, when it has one, receives what the
    metric reports of its own work meanwhile (:func:`simpeval.progress.report`). The C heap's freed
    pages go back to the system after the batch (:func:`simpeval.encoding.release_freed_heap`), so one
    batch's temporaries do not stay resident into the next.
    """
    from simpeval.encoding import release_freed_heap

    results: BatchScores = []
    for metric, task in zip(metrics, tasks):
        if task is not None and progress is not None:
            progress(metric, False)
        per_item = stats = rows = None
        with reporting(getattr(progress, "within", None)):  # a metric's encoder says how far it got
            if task is not None and task.sentences:
                per_item = metric.sentence_scores(*batch.inputs, **batch.fields_for(metric))
            if task is not None and (task.statistics or task.item_statistics):
                item_rows = metric.corpus_statistics(*batch.inputs) or ()  # once for the sums and the rows
                stats = column_sums(item_rows) if task.statistics else None
                rows = [list(row) for row in item_rows] if task.item_statistics else None
        results.append((per_item, stats, rows))
        if task is not None and progress is not None:
            progress(metric, True)
    release_freed_heap()
    return results


def column_sums(rows: Sequence[Sequence[float]]) -> list[float]:
    """Per-item (or per-batch) statistics added up column by column (integer counts stay exact integers)."""
    return [sum(column) for column in zip(*rows)]
