"""Paired significance tests between two systems scored on the same items, as pure functions.

Provides:

- :func:`paired_bootstrap`: paired bootstrap resampling (Koehn 2004), as
  ``sacrebleu --paired-bs`` runs it: the same resampled items for both systems, the
  differences of the resampled scores shifted to mean zero as the null distribution;
- :func:`approximate_randomization`: the paired approximate randomization test (Noreen 1989;
  Riezler and Maxwell 2005), as ``sacrebleu --paired-ar``: each trial swaps the two systems'
  outputs of each item with probability 1/2;
- :func:`bootstrap_interval`: a system's bootstrap mean and 95% percentile interval.

Systems enter as per-item **additive statistics** (an ``(n_items, k)`` array) and a
``scorer`` that turns summed statistics into scores (an ``(m, k)`` array into ``(m, s)``,
one column per sub-score). A corpus-level metric such as BLEU is thus recomputed from the
resampled n-gram counts, never averaged over sentences; a metric whose corpus score is the
mean of its sentence scores uses :func:`mean_statistics`. Every function that draws takes an
explicit ``rng: numpy.random.Generator``.

Given the same generator (``numpy.random.default_rng(12345)``, sacrebleu's default seed), both
tests draw exactly sacrebleu's resamples and swaps, so their p-values and intervals for BLEU
equal sacrebleu's (``tests/test_significance.py``). One deliberate difference: a resampled
difference counts against the null when it is *at least* as large as the observed one
(sacrebleu counts strictly larger ones), the textbook permutation p-value, so a system compared
with itself gets p = 1, not 1/(N+1). On fewer than :data:`MIN_PAIRED_ITEMS` items both tests give
p = NaN (no claim).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

Scorer = Callable[[np.ndarray], np.ndarray]
Tick = Callable[[int], None]
"""Called with the number of resamples (or trials) drawn, after each chunk: a progress bar."""
BOOTSTRAP_SAMPLES = 1000
AR_TRIALS = 10000
_CHUNK_CELLS = 1 << 22  # rows x items materialised at once (about 32 MB of float64)
MIN_PAIRED_ITEMS = 6
"""The fewest items on which a paired test makes a claim. On ``n`` items the exact paired
permutation test cannot give a two-sided p-value below ``2 / 2**n`` (0.0625 for 5 items), so
no difference on fewer than 6 items is significant at 0.05; resampling tests would still
print p = 0.001 there (every resample of one item is that item). Below this, both tests
report p = NaN: no claim either way."""


MIN_INTERVAL_RESAMPLES = 40
"""The fewest resamples a 95% percentile interval is made of: :func:`interval_of` cuts ``n // 40``
resamples from each tail, so with fewer it would cut none and report the range of a handful of
resamples (with one, a single resampled score that need not contain the score itself)."""


@dataclass(frozen=True)
class Interval:
    """A bootstrap estimate: the mean of the resampled scores and their 95% percentile interval."""

    mean: float
    low: float
    high: float


@dataclass(frozen=True)
class PairedTest:
    """One sub-score of one system compared with the baseline.

    :param score: the system's score on all items.
    :param baseline: the baseline's score on all items.
    :param p_value: probability, under the null hypothesis of no difference, of a difference
        at least as large as the observed one.
    :param interval: the system's bootstrap mean and 95% interval.
    """

    score: float
    baseline: float
    p_value: float
    interval: Interval

    def significant(self, alpha: float = 0.05) -> bool:
        """Whether p < ``alpha`` (never on fewer than :data:`MIN_PAIRED_ITEMS` items: p is NaN there)."""
        return self.p_value < alpha

    def verdict(self, higher_is_better: bool | None, alpha: float = 0.05) -> str | None:
        """``"better"`` or ``"worse"``: the system against the baseline when they differ significantly,
        in the score's direction (lower FKGL is better); None otherwise, and for a feature without a
        direction (``higher_is_better`` None: a compression ratio is neither).

        A significance mark must say which way the difference goes: a bare star on the tested system
        reads as an improvement even where the system is significantly worse. Every output of a
        paired test against a baseline (terminal, Markdown, LaTeX, JSON, the report) marks with this.
        """
        if higher_is_better is None or not self.significant(alpha):
            return None
        return "better" if (self.score > self.baseline) == higher_is_better else "worse"


def enough_items(n_items: int) -> bool:
    """Whether a paired test on ``n_items`` items can make a claim (:data:`MIN_PAIRED_ITEMS`)."""
    return n_items >= MIN_PAIRED_ITEMS


def mean_statistics(values: np.ndarray) -> tuple[np.ndarray, Scorer]:
    """Statistics and scorer of a score that is the mean of per-item values (NaN items left out).

    :param values: ``(n_items, s)`` per-item values, one column per sub-score.
    :returns: ``(stats, scorer)`` where ``stats`` holds each value (0 for NaN) and a 0/1 count.
    """
    values = np.asarray(values, dtype=float)
    if values.ndim == 1:
        values = values[:, None]
    finite = ~np.isnan(values)
    stats = np.concatenate([np.where(finite, values, 0.0), finite.astype(float)], axis=1)
    s = values.shape[1]

    def scorer(totals: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            return totals[:, :s] / totals[:, s:]

    return stats, scorer


def _chunks(n_rows: int, n_items: int, multiple: int = 32) -> list[slice]:
    """Row slices of at most about ``_CHUNK_CELLS`` cells, each a multiple of ``multiple`` rows.

    Approximate randomization needs 32: numpy draws 32 booleans per 32-bit word, so chunked
    swaps equal one draw of all (sacrebleu's) on any corpus. Bootstrap draws need no
    multiple (integers are drawn one after another, row after row).
    """
    step = max(multiple, _CHUNK_CELLS // max(1, n_items) // multiple * multiple)
    return [slice(start, min(start + step, n_rows)) for start in range(0, n_rows, step)]


def bootstrap_weights(n_items: int, n_samples: int, rng: np.random.Generator) -> np.ndarray:
    """How often each item is drawn in each resample: an ``(n_samples, n_items)`` count matrix.

    Summed statistics of resample ``j`` are then ``weights[j] @ stats``, which needs no
    ``(n_samples, n_items, k)`` array.
    """
    draws = rng.integers(0, n_items, size=(n_samples, n_items))
    offsets = (np.arange(n_samples) * n_items)[:, None]
    counts = np.bincount((draws + offsets).ravel(), minlength=n_samples * n_items)
    return counts.reshape(n_samples, n_items).astype(float)


def _resampled_scores(weights: np.ndarray, stats: np.ndarray, scorer: Scorer) -> np.ndarray:
    return _as_2d(scorer(weights @ stats))


def _as_2d(scores: np.ndarray) -> np.ndarray:
    scores = np.asarray(scores, dtype=float)
    return scores[:, None] if scores.ndim == 1 else scores


def interval_of(samples: np.ndarray) -> Interval:
    """Mean and 95% percentile interval of resampled scores (the 2.5% tails cut as sacrebleu does)."""
    ordered = np.sort(np.asarray(samples, dtype=float))
    n = len(ordered)
    lower = n // 40
    return Interval(float(ordered.mean()), float(ordered[lower]), float(ordered[n - lower - 1]))


def p_value(null_samples: np.ndarray, observed: float) -> float:
    """``(c + 1) / (N + 1)``, c the null samples at least as large as ``observed`` (a tolerance of
    1e-9 absorbs rounding, so equal differences computed in another order still count)."""
    null_samples = np.asarray(null_samples, dtype=float)
    count = int(np.sum(null_samples >= observed - 1e-9 * max(1.0, abs(observed))))
    return (count + 1) / (len(null_samples) + 1)


def bootstrap_interval(
    stats: np.ndarray, scorer: Scorer, rng: np.random.Generator, n_samples: int = BOOTSTRAP_SAMPLES,
    tick: Tick | None = None,
) -> list[Interval]:
    """Bootstrap mean and 95% interval of each of the scorer's sub-scores for one system."""
    (scores,) = resampled_systems(rng, n_samples, stats, scorer=scorer, tick=tick)
    return [interval_of(scores[:, j]) for j in range(scores.shape[1])]


def resampled_systems(rng: np.random.Generator, n_samples: int, *systems: np.ndarray,
                      scorer: Scorer, tick: Tick | None = None) -> list[np.ndarray]:
    """Each system's scores on the same ``n_samples`` resamples of its items, ``(n_samples, s)`` each.

    The resamples are drawn a chunk of rows at a time (:func:`_chunks`), so memory stays
    bounded whatever resamples x items (one chunk's weights, not all of them, and each system's
    ``(n_samples, s)`` scores); the generator yields the same draws row after row either way,
    so the scores equal those of one ``(n_samples, n_items)`` draw (sacrebleu's). The paired
    tests and :mod:`simpeval.allpairs` (every system on the same resamples) share it.
    """
    systems = tuple(np.asarray(stats, dtype=float) for stats in systems)
    n_items = len(systems[0])
    scores: list[list[np.ndarray]] = [[] for _ in systems]
    for chunk in _chunks(n_samples, n_items, multiple=1):
        weights = bootstrap_weights(n_items, chunk.stop - chunk.start, rng)
        for collected, stats in zip(scores, systems):
            collected.append(_resampled_scores(weights, stats, scorer))
        if tick is not None:
            tick(chunk.stop - chunk.start)
    return [np.concatenate(collected) for collected in scores]


def full_scores(stats: np.ndarray, scorer: Scorer) -> np.ndarray:
    """The sub-scores of all items together."""
    return _full_scores(np.asarray(stats, dtype=float), scorer)


def _full_scores(stats: np.ndarray, scorer: Scorer) -> np.ndarray:
    return _as_2d(scorer(stats.sum(axis=0, keepdims=True)))[0]


def _check_pair(baseline: np.ndarray, system: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    baseline = np.asarray(baseline, dtype=float)
    system = np.asarray(system, dtype=float)
    if baseline.shape != system.shape or baseline.ndim != 2:
        raise ValueError(f"paired statistics must have one shape (n_items, k): {baseline.shape} vs {system.shape}")
    if len(baseline) == 0:
        raise ValueError("paired tests need at least one item")
    return baseline, system


def paired_bootstrap(
    baseline: np.ndarray,
    system: np.ndarray,
    scorer: Scorer,
    rng: np.random.Generator,
    n_samples: int = BOOTSTRAP_SAMPLES,
    tick: Tick | None = None,
) -> list[PairedTest]:
    """Paired bootstrap resampling test of ``system`` against ``baseline``, per sub-score.

    Both systems are scored on the same ``n_samples`` resamples of the items. The absolute
    differences of the resampled scores, shifted to mean zero, are the null distribution
    of the observed absolute difference (Koehn 2004; sacrebleu's ``--paired-bs``).
    The same resamples give the system's 95% interval.
    """
    baseline, system = _check_pair(baseline, system)
    base_scores, sys_scores = resampled_systems(rng, n_samples, baseline, system, scorer=scorer, tick=tick)
    base_full, sys_full = _full_scores(baseline, scorer), _full_scores(system, scorer)
    tests = []
    for j in range(sys_scores.shape[1]):
        diffs = np.abs(sys_scores[:, j] - base_scores[:, j])
        observed = abs(sys_full[j] - base_full[j])
        p = p_value(diffs - diffs.mean(), observed) if enough_items(len(baseline)) else math.nan
        tests.append(PairedTest(float(sys_full[j]), float(base_full[j]), p, interval_of(sys_scores[:, j])))
    return tests


def approximate_randomization(
    baseline: np.ndarray,
    system: np.ndarray,
    scorer: Scorer,
    rng: np.random.Generator,
    n_trials: int = AR_TRIALS,
    n_confidence: int = BOOTSTRAP_SAMPLES,
    tick: Tick | None = None,
) -> list[PairedTest]:
    """Paired approximate randomization test of ``system`` against ``baseline``, per sub-score.

    Each trial swaps the two systems' statistics of every item with probability 1/2 and
    scores both pseudo-systems; the absolute differences are the null distribution of the
    observed absolute difference (Riezler and Maxwell 2005; sacrebleu's ``--paired-ar``).
    The system's 95% interval comes from ``n_confidence`` bootstrap resamples.
    """
    baseline, system = _check_pair(baseline, system)
    p_values = ar_p_values(baseline, system, scorer, rng, n_trials, tick)
    base_full, sys_full = _full_scores(baseline, scorer), _full_scores(system, scorer)
    intervals = bootstrap_interval(system, scorer, rng, n_confidence, tick)
    return [PairedTest(float(sys_full[j]), float(base_full[j]), float(p_values[j]), intervals[j])
            for j in range(len(p_values))]


def ar_p_values(
    baseline: np.ndarray, system: np.ndarray, scorer: Scorer, rng: np.random.Generator, n_trials: int = AR_TRIALS,
    tick: Tick | None = None,
) -> np.ndarray:
    """The approximate-randomization p-value of each sub-score (see :func:`approximate_randomization`);
    NaN on fewer than :data:`MIN_PAIRED_ITEMS` items (the trials are still drawn, so the generator
    advances as it always does)."""
    baseline, system = _check_pair(baseline, system)
    delta = baseline - system
    sys_total = system.sum(axis=0)
    both_total = baseline.sum(axis=0) + sys_total
    null = []
    for chunk in _chunks(n_trials, len(baseline)):
        swaps = rng.integers(2, size=(chunk.stop - chunk.start, len(baseline)), dtype=bool).astype(float)
        pseudo_a = swaps @ delta + sys_total  # baseline's item where swaps==1, else the system's
        pseudo_b = both_total - pseudo_a
        null.append(np.abs(_as_2d(scorer(pseudo_a)) - _as_2d(scorer(pseudo_b))))
        if tick is not None:
            tick(chunk.stop - chunk.start)
    null_diffs = np.concatenate(null)
    observed = np.abs(_full_scores(system, scorer) - _full_scores(baseline, scorer))
    if not enough_items(len(baseline)):
        return np.full(null_diffs.shape[1], math.nan)
    return np.array([p_value(null_diffs[:, j], observed[j]) for j in range(null_diffs.shape[1])])
