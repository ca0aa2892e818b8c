"""Several systems on the same inputs: every system's scores and, with a paired test, each
against the first (the baseline), as sacrebleu's ``--paired-bs`` and ``--paired-ar`` do.

The tests resample per-item statistics (:mod:`simpeval.significance`): the sufficient statistics
of a corpus-level metric (:meth:`simpeval.Metric.corpus_statistics`, e.g. BLEU's n-gram
counts), or the per-item scores of a metric whose corpus score is their mean. The systems are
scored by the engine (:func:`simpeval.engine.execute.execute`, or
:func:`simpeval.runner.compare_systems` for lists in memory), which keeps those statistics as it
scores (cached per batch, computed by its executor like any score, never recomputed here); this
module holds the result (:class:`Comparison`) and runs the tests on them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from simpeval.errors import UsageError

if TYPE_CHECKING:
    import numpy as np

    from simpeval.allpairs import AllPairs
    from simpeval.engine.metrics import MetricRequest
    from simpeval.engine.results import EvaluationResult
    from simpeval.significance import Interval, PairedTest, Scorer

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
    all_pairs: AllPairs | None = None  # every pair compared and ranked (simpeval.allpairs), when asked

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


def run_tests(
    comparison: Comparison,
    requests: Sequence[MetricRequest],
    test: str,
    n_resamples: int | None,
    seed: int,
    tick: Callable[[int], None] | None = None,
) -> None:
    """Test every system of ``comparison`` against its baseline, filling ``tests`` and ``intervals``,
    on the statistics the engine collected (:func:`simpeval.allpairs.statistics`); with the baseline alone, only its
    intervals (sacrebleu's ``--confidence``).

    :param n_resamples: bootstrap resamples (``"bs"``) or randomization trials (``"ar"``),
        None for the test's default. Every interval is a bootstrap over the same number of
        resamples, the baseline's included: ``n_resamples`` for ``"bs"``, the default
        1,000 for ``"ar"`` (as :func:`simpeval.significance.approximate_randomization` does).
    :param tick: called with the resamples drawn as the tests go (a progress bar).
    """
    import numpy as np

    from simpeval import significance
    from simpeval.allpairs import statistics

    n = n_resamples or (significance.BOOTSTRAP_SAMPLES if test == "bs" else significance.AR_TRIALS)
    interval_samples = n if test == "bs" else significance.BOOTSTRAP_SAMPLES
    comparison.n_resamples, comparison.seed = n, seed
    for request in requests:
        gathered = [statistics(request, system.result) for system in comparison.systems]  # what the run kept
        base_stats, scorer = gathered[0]
        for sub, interval in zip(request.report, significance.bootstrap_interval(
                base_stats, scorer, np.random.default_rng(seed), interval_samples, tick=tick)):
            comparison.baseline.intervals[sub] = interval
        for system, (stats, _) in zip(comparison.systems[1:], gathered[1:]):
            rng = np.random.default_rng(seed)
            if test == "bs":
                tests = significance.paired_bootstrap(base_stats, stats, scorer, rng, n, tick=tick)
            else:
                tests = significance.approximate_randomization(base_stats, stats, scorer, rng, n, tick=tick)
            for sub, paired in zip(request.report, tests):
                system.tests[sub] = paired
                system.intervals[sub] = paired.interval


def resampling_work(test: str, n_systems: int, n_resamples: int | None, n_metrics: int) -> int:
    """How many resamples :func:`run_tests` draws: a progress bar's total."""
    from simpeval import significance

    n = n_resamples or (significance.BOOTSTRAP_SAMPLES if test == "bs" else significance.AR_TRIALS)
    interval = n if test == "bs" else significance.BOOTSTRAP_SAMPLES
    per_system = n if test == "bs" else n + interval
    return n_metrics * (interval + (n_systems - 1) * per_system)
