"""Correlations averaged over groups of items (``meta-evaluate --average-by item|system``).

WMT's meta-evaluation (mt-metrics-eval's ``AverageCorrelation``) computes a sentence-level
correlation within each group and averages: ``item`` groups the outputs of one source (the
correlation across systems for that source), ``system`` groups one system's outputs (across
items). A group whose correlation is undefined (fewer than two items with a human score, or a
constant vector, so Pearson, Spearman and tau-b are nan) is dropped from the mean and counted.
Tie-aware statistics (acc23, tau_23) are defined on constant vectors, so those groups stay in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats as _sp

AVERAGING = ("none", "item", "system")

PairCorrelation = Callable[[np.ndarray, np.ndarray], float]


@dataclass(frozen=True)
class Averaged:
    """A mean correlation over groups, with how many groups it used and how many it dropped."""

    value: float
    used: int
    dropped: int


def plain_correlation(method: str) -> PairCorrelation:
    """``f(human, metric)``: Pearson, Spearman or tau-b on two vectors of at least two values.

    Unlike :func:`simpeval.metaeval.stats.correlation` (which wants 3 values for a p-value), two
    values are enough here, as in scipy and mt-metrics-eval: a group of two outputs gives +-1.
    nan when either vector is constant.
    """
    functions = {
        "pearson": _sp.pearsonr,
        "spearman": _sp.spearmanr,
        "kendall": lambda x, y: _sp.kendalltau(x, y, variant="b"),
    }
    if method not in functions:
        raise ValueError(f"unknown correlation {method!r}; expected one of {tuple(functions)}")

    def corr(human: np.ndarray, metric: np.ndarray) -> float:
        if len(human) < 2 or np.ptp(human) == 0 or np.ptp(metric) == 0:
            return float("nan")
        return float(functions[method](human, metric)[0])

    return corr


def average_correlation(human: np.ndarray, metric: np.ndarray, groups: Sequence,
                        corr: PairCorrelation) -> Averaged:
    """Mean of ``corr(human[g], metric[g])`` over the groups ``g`` (equal ``groups`` labels).

    Items whose human or metric score is nan are left out first; a group with fewer than two
    items left, or whose correlation is nan, is dropped (and counted in ``dropped``).

    :returns: ``Averaged(nan, 0, dropped)`` when every group is dropped.
    """
    human = np.asarray(human, dtype=float)
    metric = np.asarray(metric, dtype=float)
    labels = np.asarray(groups)
    ok = np.isfinite(human) & np.isfinite(metric)
    values, dropped = [], 0
    for g in dict.fromkeys(labels.tolist()):
        idx = np.flatnonzero((labels == g) & ok)
        r = corr(human[idx], metric[idx]) if len(idx) >= 2 else float("nan")
        if np.isnan(r):
            dropped += 1
        else:
            values.append(r)
    return Averaged(float(np.mean(values)) if values else float("nan"), len(values), dropped)


RowsCorrelation = Callable[[np.ndarray, np.ndarray], np.ndarray]


def average_rows(human: np.ndarray, metric_rows: np.ndarray, groups: Sequence, corr: RowsCorrelation) -> np.ndarray:
    """:func:`average_correlation` of every row of ``metric_rows`` against one ``human`` vector at once
    (the resamples of a permutation test), every value finite.

    :param corr: ``f(human, metric_rows) -> one value per row``, nan where undefined (a constant
        vector, or no pair), e.g. :func:`simpeval.metaeval.stats.rowwise_correlation`.
    :returns: per row, the mean over the groups of at least two items whose value is defined; nan
        where none is.
    """
    human = np.asarray(human, dtype=float)
    metric_rows = np.atleast_2d(np.asarray(metric_rows, dtype=float))
    labels = np.asarray(groups)
    per_group = []
    for g in dict.fromkeys(labels.tolist()):
        idx = np.flatnonzero(labels == g)
        if len(idx) >= 2:
            per_group.append(corr(human[idx], metric_rows[:, idx]))
    if not per_group:
        return np.full(len(metric_rows), np.nan)
    values = np.column_stack(per_group)
    used = np.isfinite(values).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(used > 0, np.nansum(values, axis=1) / used, np.nan)
