"""Several systems on the same inputs: every system's scores and, with a paired test, each
against the first (the baseline), as sacrebleu's ``--paired-bs`` and ``--paired-ar`` do.

The tests resample per-item statistics (:mod:`simpeval.significance`): the sufficient statistics
of a corpus-level metric (:meth:`simpeval.Metric.corpus_statistics`, e.g. BLEU's n-gram
counts), or the per-item scores of a metric whose corpus score is their mean. The systems are
scored by the engine (:func:`simpeval.engine.execute.execute`, or
:func:`simpeval.runner.compare_systems` for lists in memory); this module holds the result
(:class:`Comparison`) and the statistics the tests run on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from simpeval.errors import UsageError

if TYPE_CHECKING:
    import numpy as np

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
    sources: Sequence[str],
    systems: Sequence[tuple[str, Sequence[str]]],
    references: Sequence[Sequence[str]] | None,
    test: str,
    n_resamples: int | None,
    seed: int,
) -> None:
    """Test every system of ``comparison`` against its baseline, filling ``tests`` and ``intervals``.

    :param systems: ``(name, outputs)`` in the comparison's order.
    :param n_resamples: bootstrap resamples (``"bs"``) or randomization trials (``"ar"``),
        None for the test's default. Every interval is a bootstrap over the same number of
        resamples, the baseline's included: ``n_resamples`` for ``"bs"``, the default
        1,000 for ``"ar"`` (as :func:`simpeval.significance.approximate_randomization` does).
    """
    import numpy as np

    from simpeval import significance

    n = n_resamples or (significance.BOOTSTRAP_SAMPLES if test == "bs" else significance.AR_TRIALS)
    interval_samples = n if test == "bs" else significance.BOOTSTRAP_SAMPLES
    comparison.n_resamples, comparison.seed = n, seed
    for request in requests:
        gathered = [system_statistics(request, sources, outputs, references, system.result)
                    for (_, outputs), system in zip(systems, comparison.systems)]
        base_stats, scorer = gathered[0]
        for sub, interval in zip(request.report, significance.bootstrap_interval(
                base_stats, scorer, np.random.default_rng(seed), interval_samples)):
            comparison.baseline.intervals[sub] = interval
        for system, (stats, _) in zip(comparison.systems[1:], gathered[1:]):
            rng = np.random.default_rng(seed)
            if test == "bs":
                tests = significance.paired_bootstrap(base_stats, stats, scorer, rng, n)
            else:
                tests = significance.approximate_randomization(base_stats, stats, scorer, rng, n)
            for sub, paired in zip(request.report, tests):
                system.tests[sub] = paired
                system.intervals[sub] = paired.interval


def system_statistics(
    request: MetricRequest,
    sources: Sequence[str],
    outputs: Sequence[str],
    references: Sequence[Sequence[str]] | None,
    result: EvaluationResult,
) -> tuple[np.ndarray, Scorer]:
    """Per-item statistics of one system for the request's sub-scores, and their scorer."""
    import numpy as np

    from simpeval import significance

    metric = request.metric
    if not metric.corpus_level:
        values = np.array([result.sentence_scores[sub] for sub in request.report], dtype=float).T
        return significance.mean_statistics(values)
    stats = metric.corpus_statistics(sources, outputs, references)
    if stats is None:
        raise UsageError(f'metric "{metric.name}" has a corpus score but no corpus statistics to resample: '
                         "leave it out of a paired test (--paired-bs/--paired-ar)")
    report = list(request.report)

    def scorer(totals: np.ndarray) -> np.ndarray:
        rows = [metric.corpus_score_from_statistics(row) for row in totals.tolist()]
        return np.array([[scores[sub] for sub in report] for scores in rows], dtype=float)

    return np.asarray(stats, dtype=float), scorer
