"""Score a stream of batches and hand them back in input order, with bounded memory.

Each batch is looked up in the score cache (its sentence scores and its corpus
statistics), what is missing is scored here or by the run's executor
(:mod:`simpeval.engine.parallel`), finished batches are written to the cache at once (a rerun
after an interruption resumes from them), and batches come out in input order however the
executor finished them. Only a group of batches is in flight at a time (one when scoring
here, a few per worker otherwise), so the texts in memory do not grow with the input.

What a run must keep to the end is in :class:`Collected`: the per-batch statistics of
corpus formulas (a few numbers per batch) and the per-item scores the caller keeps.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from typing import TYPE_CHECKING, Any

from simpeval.engine.batches import Batch, Task, score_batch
from simpeval.cache import ITEM_STATISTICS, SENTENCE, STATISTICS, EntryInputs, MetricEntries

if TYPE_CHECKING:
    from simpeval.cache import ScoreCache
    from simpeval.metrics.base import Metric
    from simpeval.engine.parallel import BatchExecutor

BATCHES_PER_WORKER = 4
"""Batches in flight per worker: enough to keep every worker busy, few enough to keep memory flat."""

Scored = tuple[Batch, list["dict[str, list[float]] | None"], list[Any], list["list[list[float]] | None"]]


def scored_batches(
    metrics: Sequence[Metric],
    signatures: Sequence[str],
    sentences: Sequence[bool],
    statistics: Sequence[bool],
    batches: Iterable[Batch],
    *,
    cache: ScoreCache | None = None,
    executor: BatchExecutor | None = None,
    bar: Any = None,
    item_statistics: Sequence[bool] | None = None,
) -> Iterator[Scored]:
    """``(batch, sentence scores, summed statistics, per-item statistics)`` (each per metric) for every
    batch, in input order.

    :param signatures: per metric, the signature its scores are cached under (:class:`~simpeval.cache.MetricEntries`).
    :param sentences: per metric, whether its per-item scores are wanted.
    :param statistics: per metric, whether its summed corpus statistics are wanted.
    :param item_statistics: per metric, whether its per-item corpus statistics are wanted (paired
        tests resample them); None: no metric's.
    :param bar: a progress bar over scores (items x metrics), advanced as each metric finishes a
        batch here, or as each batch comes back from the executor.
    """
    item_statistics = item_statistics or [False] * len(metrics)
    group = 1 if executor is None else BATCHES_PER_WORKER * max(1, getattr(executor, "workers", 1))
    entries = [MetricEntries(cache, metric, signature) for metric, signature in zip(metrics, signatures)]
    batches = iter(batches)
    while chunk := list(islice(batches, group)):
        keyed = {batch.index: EntryInputs(*batch.inputs) for batch in chunk}  # encoded once, for lookup and save
        planned = [cached_part(entries, sentences, statistics, batch, keyed[batch.index], item_statistics)
                   for batch in chunk]
        work = [(batch, tasks) for batch, (_, _, _, tasks) in zip(chunk, planned) if any(tasks)]
        cached = sum(len(batch) * sum(task is None for task in tasks) for batch, (*_, tasks) in zip(chunk, planned))
        if bar is not None and cached:
            bar.update(cached)
        found = {batch.index: plan for batch, plan in zip(chunk, planned)}
        for batch, results in executor.map(metrics, work) if executor is not None else _serial(metrics, work, bar):
            values, stats, rows, _ = found[batch.index]
            for i, (metric, (new_values, new_stats, new_rows)) in enumerate(zip(metrics, results)):
                if new_values is not None:
                    values[i] = new_values
                    entries[i].put(SENTENCE, keyed[batch.index], new_values, batch.fields_for(metric), len(batch))
                if new_stats is not None:
                    stats[i] = new_stats
                    entries[i].put(STATISTICS, keyed[batch.index], new_stats)
                if new_rows is not None:
                    rows[i] = new_rows
                    entries[i].put(ITEM_STATISTICS, keyed[batch.index], new_rows, n_items=len(batch))
            if bar is not None and executor is not None:
                bar.update(len(batch) * sum(task is not None for task in found[batch.index][3]))
        for batch, (values, stats, rows, _) in zip(chunk, planned):
            yield batch, values, stats, rows


def cached_part(
    entries: Sequence[MetricEntries],
    sentences: Sequence[bool],
    statistics: Sequence[bool],
    batch: Batch,
    inputs: EntryInputs,
    item_statistics: Sequence[bool],
) -> tuple[list, list, list, list[Task | None]]:
    """What the cache holds for ``batch`` (sentence scores, summed and per-item statistics, per metric)
    and the tasks left to do."""
    values = [entry.get(SENTENCE, inputs, batch.fields_for(entry.metric), len(batch)) if wanted else None
              for entry, wanted in zip(entries, sentences)]
    stats = [entry.get(STATISTICS, inputs) if wanted else None for entry, wanted in zip(entries, statistics)]
    rows = [entry.get(ITEM_STATISTICS, inputs, n_items=len(batch)) if wanted else None
            for entry, wanted in zip(entries, item_statistics)]
    tasks = []
    for wanted in zip(sentences, values, statistics, stats, item_statistics, rows):
        task = Task(wanted[0] and wanted[1] is None, wanted[2] and wanted[3] is None, wanted[4] and wanted[5] is None)
        tasks.append(task if task.sentences or task.statistics or task.item_statistics else None)
    return values, stats, rows, tasks


def _serial(metrics: Sequence[Metric], work: Iterable[tuple[Batch, list[Task | None]]], bar: Any
            ) -> Iterator[tuple[Batch, Any]]:
    for batch, tasks in work:
        yield batch, score_batch(metrics, tasks, batch, None if bar is None else _moving(bar, len(batch)))


class _moving:
    """A batch's progress callback: the bar names the metric scoring now (a model may load for a while
    at 0%), moves with the share of its work the metric reports (an encoder, after each sub-batch:
    :func:`simpeval.progress.report`) and by the rest of the batch's items when it is done."""

    def __init__(self, bar: Any, n_items: int) -> None:
        self.bar, self.n_items, self.moved = bar, n_items, 0

    def __call__(self, metric: Metric, finished: bool) -> None:
        if finished:
            self.bar.update(self.n_items - self.moved)
        else:
            self.bar.set_postfix_str(metric.name)
        self.moved = 0

    def within(self, share: float) -> None:
        """``share`` (0 to 1) of the current metric's work on the batch is done: the bar moves to as
        many of the batch's items (never back, and the last item waits for the metric to finish)."""
        target = min(self.n_items - 1, int(share * self.n_items))
        if target > self.moved:
            self.bar.update(target - self.moved)
            self.moved = target


class Collected:
    """What a run keeps of its batches for the end: per metric, the statistics of each batch
    (summed in batch order by the corpus formula), where ``keep`` says so the per-item scores, and
    the per-item statistics of the metrics whose are asked for (paired tests)."""

    def __init__(self, metrics: Sequence[Metric], keep: Sequence[bool]) -> None:
        self.statistics: list[list[Any]] = [[] for _ in metrics]
        self.items: list[dict[str, list[float]] | None] = [
            {sub: [] for sub in metric.score_names()} if kept else None for metric, kept in zip(metrics, keep)
        ]
        self.item_statistics: list[list[list[float]]] = [[] for _ in metrics]
        # per metric and sub-score: how many per-item scores were NaN and the first such item, counted also
        # where the scores themselves are not kept (rows streamed out), so that a run can say so
        self.undefined: list[dict[str, tuple[int, int]]] = [{} for _ in metrics]

    def add(self, start: int, values: Sequence[dict[str, list[float]] | None], stats: Sequence[Any],
            rows: Sequence[list[list[float]] | None] = ()) -> None:
        """One batch's results; ``start``: the index of its first item."""
        for i, (batch_values, batch_stats) in enumerate(zip(values, stats)):
            if batch_values is not None:
                for sub, scores in batch_values.items():
                    if self.items[i] is not None:
                        self.items[i][sub].extend(scores)
                    self._count_undefined(i, sub, start, scores)
            self.statistics[i].append(batch_stats)
        for i, batch_rows in enumerate(rows):
            if batch_rows is not None:
                self.item_statistics[i].extend(batch_rows)

    def _count_undefined(self, i: int, sub: str, start: int, scores: Sequence[float]) -> None:
        missing = [j for j, score in enumerate(scores, start) if score != score]
        if missing:
            count, first = self.undefined[i].get(sub, (0, missing[0]))
            self.undefined[i][sub] = (count + len(missing), first)
