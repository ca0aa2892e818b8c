"""Tie-aware pairwise statistics of meta-evaluation, as small pure functions over numpy arrays.

Human ratings of simplifications are full of ties (833 of Structural Simplicity's 1,750 items tie
at its median), and Kendall's tau-b says nothing about whether a metric *predicts* a tie.
Deutsch, Foster and Freitag (2023, "Ties Matter: Meta-Evaluating Modern Metrics with Pairwise
Accuracy and Tie Calibration", arXiv 2305.14324, §3-4) count every pair of items once in one of
five classes: concordant (C), discordant (D), tied in the human scores only (T_h), tied in the
metric scores only (T_m) and tied in both (T_hm). Then

- ``tau_23 = (C + T_hm - D - T_h - T_m) / (C + D + T_h + T_m + T_hm)`` (:func:`kendall_23`);
- ``acc_23 = (C + T_hm) / (C + D + T_h + T_m + T_hm)`` (:func:`acc23`), pairwise accuracy with
  ties, a tie in both counted as agreement;
- *tie calibration* (:func:`acc23_opt`): the metric's scores are treated as tied whenever they
  differ by at most a threshold epsilon, and epsilon is chosen to maximise ``acc_23`` (or
  ``tau_23``). Every distinct absolute difference of a pair's metric scores is a candidate, plus
  0 (no new ties); the statistic is recomputed after each candidate, and the first maximum wins.
  With groups (``--average-by``) one epsilon is chosen for the mean over groups.

:func:`pairwise_accuracy` is Kocmi et al. (2021)'s system-level accuracy: the share of system
pairs whose scores differ in the same direction for the metric and the humans (a tie in both
counts as agreement, as in mt-metrics-eval's ``stats.Agreement``).

Missing values are nan; every function drops an item whose human or metric score is nan.
Functions that sample take an explicit ``rng: numpy.random.Generator``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from simpeval.metaeval.paircounts import pair_classes

TAU_VARIANTS = ("23", "acc23")


@dataclass(frozen=True)
class PairCounts:
    """How the pairs of items split into Deutsch et al.'s five classes."""

    con: int
    dis: int
    ties_human: int
    ties_metric: int
    ties_both: int

    @property
    def pairs(self) -> int:
        return self.con + self.dis + self.ties_human + self.ties_metric + self.ties_both

    def tau_23(self) -> float:
        """``(C + T_hm - D - T_h - T_m) / pairs``; nan without pairs."""
        if not self.pairs:
            return float("nan")
        return (self.con + self.ties_both - self.dis - self.ties_human - self.ties_metric) / self.pairs

    def acc_23(self) -> float:
        """``(C + T_hm) / pairs``; nan without pairs."""
        return (self.con + self.ties_both) / self.pairs if self.pairs else float("nan")

    def value(self, variant: str) -> float:
        if variant == "23":
            return self.tau_23()
        if variant == "acc23":
            return self.acc_23()
        raise ValueError(f"unknown tau variant {variant!r}; expected one of {TAU_VARIANTS}")


def _finite(human: np.ndarray, metric: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    human = np.asarray(human, dtype=float)
    metric = np.asarray(metric, dtype=float)
    if human.shape != metric.shape:
        raise ValueError(f"vectors differ in length: {len(human)} and {len(metric)}")
    ok = np.isfinite(human) & np.isfinite(metric)
    return human[ok], metric[ok]


def _pair_differences(human: np.ndarray, metric: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(human[i] - human[j], metric[i] - metric[j])`` over every pair i < j."""
    i, j = np.triu_indices(len(human), k=1)
    return human[i] - human[j], metric[i] - metric[j]


def pair_counts(human: np.ndarray, metric: np.ndarray, epsilon: float = 0.0) -> PairCounts:
    """The five pair classes of ``human`` and ``metric`` (items with a nan dropped).

    :param epsilon: metric scores that differ by at most ``epsilon`` count as tied (human scores
        tie only when equal). At 0 the classes are counted by sorting
        (:func:`~simpeval.metaeval.paircounts.pair_classes`, O(n log n)); a positive epsilon makes
        "tied" intransitive, so every pair is compared (O(n^2)).
    """
    if epsilon < 0:
        raise ValueError(f"the tie epsilon must be >= 0, got {epsilon}")
    if epsilon == 0:
        classes = pair_classes(*_finite(human, metric))
        both = int(classes.tied_both[0])
        return PairCounts(int(classes.concordant[0]), int(classes.discordant[0]),
                          int(classes.tied_human[0]) - both, int(classes.tied_metric[0]) - both, both)
    dh, dm = _pair_differences(*_finite(human, metric))
    h_tie = dh == 0
    m_tie = np.abs(dm) <= epsilon
    both = int(np.sum(h_tie & m_tie))
    ties_h = int(np.sum(h_tie & ~m_tie))
    ties_m = int(np.sum(~h_tie & m_tie))
    con = int(np.sum(~h_tie & ~m_tie & (np.sign(dh) == np.sign(dm))))
    return PairCounts(con, len(dh) - con - both - ties_h - ties_m, ties_h, ties_m, both)


def tau_rows(human: np.ndarray, metric_rows: np.ndarray, variant: str) -> np.ndarray:
    """tau_23 (``variant="23"``) or acc_23 (``"acc23"``) of each row of ``metric_rows`` against ``human``
    (a shared vector, or one row per metric row), at epsilon 0; nan for a row without a pair.

    What a resampling test computes a thousand times, in one O(n log n) pass over every row
    (:func:`~simpeval.metaeval.paircounts.pair_classes`). Values must be finite.
    """
    classes = pair_classes(human, metric_rows)
    agree = classes.concordant + classes.tied_both
    if variant == "23":
        top = 2 * agree - classes.pairs
    elif variant == "acc23":
        top = agree
    else:
        raise ValueError(f"unknown tau variant {variant!r}; expected one of {TAU_VARIANTS}")
    with np.errstate(invalid="ignore", divide="ignore"):
        return top / classes.pairs if classes.pairs else np.full(len(agree), np.nan)


def kendall_23(human: np.ndarray, metric: np.ndarray, epsilon: float = 0.0) -> float:
    """Deutsch et al. (2023)'s tau_23 (see the module docstring); nan with fewer than 2 items."""
    return pair_counts(human, metric, epsilon).tau_23()


def acc23(human: np.ndarray, metric: np.ndarray, epsilon: float = 0.0) -> float:
    """Deutsch et al. (2023)'s pairwise accuracy with ties, acc_23; nan with fewer than 2 items."""
    return pair_counts(human, metric, epsilon).acc_23()


@dataclass(frozen=True)
class TieCalibration:
    """The result of :func:`acc23_opt`: the best statistic, its threshold, and how many groups it averages."""

    value: float
    threshold: float
    groups: int


def acc23_opt(
    human: np.ndarray,
    metric: np.ndarray,
    groups: Sequence | None = None,
    variant: str = "acc23",
    sample_rate: float = 1.0,
    rng: np.random.Generator | None = None,
) -> TieCalibration:
    """Tie calibration (Deutsch et al. 2023, §4): the epsilon that maximises the mean statistic.

    Each group (default: one group of all items) contributes the statistic over its own pairs;
    groups without a pair are left out of the mean. A pair's class changes once epsilon reaches
    the absolute difference of its metric scores, into T_hm if the humans tie it, else T_m; so the
    statistic at every candidate epsilon is the statistic at 0 plus the cumulative changes of the
    pairs sorted by that difference, and the sweep costs one sort.

    :param variant: ``acc23`` (the default) or ``23``.
    :param sample_rate: the share of pairs considered, each kept with this probability (drawn
        from ``rng``, which is then required); 1.0 considers every pair, deterministically.
    :returns: the maximum mean statistic, the smallest epsilon reaching it (to 1e-12), the number
        of groups with a pair.
    """
    if variant not in TAU_VARIANTS:
        raise ValueError(f"unknown tau variant {variant!r}; expected one of {TAU_VARIANTS}")
    if not 0 < sample_rate <= 1:
        raise ValueError(f"the pair sample rate must be in (0, 1], got {sample_rate}")
    if sample_rate < 1 and rng is None:
        raise ValueError("sampling pairs needs an rng")
    human = np.asarray(human, dtype=float)
    metric = np.asarray(metric, dtype=float)
    labels = np.zeros(len(human), dtype=int) if groups is None else np.unique(np.asarray(groups),
                                                                               return_inverse=True)[1]
    ok = np.isfinite(human) & np.isfinite(metric)
    diffs, changes, base = [], [], []
    for g in np.unique(labels[ok]):
        idx = np.flatnonzero(ok & (labels == g))
        dh, dm = _pair_differences(human[idx], metric[idx])
        if sample_rate < 1:
            keep = rng.random(len(dh)) <= sample_rate
            dh, dm = dh[keep], dm[keep]
        if not len(dh):
            continue
        h_tie = dh == 0
        m_tie = dm == 0
        concordant = ~h_tie & ~m_tie & (np.sign(dh) == np.sign(dm))
        if variant == "acc23":
            before = (concordant | (h_tie & m_tie)).astype(float)
            after = h_tie.astype(float)
        else:
            before = np.where(concordant | (h_tie & m_tie), 1.0, -1.0)
            after = np.where(h_tie, 1.0, -1.0)
        base.append(before.sum() / len(dh))
        diffs.append(np.abs(dm))
        changes.append((after - before) / len(dh))
    if not base:
        return TieCalibration(float("nan"), 0.0, 0)
    n_groups = len(base)
    diff = np.concatenate(diffs)
    order = np.argsort(diff, kind="stable")
    diff = diff[order]
    running = np.sum(base) + np.cumsum(np.concatenate(changes)[order])
    # the statistic at a threshold counts every pair whose difference is at most that threshold
    last = np.r_[diff[1:] != diff[:-1], True]
    thresholds = np.r_[0.0, diff[last]]
    values = np.r_[np.sum(base), running[last]] / n_groups
    if thresholds[1] == 0.0:  # pairs tied already: threshold 0 is the value after them
        thresholds, values = thresholds[1:], values[1:]
    # several thresholds can reach the same maximum (in exact arithmetic): take the smallest, not
    # whichever rounding error happens to favour (mt-metrics-eval's choice among equals is arbitrary)
    best = int(np.flatnonzero(values >= values.max() - 1e-12)[0])
    return TieCalibration(float(values[best]), float(thresholds[best]), n_groups)


def pairwise_accuracy(human: np.ndarray, metric: np.ndarray) -> float:
    """Kocmi et al. (2021)'s pairwise accuracy: the share of pairs ordered alike (ties alike agree).

    Over every pair of units (systems) whose scores are both finite; nan with fewer than 2.
    """
    dh, dm = _pair_differences(*_finite(human, metric))
    return float(np.mean(np.sign(dh) == np.sign(dm))) if len(dh) else float("nan")
