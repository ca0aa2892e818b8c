"""Correlate metrics with human scores within each split, and test which differences are significant.

This is the arithmetic of ``simpeval meta-evaluate`` without any I/O: human scores and metric
scores come in as arrays, records and significance matrices go out.

How it departs from the released code of Alva-Manchego et al. (2021), on purpose:

- **orientation**: each metric is oriented *as a whole* within a split (multiplied by the sign
  of its correlation with the human score there), so a metric that correlates negatively,
  like FKGL, is compared by \\|r\\| and its correlation with every other metric flips sign with
  it; the released code took the absolute value of each correlation separately;
- **n**: the Williams test uses the number of items the three correlations were computed on
  (items where the human score and both metrics are finite), not the size of the whole dataset;
- **winner**: a metric is a winner when *no* other metric outperforms it significantly
  (p < alpha), as the paper says; the released code required it to beat every other one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from simpeval.metaeval import stats
from simpeval.metaeval.splits import Split


@dataclass
class Record:
    """The correlation of one metric with the human score on one split."""

    metric: str
    split: str
    n: int
    r: float  # signed
    p_value: float
    winner: bool
    ci_low: float | None = None  # bootstrap interval of the signed r
    ci_high: float | None = None


@dataclass
class SplitSignificance:
    """``p[i, j]``: p-value that metric i correlates better than metric j (nan: not tested)."""

    metrics: list[str]
    p: np.ndarray


@dataclass
class MetaEvaluation:
    """Everything ``meta-evaluate`` reports."""

    records: list[Record]
    significance: dict[str, SplitSignificance]
    warnings: list[str] = field(default_factory=list)

    def record(self, metric: str, split: str) -> Record:
        for rec in self.records:
            if rec.metric == metric and rec.split == split:
                return rec
        raise KeyError((metric, split))

    @property
    def splits(self) -> list[str]:
        return list(dict.fromkeys(r.split for r in self.records))

    @property
    def metrics(self) -> list[str]:
        return list(dict.fromkeys(r.metric for r in self.records))


@dataclass(frozen=True)
class Settings:
    """How to correlate and test."""

    correlation: str = "pearson"
    significance: str = "williams"
    alpha: float = 0.05
    resamples: int = 1000  # permutation test
    bootstrap: int = 0  # bootstrap resamples for confidence intervals; 0 = none
    ci_level: float = 0.95  # coverage of those intervals
    wmt_threshold: float = 25.0
    lens_threshold: float = 5.0


def _correlator(
    settings: Settings, groups: np.ndarray | None, selection: np.ndarray | None
) -> Callable[[np.ndarray, np.ndarray, np.ndarray], tuple[float, float]]:
    """``corr(x, y, items) -> (r, p)``; ``items`` (dataset indices) locate WMT and LENS pairs."""
    if settings.correlation == "lens-kendall":
        if groups is None or selection is None:
            raise ValueError("lens-kendall needs every item's pairing group and per-rater ratings")

        def lens(x: np.ndarray, y: np.ndarray, items: np.ndarray) -> tuple[float, float]:
            return stats.lens_kendall(x, selection[items], groups[items], settings.lens_threshold), float("nan")

        return lens
    if settings.correlation == "wmt-kendall":
        if groups is None:
            raise ValueError("wmt-kendall needs the source of every item (groups)")

        def wmt(x: np.ndarray, y: np.ndarray, items: np.ndarray) -> tuple[float, float]:
            chosen = None if selection is None else selection[items]
            return stats.wmt_kendall(y, x, groups[items], settings.wmt_threshold, chosen), float("nan")

        return wmt
    return lambda x, y, items: stats.correlation(x, y, settings.correlation)


def _rowwise(settings: Settings, groups: np.ndarray | None, selection: np.ndarray | None, items: np.ndarray,
             human: np.ndarray):
    """``corr(matrix, human)`` per row, for the permutation test over ``items``."""
    if settings.correlation == "lens-kendall":
        pairs = stats.lens_pairs(selection[items], groups[items], settings.lens_threshold)
        return lambda m, h: stats.wmt_kendall_rows(m, pairs)
    if settings.correlation == "wmt-kendall":
        chosen = None if selection is None else selection[items]
        pairs = stats.wmt_pairs(human, groups[items], settings.wmt_threshold, chosen)  # found once, not per resample
        return lambda m, h: stats.wmt_kendall_rows(m, pairs)
    return lambda m, h: stats.rowwise_correlation(m, h, settings.correlation)


def meta_evaluate(
    human: np.ndarray,
    scores: Mapping[str, np.ndarray],
    split: Split,
    settings: Settings,
    rng: np.random.Generator,
    groups: Sequence | None = None,
    selection: np.ndarray | None = None,
) -> MetaEvaluation:
    """Correlations, significance and winners of every metric in every group of ``split``.

    :param human: per-item human score (nan = missing).
    :param scores: metric name -> per-item scores (nan = missing).
    :param groups: per-item source id (required for ``wmt-kendall``); for ``lens-kendall``, the
        pairing group (source and sentence type).
    :param selection: per-item scores that select WMT pairs (default: ``human``); for
        ``lens-kendall``, the items x raters matrix of raw ratings.
    """
    if settings.significance == "williams" and settings.correlation != "pearson":
        raise ValueError("the Williams test is for Pearson correlations: use the permutation test")
    human = np.asarray(human, dtype=float)
    groups_arr = None if groups is None else np.asarray(groups)
    corr = _correlator(settings, groups_arr, selection)
    result = MetaEvaluation([], {}, list(split.warnings))
    for split_name, idx in split.groups.items():
        records, matrix = _one_split(
            human, scores, split_name, idx, settings, rng, corr, groups_arr, selection, result.warnings
        )
        result.records.extend(records)
        result.significance[split_name] = matrix
    return result


def _one_split(human, scores, split_name, idx, settings, rng, corr, groups, selection, warnings):
    names = list(scores)
    columns = {m: np.asarray(scores[m], dtype=float)[idx] for m in names}
    h = human[idx]
    records = []
    signs = {}
    for m in names:
        ok = np.isfinite(columns[m]) & np.isfinite(h)
        n = int(ok.sum())
        r, p = corr(columns[m][ok], h[ok], idx[ok]) if n >= 3 else (float("nan"), float("nan"))
        if np.isnan(r):
            warnings.append(f"{m} has no correlation on split {split_name} (n={n}, constant or too few values)")
        else:
            signs[m] = 1.0 if r >= 0 else -1.0
        records.append(Record(m, split_name, n, r, p, winner=False))
        if settings.bootstrap and not np.isnan(r):
            x, y, items = columns[m][ok], h[ok], idx[ok]
            records[-1].ci_low, records[-1].ci_high = stats.bootstrap_interval(
                lambda s: corr(x[s], y[s], items[s])[0], n, rng, settings.bootstrap, settings.ci_level
            )
    p_matrix = _significance(h, columns, signs, names, settings, rng, corr, idx, groups, selection)
    for i, rec in enumerate(records):
        tested = rec.metric in signs
        beaten = np.nan_to_num(p_matrix[:, i], nan=1.0) < settings.alpha
        rec.winner = tested and not beaten.any()
    return records, SplitSignificance(names, p_matrix)


def _significance(h, columns, signs, names, settings, rng, corr, idx, groups, selection) -> np.ndarray:
    k = len(names)
    p = np.full((k, k), np.nan)
    if settings.significance == "none":
        return p
    for i in range(k):
        for j in range(k):
            a, b = names[i], names[j]
            if i == j or a not in signs or b not in signs:
                continue
            ok = np.isfinite(columns[a]) & np.isfinite(columns[b]) & np.isfinite(h)
            x, y, hh, items = signs[a] * columns[a][ok], signs[b] * columns[b][ok], h[ok], idx[ok]
            r12, r13 = corr(x, hh, items)[0], corr(y, hh, items)[0]
            if not r12 > r13:  # only the better of the two can significantly beat the other
                continue
            n = int(ok.sum())
            if settings.significance == "williams":
                if n > 3:
                    r23 = stats.correlation(x, y, "pearson")[0]
                    p[i, j] = stats.williams_test(r12, r13, 1.0 if np.isnan(r23) else r23, n)
            else:
                rowwise = _rowwise(settings, groups, selection, items, hh)
                p[i, j] = stats.perm_both_test(hh, x, y, rowwise, rng, settings.resamples)
    return p
