"""What a report shows, computed once for both formats: scores per system, features, samples.

:func:`build_report` scores every system with the requested metrics through
:func:`simpeval.runner.compare_systems` (corpus and per-sentence scores, one signature per
sub-score, and, when asked, a paired test of each system against the first), describes them
with the ``qe`` features and the ``ops`` word operations, then picks the samples: ``n`` random items (seeded), and the ``n`` items with the best and the worst mean
score over the systems on the chosen metric (its direction taken into account). Metrics that
label words (:meth:`simpeval.Metric.word_labels`) then label the samples' outputs
(:mod:`~simpeval.report.wordlabels`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from simpeval.errors import UsageError
from simpeval.languages import ENGLISH

if TYPE_CHECKING:
    from simpeval.allpairs import AllPairs
    from simpeval.cache import ScoreCache
    from simpeval.registry import Registry
    from simpeval.report.wordlabels import LabelledWords
    from simpeval.runner import EvaluationResult

# What describes the outputs rather than judging them: quality-estimation features and word operations.
FEATURE_METRICS = ("qe", "ops")
SAMPLE_KINDS = ("random", "best", "worst")


def _features(registry: Registry, lang: str) -> list[str]:
    """The :data:`FEATURE_METRICS` with rules for language ``lang`` (``ops`` has none of its own)."""
    return [name for name in FEATURE_METRICS if registry.supports(name, lang)]
TEST_NAMES = {"bs": ("paired bootstrap resampling", "resamples"), "ar": ("paired approximate randomization", "trials")}


@dataclass
class SystemScores:
    """One system: its outputs, metric scores and feature values (corpus and per sentence)."""

    name: str
    outputs: list[str]
    metrics: EvaluationResult
    features: EvaluationResult
    marks: dict[str, str] = field(default_factory=dict)  # sub-score -> paired test against the baseline


@dataclass
class Sample:
    """One item shown with every system's output and its score on the sample metric."""

    kind: str  # one of SAMPLE_KINDS
    index: int
    source: str
    references: list[str]
    scores: list[float]  # per system, in report order


@dataclass
class SystemsReport:
    """Everything ``simpeval report`` writes."""

    title: str
    sources: list[str]
    systems: list[SystemScores]
    sample_metric: str
    samples: list[Sample]
    has_references: bool
    test: str | None = None  # "bs" or "ar" when the systems were tested against the first
    n_resamples: int | None = None
    all_pairs: AllPairs | None = None  # --all-pairs: every pair of systems and their ranking
    labelled_words: list[LabelledWords] = field(default_factory=list)  # metrics' own word labels of the samples

    @property
    def score_names(self) -> list[str]:
        return self.systems[0].metrics.score_names

    @property
    def feature_names(self) -> list[str]:
        return self.systems[0].features.score_names

    def test_note(self, literal: Callable[[str], str] = str) -> str:
        """How the systems were tested against the first, in one sentence ("" without a test); ``literal``
        escapes the baseline's name for the output format."""
        if self.test is None:
            return ""
        name, unit = TEST_NAMES[self.test]
        baseline = literal(self.systems[0].name)
        return (f"Each system against the first ({baseline}): {name}, {self.n_resamples:,} {unit}; "
                f"better/worse: significantly (p < 0.05) better or worse than {baseline}, "
                "in the metric's direction.")

    def signatures(self) -> dict[str, str]:
        """Sub-score -> signature, metrics then features."""
        first = self.systems[0]
        return {**first.metrics.signatures, **first.features.signatures}


def build_report(
    registry: Registry,
    sources: Sequence[str],
    systems: Sequence[tuple[str, Sequence[str]]],
    references: Sequence[Sequence[str]] | None,
    metric_specs: Sequence[str],
    *,
    title: str = "simpeval report",
    preset: str | None = None,
    lang: str = ENGLISH,
    test: str | None = None,
    n_resamples: int | None = None,
    sample_metric: str | None = None,
    n_samples: int = 5,
    seed: int = 0,
    cache: ScoreCache | None = None,
    all_pairs: bool = False,
    word_labels: bool = True,
) -> SystemsReport:
    """Score ``systems`` (name, outputs) on ``sources`` and pick the samples (see the module docstring).

    :param references: item-major (``references[i]`` lists item i's references) or None.
    :param lang: the language of the texts (ISO 639-1), for every metric and feature.
    :param test: ``"bs"`` or ``"ar"``: test every system against the first
        (:func:`simpeval.runner.compare_systems`), seeded by ``seed``.
    :param sample_metric: the sub-score that orders the best and worst samples (default: the
        primary score of the first metric).
    :param all_pairs: also compare every pair of systems and rank them (:mod:`simpeval.allpairs`).
    :param word_labels: have the metrics that label words label the samples' outputs (the HTML page shows them).
    """
    from simpeval.run import Run
    from simpeval.runner import compare_systems, resolve_metrics

    requests = resolve_metrics(registry, metric_specs, preset, lang)
    with Run(cache=cache) as run:  # metrics and features share one statistics store
        from simpeval.allpairs import HOLM_BOOTSTRAP, Settings

        pairs = Settings(n_resamples or HOLM_BOOTSTRAP, seed=seed) if all_pairs else None
        scored = compare_systems(requests, sources, systems, references, test=test, n_resamples=n_resamples,
                                 seed=seed, sentence_level=True, run=run, all_pairs=pairs)
        described = compare_systems(resolve_metrics(registry, _features(registry, lang), lang=lang), sources, systems, None,
                                    sentence_level=True, run=run)
        report_systems = [
            SystemScores(name, list(outputs), result.result, features.result,
                         _marks(result.tests, result.result.higher_is_better))
            for (name, outputs), result, features in zip(systems, scored.systems, described.systems)
        ]
        names = scored.score_names
        sample_metric = sample_metric or requests[0].metric.name
        if sample_metric not in names:
            raise UsageError(f'--sample-metric "{sample_metric}" is not among the scores: '
                             f'choose one of {", ".join(names)}')
        samples = pick_samples(report_systems, sources, references, sample_metric, n_samples, seed)
        from simpeval.report.wordlabels import label_samples

        labelled = label_samples([r.metric for r in requests] if word_labels else [], sources,
                                 [system.outputs for system in report_systems],
                                 sorted({s.index for s in samples}))  # while the run still holds the models
    report = SystemsReport(title, list(sources), report_systems, sample_metric, samples, references is not None,
                           test, scored.n_resamples, labelled_words=labelled)
    report.all_pairs = scored.all_pairs
    return report


def _marks(tests: dict, higher_is_better: dict[str, bool]) -> dict[str, str]:
    """``p = 0.0123, better`` per tested sub-score: ``better`` or ``worse`` where the system differs
    significantly from the baseline (p < 0.05), in the sub-score's direction
    (:meth:`simpeval.significance.PairedTest.verdict`), so a mark never reads as an improvement of a
    system that is worse; ``p = n/a`` where the items were too few for any claim
    (:data:`simpeval.significance.MIN_PAIRED_ITEMS`)."""
    from simpeval.significance import MIN_PAIRED_ITEMS

    marks = {}
    for sub, test in tests.items():
        verdict = test.verdict(higher_is_better[sub])
        marks[sub] = ((f"p = n/a (fewer than {MIN_PAIRED_ITEMS} items)" if math.isnan(test.p_value)
                       else f"p = {test.p_value:.4f}") + (f", {verdict}" if verdict else ""))
    return marks


def pick_samples(systems: Sequence[SystemScores], sources: Sequence[str], references, metric: str,
                 n: int, seed: int) -> list[Sample]:
    """``n`` random items, then the ``n`` best and ``n`` worst by mean ``metric`` over the systems.

    Items whose score is undefined for every system are never best or worst; ties keep item order.
    """
    import numpy as np

    per_system = np.array([s.metrics.sentence_scores[metric] for s in systems], dtype=float)
    with np.errstate(all="ignore"):
        mean = np.array([np.nan if np.isnan(col).all() else np.nanmean(col) for col in per_system.T])
    sign = -1.0 if systems[0].metrics.higher_is_better[metric] is False else 1.0
    defined = [i for i in range(len(sources)) if not math.isnan(mean[i])]
    order = sorted(defined, key=lambda i: -sign * mean[i])
    n = min(n, len(sources))
    chosen = {
        "random": sorted(np.random.default_rng(seed).choice(len(sources), size=n, replace=False).tolist()),
        "best": order[:n],
        "worst": order[::-1][:n],
    }
    return [
        Sample(kind, i, sources[i], list(references[i]) if references else [], per_system[:, i].tolist())
        for kind in SAMPLE_KINDS for i in chosen[kind]
    ]
