"""Statistics of meta-evaluation, as small pure functions over numpy arrays.

Provides:

- :func:`correlation`: Pearson, Spearman or Kendall tau-b of two score vectors, with its p-value;
- :func:`rowwise_correlation`: the same for many vectors at once (resampling tests), Kendall's
  tau-b included (its pairs counted by sorting, :mod:`~simpeval.metaeval.paircounts`);
- :func:`wmt_kendall`: the WMT relative-ranking Kendall-like tau over pairs of outputs of the
  same source whose human scores differ by more than a threshold (Ma et al. 2018, 2019);
- :func:`lens_kendall`: LENS's Kendall-like tau, pairs decided by a majority of raters whose raw
  ratings differ by more than a threshold (Maddela et al. 2023);
- :func:`williams_test`: the Williams (1959) test for the difference of two dependent
  correlations that share one variable, as used by WMT (Graham and Baldwin 2014, D14-1020);
- :func:`perm_both_test`: the paired permutation test PERM-BOTH (Deutsch et al. 2021,
  arXiv 2104.00054), as in mt-metrics-eval;
- :func:`bootstrap_interval`: a percentile bootstrap confidence interval of a correlation;
- :func:`icc1`: the one-way random-effects intraclass correlation ICC(1,1) of Shrout and Fleiss (1979);
- :func:`simulated_rater_spearman`: the simulated two-rater Spearman of Alva-Manchego et al. (2021, §3).

Nothing here reads files or knows about simpeval's registry: callers pass arrays and get
floats, tuples or dataclasses back, so every function can be checked on hand-sized vectors.
Functions that resample take an explicit ``rng: numpy.random.Generator``, draw their resamples a
chunk at a time (the same numbers as one draw) and report progress through an optional ``tick``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats as _sp

from simpeval.metaeval.paircounts import pair_classes

CORRELATIONS = ("pearson", "spearman", "kendall")


def correlation(x: np.ndarray, y: np.ndarray, method: str = "pearson") -> tuple[float, float]:
    """Correlation of ``x`` and ``y`` and its two-sided p-value.

    :param method: ``pearson``, ``spearman`` or ``kendall`` (tau-b, which corrects for ties).
    :returns: ``(r, p)``; ``(nan, nan)`` when either vector is constant or has fewer than 3 values,
        since no correlation is defined there.
    """
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    if len(x) != len(y):
        raise ValueError(f"vectors differ in length: {len(x)} and {len(y)}")
    if len(x) < 3 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return float("nan"), float("nan")
    if method == "pearson":
        result = _sp.pearsonr(x, y)
    elif method == "spearman":
        result = _sp.spearmanr(x, y)
    elif method == "kendall":
        result = _sp.kendalltau(x, y, variant="b")
    else:
        raise ValueError(f"unknown correlation {method!r}; expected one of {CORRELATIONS}")
    return float(result[0]), float(result[1])


def same_group_pairs(groups: Sequence) -> tuple[np.ndarray, np.ndarray]:
    """Every pair ``(first, second)`` of item indices with equal ``groups`` values, first < second."""
    groups = np.asarray(groups)
    firsts, seconds = [], []
    for group in np.unique(groups):
        idx = np.flatnonzero(groups == group)
        i, j = np.triu_indices(len(idx), k=1)
        firsts.append(idx[i])
        seconds.append(idx[j])
    first = np.concatenate(firsts) if firsts else np.zeros(0, dtype=int)
    second = np.concatenate(seconds) if seconds else np.zeros(0, dtype=int)
    return first, second


def wmt_pairs(
    human: np.ndarray,
    groups: Sequence,
    threshold: float = 25.0,
    selection: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The pairs WMT's Kendall-like tau compares, and how the humans order them.

    Pairs are two outputs of the same source (same ``groups`` value) whose ``selection`` scores
    (default: ``human``; WMT uses raw 0-100 DA scores with threshold 25) differ by more than
    ``threshold`` and whose ``human`` scores differ at all. They depend on the human scores only,
    so a permutation test finds them once and scores every resample against them.

    :returns: ``(first, second, human_sign)``: item indices of each pair and the sign of
        ``human[first] - human[second]`` (never 0).
    """
    human = np.asarray(human, dtype=float)
    selection = human if selection is None else np.asarray(selection, dtype=float)
    first, second = same_group_pairs(groups)
    sign = np.sign(human[first] - human[second])
    keep = (np.abs(selection[first] - selection[second]) > threshold) & (sign != 0)
    return first[keep], second[keep], sign[keep]


def lens_pairs(
    ratings: np.ndarray, groups: Sequence, threshold: float = 5.0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The pairs LENS's Kendall-like tau compares (Maddela et al. 2023, released meta-evaluation code).

    Pairs are two outputs with equal ``groups`` values (LENS: the same original and the same
    sentence type). Each rater votes on a pair with the sign of their raw-rating difference, or
    0 when it is at most ``threshold``; the pair counts when more than half of the raters cast
    the same vote and that vote is not 0 (otherwise it is skipped).

    :param ratings: items x raters, raw ratings (0-100).
    :returns: ``(first, second, human_sign)`` as :func:`wmt_pairs`; score them with
        :func:`wmt_kendall_rows` (a metric tie is discordant, as in LENS).
    """
    ratings = np.atleast_2d(np.asarray(ratings, dtype=float))
    first, second = same_group_pairs(groups)
    diff = ratings[first] - ratings[second]
    votes = np.where(np.abs(diff) <= threshold, 0.0, np.sign(diff))
    majority = ratings.shape[1] // 2
    sign = np.zeros(len(first))
    for vote in (-1.0, 1.0):
        sign[(votes == vote).sum(axis=1) > majority] = vote
    keep = sign != 0
    return first[keep], second[keep], sign[keep]


def wmt_kendall_rows(metric_rows: np.ndarray, pairs: tuple[np.ndarray, np.ndarray, np.ndarray]) -> np.ndarray:
    """WMT's tau of each row of ``metric_rows`` on ``pairs`` from :func:`wmt_pairs`.

    A pair is concordant when the metric orders it as the humans do; a metric tie counts as
    discordant, as in WMT18-19. NaN for every row when there is no pair.
    """
    first, second, human_sign = pairs
    rows = np.atleast_2d(np.asarray(metric_rows, dtype=float))
    if len(first) == 0:
        return np.full(len(rows), np.nan)
    concordant = (np.sign(rows[:, first] - rows[:, second]) == human_sign).sum(axis=1)
    return (2 * concordant - len(first)) / len(first)


def wmt_kendall(
    human: np.ndarray,
    metric: np.ndarray,
    groups: Sequence,
    threshold: float = 25.0,
    selection: np.ndarray | None = None,
) -> float:
    """The WMT DARR Kendall-like tau: (concordant - discordant) / (concordant + discordant).

    Over the pairs of :func:`wmt_pairs`, scored by :func:`wmt_kendall_rows`.

    :returns: tau in [-1, 1]; nan when no pair qualifies.
    """
    return float(wmt_kendall_rows(metric, wmt_pairs(human, groups, threshold, selection))[0])


def lens_kendall(metric: np.ndarray, ratings: np.ndarray, groups: Sequence, threshold: float = 5.0) -> float:
    """LENS's tau: (concordant - discordant) / (concordant + discordant) over :func:`lens_pairs`.

    :returns: tau in [-1, 1]; nan when no pair qualifies.
    """
    return float(wmt_kendall_rows(metric, lens_pairs(ratings, groups, threshold))[0])


EQUAL_CORRELATIONS = 1e-12
"""Correlations closer than this are equal to the Williams test (they differ by rounding only)."""


def williams_test(r12: float, r13: float, r23: float, n: int) -> float:
    """One-sided p-value that correlation ``r12`` is greater than ``r13`` (Williams 1959).

    Variable 1 is the human score, 2 and 3 the two metrics; ``r23`` is the metrics'
    correlation with each other and ``n`` the number of items all three were observed on.
    The statistic (Graham and Baldwin 2014, eq. 1)::

        t = (r12 - r13) sqrt((n - 1)(1 + r23))
            / sqrt(2 K (n - 1)/(n - 3) + (r12 + r13)^2 / 4 (1 - r23)^3),
        K = 1 - r12^2 - r13^2 - r23^2 + 2 r12 r13 r23,

    follows Student's t with n - 3 degrees of freedom. The correlations must be oriented so that
    higher is better (flip a metric's sign as a whole, together with its ``r23``).
    """
    if n <= 3:
        raise ValueError(f"the Williams test needs n > 3 items, got {n}")
    if abs(r12 - r13) <= EQUAL_CORRELATIONS:
        # t = 0: no evidence either way. Said outright, because with r23 = 1 (two metrics that order
        # every item alike, e.g. bleu and sent-bleu) the variance below is 0 in exact arithmetic and a
        # rounding error off it in floats, which made a NaN (sqrt) or a spurious p of 0 or 1.
        return 0.5
    k = 1 - r12**2 - r13**2 - r23**2 + 2 * r12 * r13 * r23
    variance = max(2 * k * (n - 1) / (n - 3) + ((r12 + r13) ** 2) / 4 * (1 - r23) ** 3, 0.0)
    numerator = (r12 - r13) * np.sqrt((n - 1) * (1 + r23))
    if variance == 0.0:
        return float(numerator < 0)
    return float(_sp.t.sf(numerator / np.sqrt(variance), df=n - 3))


def rowwise_correlation(matrix: np.ndarray, y: np.ndarray, method: str = "pearson") -> np.ndarray:
    """Correlation of each row of ``matrix`` with ``y``: one vector every row shares, or one row per
    row of ``matrix`` (a bootstrap resamples both). Vectorised for every method: Kendall's tau-b
    counts its pairs by sorting (:mod:`~simpeval.metaeval.paircounts`), as scipy does.

    Rows where either side is constant give nan.
    """
    matrix = np.atleast_2d(np.asarray(matrix, dtype=float))
    y = np.asarray(y, dtype=float)
    if method not in CORRELATIONS:
        raise ValueError(f"unknown correlation {method!r}; expected one of {CORRELATIONS}")
    constant = (np.ptp(matrix, axis=1) == 0) | (np.ptp(y, axis=-1) == 0) if matrix.shape[1] else True
    if method == "kendall":
        values = _tau_b_rows(matrix, y)
    else:
        if method == "spearman":
            matrix, y = _sp.rankdata(matrix, axis=1), _sp.rankdata(y, axis=-1)
        xc = matrix - matrix.mean(axis=1, keepdims=True)
        yc = y - y.mean(axis=-1, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            if y.ndim == 1:
                values = (xc @ yc) / np.sqrt((xc**2).sum(axis=1) * (yc**2).sum())
            else:
                values = (xc * yc).sum(axis=1) / np.sqrt((xc**2).sum(axis=1) * (yc**2).sum(axis=1))
    return np.where(constant, np.nan, values)


def _tau_b_rows(matrix: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Kendall's tau-b of each row with ``y``, by scipy's formula on the counted pairs."""
    classes = pair_classes(y, matrix)
    tot, x_tie, y_tie = classes.pairs, classes.tied_metric, classes.tied_human
    con_minus_dis = tot - x_tie - y_tie + classes.tied_both - 2 * classes.discordant
    with np.errstate(invalid="ignore", divide="ignore"):
        tau = con_minus_dis / np.sqrt(tot - x_tie) / np.sqrt(tot - y_tie)
    return np.clip(tau, -1.0, 1.0)


RowwiseFn = Callable[[np.ndarray, np.ndarray], np.ndarray]
Tick = Callable[[int], None]

_CHUNK_CELLS = 1 << 19
"""Resamples x items drawn and scored at once: memory stays bounded and a progress bar moves."""


def resample_chunks(n_resamples: int, n_items: int) -> list[int]:
    """Sizes of the chunks a resampling test draws one after another. The generator yields the same
    numbers row after row whatever the chunks (``random`` and ``integers`` fill row-major)."""
    step = max(1, _CHUNK_CELLS // max(1, n_items))
    return [min(step, n_resamples - start) for start in range(0, n_resamples, step)]


def _standardize(x: np.ndarray) -> np.ndarray:
    sd = x.std()
    return (x - x.mean()) / sd if sd > 0 else x - x.mean()


def perm_both_test(
    human: np.ndarray,
    metric_a: np.ndarray,
    metric_b: np.ndarray,
    corr: RowwiseFn,
    rng: np.random.Generator,
    n_resamples: int = 1000,
    tick: Tick | None = None,
) -> float:
    """One-sided p-value that metric A correlates better with ``human`` than metric B (PERM-BOTH).

    Deutsch, Dror and Roth (2021): under the null hypothesis the two metrics are
    exchangeable, so each resample swaps the two metrics' scores on a random half of the
    items and recomputes the difference of correlations. Both metrics are first standardised
    (z-scores) so that a swap compares like with like, as mt-metrics-eval does.

    :param corr: correlation of each row of a matrix with ``human``, e.g.
        ``lambda m, h: rowwise_correlation(m, h, "pearson")``; metrics must already be
        oriented so that higher is better. It gets a chunk of resamples at a time
        (:func:`resample_chunks`).
    :param tick: called with the number of resamples after each chunk (a progress bar).
    :returns: (1 + #resamples whose difference >= the observed one) / (1 + n_resamples).
    """
    a = _standardize(np.asarray(metric_a, dtype=float))
    b = _standardize(np.asarray(metric_b, dtype=float))
    human = np.asarray(human, dtype=float)
    observed = corr(np.vstack([a, b]), human)
    at_least = 0
    for size in resample_chunks(n_resamples, len(a)):
        swap = rng.random((size, len(a))) < 0.5
        deltas = corr(np.where(swap, b, a), human) - corr(np.where(swap, a, b), human)
        at_least += int(np.sum(deltas >= observed[0] - observed[1] - 1e-12))
        if tick is not None:
            tick(size)
    return float((1 + at_least) / (1 + n_resamples))


def bootstrap_interval(
    statistic: Callable[[np.ndarray], float] | Callable[[np.ndarray], np.ndarray],
    n: int,
    rng: np.random.Generator,
    n_resamples: int = 1000,
    level: float = 0.95,
    *,
    rows: bool = False,
    tick: Tick | None = None,
) -> tuple[float, float]:
    """Percentile bootstrap interval of ``statistic`` over ``n`` items resampled with replacement.

    :param statistic: maps an index array (a resample of ``range(n)``) to a number, e.g.
        ``lambda idx: correlation(metric[idx], human[idx])[0]``; with ``rows``, a matrix of
        resamples (one per row) to one number per row, all at once.
    :param level: the two-sided coverage: 0.95 gives the 2.5th and 97.5th percentiles (the
        released code of Alva-Manchego et al. labelled its 5th-95th percentile interval "95%").
    :param tick: called with the number of resamples after each chunk (a progress bar).
    """
    samples = []
    for size in resample_chunks(n_resamples, n):
        draws = rng.integers(0, n, (size, n))
        samples.append(statistic(draws) if rows else np.array([statistic(idx) for idx in draws]))
        if tick is not None:
            tick(size)
    tail = (1 - level) / 2 * 100
    low, high = np.nanpercentile(np.concatenate(samples), [tail, 100 - tail])
    return float(low), float(high)


def icc1(ratings: np.ndarray) -> float:
    """ICC(1,1): one-way random effects, single rater, absolute agreement (Shrout and Fleiss 1979).

    :param ratings: an items x k matrix; column j is "the j-th rating of each item", so different
        items may have been rated by different people (as in crowdsourced data). No NaN allowed.
    :returns: (MSB - MSW) / (MSB + (k - 1) MSW), where MSB and MSW are the between-item and
        within-item mean squares.
    """
    ratings = np.asarray(ratings, dtype=float)
    n, k = ratings.shape
    item_means = ratings.mean(axis=1)
    msb = k * np.sum((item_means - ratings.mean()) ** 2) / (n - 1)
    msw = np.sum((ratings - item_means[:, None]) ** 2) / (n * (k - 1))
    return float((msb - msw) / (msb + (k - 1) * msw))


@dataclass(frozen=True)
class SimulatedRaterAgreement:
    """Mean and standard deviation of the simulated two-rater Spearman over the repetitions."""

    mean: float
    std: float
    repetitions: int


def simulated_rater_spearman(
    ratings: np.ndarray, rng: np.random.Generator, repetitions: int = 1000
) -> SimulatedRaterAgreement:
    """Simulated two-rater Spearman correlation (Alva-Manchego et al. 2021, §3).

    Each repetition picks, for every item, one of its ratings at random as rater A and the
    mean of the others as rater B, and computes Spearman's rho between A and B over the items.

    :param ratings: items x k matrix of ratings (k >= 2, no NaN).
    :returns: mean and (population) standard deviation of rho; the paper's "mean +/- variance"
        is in fact this standard deviation.
    """
    ratings = np.asarray(ratings, dtype=float)
    n, k = ratings.shape
    totals = ratings.sum(axis=1)
    rows = np.arange(n)
    rhos = np.empty(repetitions)
    for r in range(repetitions):
        pick = ratings[rows, rng.integers(0, k, n)]
        rhos[r] = _sp.spearmanr(pick, (totals - pick) / (k - 1))[0]
    return SimulatedRaterAgreement(float(rhos.mean()), float(rhos.std()), repetitions)
