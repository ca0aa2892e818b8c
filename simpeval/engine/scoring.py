"""Score a stream of batches and hand them back in input order, with bounded memory.

Each batch is looked up in the score cache (its sentence scores and its corpus
statistics), what is missing is scored here or by the run's executor
(:mod:`simpeval.parallel`), finished batches are written to the cache at once (a rerun
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
from simpeval.cache import SENTENCE, STATISTICS, EntryInputs, MetricEntries

if TYPE_CHECKING:
    from simpeval.cache import ScoreCache
    from simpeval.metrics.base import Metric
    from simpeval.parallel import BatchExecutor

BATCHES_PER_WORKER = 4
"""Batches in flight per worker: enough to keep every worker busy, few enough to keep memory flat."""

Scored = tuple[Batch, list["dict[str, list[float]] | None"], list[Any]]


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
) -> Iterator[Scored]:
    """``(batch, sentence scores per metric, statistics per metric)`` for every batch, in input order.

    :param signatures: per metric, the signature its scores are cached under (:class:`~simpeval.cache.MetricEntries`).
    :param sentences: per metric, whether its per-item scores are wanted.
    :param statistics: per metric, whether its summed corpus statistics are wanted.
    :param bar: a progress bar advanced by items x metrics as batches finish.
    """
    group = 1 if executor is None else BATCHES_PER_WORKER * max(1, getattr(executor, "workers", 1))
    entries = [MetricEntries(cache, metric, signature) for metric, signature in zip(metrics, signatures)]
    batches = iter(batches)
    while chunk := list(islice(batches, group)):
        keyed = {batch.index: EntryInputs(*batch.inputs) for batch in chunk}  # encoded once, for lookup and save
        planned = [cached_part(entries, sentences, statistics, batch, keyed[batch.index]) for batch in chunk]
        work = [(batch, tasks) for batch, (_, _, tasks) in zip(chunk, planned) if any(tasks)]
        if bar is not None:
            bar.update(sum(len(batch) for batch, (_, _, tasks) in zip(chunk, planned) if not any(tasks)) * len(metrics))
        found = {batch.index: plan for batch, plan in zip(chunk, planned)}
        for batch, results in executor.map(metrics, work) if executor is not None else _serial(metrics, work):
            values, stats, _ = found[batch.index]
            for i, (metric, (new_values, new_stats)) in enumerate(zip(metrics, results)):
                if new_values is not None:
                    values[i] = new_values
                    entries[i].put(SENTENCE, keyed[batch.index], new_values, batch.fields_for(metric), len(batch))
                if new_stats is not None:
                    stats[i] = new_stats
                    entries[i].put(STATISTICS, keyed[batch.index], new_stats)
            if bar is not None:
                bar.update(len(batch) * len(metrics))
        for batch, (values, stats, _) in zip(chunk, planned):
            yield batch, values, stats


def cached_part(
    entries: Sequence[MetricEntries],
    sentences: Sequence[bool],
    statistics: Sequence[bool],
    batch: Batch,
    inputs: EntryInputs,
) -> tuple[list, list, list[Task | None]]:
    """What the cache holds for ``batch`` (sentence scores, statistics, per metric) and the tasks left to do."""
    values = [entry.get(SENTENCE, inputs, batch.fields_for(entry.metric), len(batch)) if wanted else None
              for entry, wanted in zip(entries, sentences)]
    stats = [entry.get(STATISTICS, inputs) if wanted else None for entry, wanted in zip(entries, statistics)]
    tasks = [Task(want_values and value is None, want_stats and stat is None)
             if (want_values and value is None) or (want_stats and stat is None) else None
             for want_values, value, want_stats, stat in zip(sentences, values, statistics, stats)]
    return values, stats, tasks


def _serial(metrics: Sequence[Metric], work: Iterable[tuple[Batch, list[Task | None]]]) -> Iterator[tuple[Batch, Any]]:
    for batch, tasks in work:
        yield batch, score_batch(metrics, tasks, batch)


class Collected:
    """What a run keeps of its batches for the end: per metric, the statistics of each batch
    (summed in batch order by the corpus formula) and, where ``keep`` says so, the per-item scores."""

    def __init__(self, metrics: Sequence[Metric], keep: Sequence[bool]) -> None:
        self.statistics: list[list[Any]] = [[] for _ in metrics]
        self.items: list[dict[str, list[float]] | None] = [
            {sub: [] for sub in metric.score_names()} if kept else None for metric, kept in zip(metrics, keep)
        ]

    def add(self, values: Sequence[dict[str, list[float]] | None], stats: Sequence[Any]) -> None:
        for i, (batch_values, batch_stats) in enumerate(zip(values, stats)):
            if self.items[i] is not None and batch_values is not None:
                for sub, scores in batch_values.items():
                    self.items[i][sub].extend(scores)
            self.statistics[i].append(batch_stats)


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def progress_bar(total: int | None, enabled: bool) -> Any:
    """A tqdm bar over ``total`` items x metrics (a bar that shows nothing when not ``enabled``)."""
    if not enabled:
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=total, unit="item", desc="scoring", leave=False, dynamic_ncols=True)
