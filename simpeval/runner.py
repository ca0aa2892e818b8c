"""The stable Python entries of the evaluation engine: :func:`evaluate` (one system's lists in
memory) and :func:`compare_systems` (several systems, with paired tests).

Both build a :class:`~simpeval.engine.plan.Plan` and run it with
:func:`simpeval.engine.execute.execute`, as the command line does: a run's metrics share a
bounded statistics store, batches are scored here or by an executor of
:mod:`simpeval.engine.parallel` and put back in input order, finished batches go to the on-disk
:class:`~simpeval.cache.ScoreCache` (an interrupted run resumes from them), and corpus scores
that need global statistics (BLEU, SARI, FKGL) sum per-batch statistics. The names this
module has always offered (:func:`resolve_metrics`, :class:`MetricRequest`,
:class:`EvaluationResult`, :class:`Batch`...) are the engine's, re-exported.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from simpeval.engine.compare import DEFAULT_SEED, Comparison
from simpeval.engine.batches import DEFAULT_BATCH_SIZE, Batch, BatchScores, Task, make_batches, score_batch
from simpeval.engine.execute import execute
from simpeval.engine.metrics import (
    MetricRequest,
    has_corpus_statistics,
    parse_metric_specs,
    resolve_metrics,
    signature_with_nrefs,
    signature_with_refs,
)
from simpeval.engine.plan import Plan, System
from simpeval.engine.results import EvaluationResult, collect_result
from simpeval.engine.sources import MemorySource

if TYPE_CHECKING:
    from simpeval.allpairs import Settings as AllPairsSettings
    from simpeval.cache import ScoreCache
    from simpeval.engine.parallel import BatchExecutor
    from simpeval.run import Run

__all__ = [
    "DEFAULT_BATCH_SIZE", "Batch", "BatchScores", "EvaluationResult", "MetricRequest", "Task", "collect_result",
    "compare_systems", "evaluate", "has_corpus_statistics", "make_batches", "parse_metric_specs", "resolve_metrics",
    "score_batch", "signature_with_nrefs", "signature_with_refs",
]


def evaluate(
    requests: Sequence[MetricRequest],
    sources: Sequence[str],
    outputs: Sequence[str],
    references: Sequence[Sequence[str]] | None = None,
    *,
    sentence_level: bool = True,
    corpus_level: bool = True,
    cache: ScoreCache | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    progress: bool = False,
    executor: BatchExecutor | None = None,
    run: Run | None = None,
    fields: dict[str, Sequence[object]] | None = None,
) -> EvaluationResult:
    """Score ``outputs`` with every requested metric, batch by batch.

    :param requests: from :func:`resolve_metrics`.
    :param references: item-major (``references[i]`` lists item i's references) or None.
    :param sentence_level: compute per-item scores (batched, cached per batch).
    :param corpus_level: compute corpus scores (a metric's own corpus formula from
        statistics summed over batches, else the mean of its per-item scores).
    :param cache: where finished batches are stored; None disables caching.
    :param progress: show a progress bar over items x metrics.
    :param executor: where batches are scored (:mod:`simpeval.engine.parallel`: local processes
        or a Dask cluster); None scores them here, one after the other.
    :param run: the run whose cache, executor, statistics store, models and encodings are
        used (then leave ``cache`` and ``executor`` out: the run has them); default: a new
        ``Run(cache=cache, executor=executor)``, released when this call returns.
    :param fields: per-item values (``{"target": [...]}``) given to the metrics whose
        ``item_fields`` name them.
    """
    plan = Plan(requests, [System("system", MemorySource(sources, outputs, references, fields=dict(fields or {})))],
                sentence_level=sentence_level, corpus_level=corpus_level, compare=False, batch_size=batch_size,
                progress=progress)
    return execute(plan, _checked_run(run, cache, executor), cache=cache, executor=executor)


def compare_systems(
    requests: Sequence[MetricRequest],
    sources: Sequence[str],
    systems: Sequence[tuple[str, Sequence[str]]],
    references: Sequence[Sequence[str]] | None = None,
    *,
    test: str | None = None,
    n_resamples: int | None = None,
    seed: int = DEFAULT_SEED,
    sentence_level: bool = False,
    cache: ScoreCache | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    progress: bool = False,
    executor: BatchExecutor | None = None,
    run: Run | None = None,
    all_pairs: AllPairsSettings | None = None,
) -> Comparison:
    """Score every system and, with ``test``, compare each with the first; with ``all_pairs``, compare
    every pair and rank them (``comparison.all_pairs``). Both run on the per-item statistics the engine
    keeps while it scores (cached, computed by ``executor`` like any score).

    :param systems: ``(name, outputs)`` pairs, each aligned with ``sources``; the first is the baseline.
    :param test: ``"bs"`` (paired bootstrap, 1,000 resamples), ``"ar"`` (approximate
        randomization, 10,000 trials) or None. ``"bs"`` with one system: its bootstrap intervals.
    :param n_resamples: resamples or trials instead of the test's default.
    :param seed: seeds a fresh generator per (system, metric): every system and metric is
        tested on the same resamples, as sacrebleu does, whatever the order of metrics.
    :param sentence_level: keep per-item scores in each result (needed anyway by a test).
    :param executor: where batches are scored (``--jobs``, ``--dask``; :mod:`simpeval.engine.parallel`).
    :param run: as :func:`evaluate`'s.
    :param all_pairs: the settings of :mod:`simpeval.allpairs` (resamples, AR trials, seed, Holm).
    """
    plan = Plan(requests, [System(name, MemorySource(sources, outputs, references)) for name, outputs in systems],
                sentence_level=sentence_level, compare=True, test=test, n_resamples=n_resamples, seed=seed,
                batch_size=batch_size, progress=progress, all_pairs=all_pairs)
    return execute(plan, _checked_run(run, cache, executor), cache=cache, executor=executor)


def _checked_run(run: Run | None, cache: ScoreCache | None, executor: BatchExecutor | None) -> Run | None:
    """``run``, refusing a ``cache`` or ``executor`` other than the run's own (one would be ignored)."""
    if run is not None and ((cache is not None and cache is not run.cache)
                            or (executor is not None and executor is not run.executor)):
        raise ValueError("give the cache and the executor to the Run (Run(cache=..., executor=...)), not beside it")
    return run
