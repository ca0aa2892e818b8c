"""Several systems scored on the same items, the first as baseline, with paired significance tests.

:func:`compare_systems` is the library function behind ``simpeval evaluate --sys A --sys B
[--paired-bs | --paired-ar]``; reports (``simpeval report``) build on its
:class:`Comparison`. The statistics themselves live in :mod:`simpeval.significance`; this
module only gathers each metric's per-item statistics: the additive sufficient statistics
of a corpus-level metric (:meth:`simpeval.Metric.corpus_statistics`, e.g. BLEU's n-gram
counts), or the per-item scores of a metric whose corpus score is their mean.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from simpeval.errors import UsageError
from simpeval.runner import DEFAULT_BATCH_SIZE, EvaluationResult, MetricRequest, evaluate

if TYPE_CHECKING:
    import numpy as np

    from simpeval.cache import ScoreCache
    from simpeval.parallel import BatchExecutor
    from simpeval.significance import Interval, PairedTest

PAIRED_TESTS = ("bs", "ar")
DEFAULT_SEED = 12345  # sacrebleu's default seed


@dataclass
class SystemResult:
    """One system's scores and, unless it is the baseline, its tests against the baseline.

    :param tests: sub-score -> paired test against the baseline (empty for the baseline or
        when no test was asked for).
    :param intervals: sub-score -> bootstrap mean and 95% interval (empty without a test).
    """

    name: str
    result: EvaluationResult
    tests: dict[str, PairedTest] = field(default_factory=dict)
    intervals: dict[str, Interval] = field(default_factory=dict)


@dataclass
class Comparison:
    """Every system's result; ``systems[0]`` is the baseline."""

    systems: list[SystemResult]
    test: str | None = None
    n_resamples: int | None = None
    seed: int | None = None

    @property
    def baseline(self) -> SystemResult:
        return self.systems[0]

    @property
    def score_names(self) -> list[str]:
        return self.baseline.result.score_names

    @property
    def signatures(self) -> dict[str, str]:
        return self.baseline.result.signatures

    @property
    def higher_is_better(self) -> dict[str, bool]:
        return self.baseline.result.higher_is_better


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
) -> Comparison:
    """Score every system and, with ``test``, compare each with the first.

    :param systems: ``(name, outputs)`` pairs, each aligned with ``sources``; the first is the baseline.
    :param test: ``"bs"`` (paired bootstrap, 1,000 resamples), ``"ar"`` (approximate
        randomization, 10,000 trials) or None.
    :param n_resamples: resamples or trials instead of the test's default.
    :param seed: seeds a fresh generator per (system, metric): every system and metric is
        tested on the same resamples, as sacrebleu does, whatever the order of metrics.
    :param sentence_level: keep per-item scores in each result (needed anyway by a test).
    :param executor: where batches are scored (``--jobs``, ``--dask``; :mod:`simpeval.parallel`).
    """
    if not systems:
        raise UsageError("no system outputs: pass --sys FILE (repeatable) or --sys-dir DIR")
    if test is not None and test not in PAIRED_TESTS:
        raise ValueError(f"unknown paired test {test!r}; choose from {', '.join(PAIRED_TESTS)}")
    if test is not None and len(systems) < 2:
        raise UsageError("a paired test needs a baseline and at least one more system: repeat --sys")
    results = [
        SystemResult(name, evaluate(requests, sources, outputs, references,
                                    sentence_level=sentence_level or test is not None, corpus_level=True,
                                    cache=cache, batch_size=batch_size, progress=progress, executor=executor))
        for name, outputs in systems
    ]
    comparison = Comparison(results, test, None, None)
    if test is not None:
        _run_tests(comparison, requests, sources, systems, references, test, n_resamples, seed)
    return comparison


def _run_tests(
    comparison: Comparison,
    requests: Sequence[MetricRequest],
    sources: Sequence[str],
    systems: Sequence[tuple[str, Sequence[str]]],
    references: Sequence[Sequence[str]] | None,
    test: str,
    n_resamples: int | None,
    seed: int,
) -> None:
    import numpy as np

    from simpeval import significance as sig

    n = n_resamples or (sig.BOOTSTRAP_SAMPLES if test == "bs" else sig.AR_TRIALS)
    comparison.n_resamples, comparison.seed = n, seed
    for request in requests:
        gathered = [_statistics(request, sources, outputs, references, system.result)
                    for (_, outputs), system in zip(systems, comparison.systems)]
        scorer = gathered[0][1]
        base_stats = gathered[0][0]
        for sub, interval in zip(request.report, sig.bootstrap_interval(
                base_stats, scorer, np.random.default_rng(seed), sig.BOOTSTRAP_SAMPLES)):
            comparison.baseline.intervals[sub] = interval
        for system, (stats, _) in zip(comparison.systems[1:], gathered[1:]):
            rng = np.random.default_rng(seed)
            if test == "bs":
                tests = sig.paired_bootstrap(base_stats, stats, scorer, rng, n)
            else:
                tests = sig.approximate_randomization(base_stats, stats, scorer, rng, n)
            for sub, paired in zip(request.report, tests):
                system.tests[sub] = paired
                system.intervals[sub] = paired.interval


def _statistics(
    request: MetricRequest,
    sources: Sequence[str],
    outputs: Sequence[str],
    references: Sequence[Sequence[str]] | None,
    result: EvaluationResult,
) -> tuple[np.ndarray, sig.Scorer]:
    """Per-item statistics of one system for the request's sub-scores, and their scorer."""
    import numpy as np

    from simpeval import significance as sig

    metric = request.metric
    if not metric.corpus_level:
        values = np.array([result.sentence_scores[sub] for sub in request.report], dtype=float).T
        return sig.mean_statistics(values)
    stats = metric.corpus_statistics(sources, outputs, references)
    if stats is None:
        raise UsageError(f'metric "{metric.name}" has a corpus score but no corpus statistics to resample: '
                         "leave it out of a paired test (--paired-bs/--paired-ar)")
    report = list(request.report)

    def scorer(totals: np.ndarray) -> np.ndarray:
        rows = [metric.corpus_score_from_statistics(row) for row in totals.tolist()]
        return np.array([[scores[sub] for sub in report] for scores in rows], dtype=float)

    return np.asarray(stats, dtype=float), scorer
