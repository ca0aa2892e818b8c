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

from simpeval.metaeval import grouped, stats, ties
from simpeval.metaeval.splits import Split
from simpeval.ranks import cluster_ranks


MIN_TESTED_ITEMS = 6
"""The fewest rated items of a split on which winners and ranks are marked: as for paired tests
(:data:`simpeval.significance.MIN_PAIRED_ITEMS`), no test on fewer can claim a difference at 0.05 (the
Williams test needs more than 3 at all), yet every metric was starred a winner on 3 items."""

# correlations of :mod:`~simpeval.metaeval.ties` (no p-value; acc23-opt also reports its threshold)
TIE_AWARE = ("kendall-23", "acc23", "acc23-opt", "pairwise-accuracy")


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
    threshold: float | None = None  # acc23-opt: the metric tie threshold chosen
    groups: int | None = None  # --average-by item|system: groups averaged ...
    dropped: int | None = None  # ... and groups dropped (constant vectors, fewer than 2 items)
    rank: int | None = None  # --rank: significance cluster (1 = best)


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
    average_by: str = "none"  # item | system: mean of per-group correlations (mt-metrics-eval's averaging)
    tie_epsilon: float = 0.0  # kendall-23, acc23: metric differences up to this are ties
    tie_sample: float = 1.0  # acc23-opt: share of pairs considered (1.0: all)
    tie_seed: int = 0  # acc23-opt: seed of that sample (the same pairs for every metric)
    rank: bool = False  # --rank: significance clusters (simpeval.ranks), one rank per metric and split


Correlator = Callable[[np.ndarray, np.ndarray, np.ndarray], tuple[float, float, dict]]


def _pair_statistic(settings: Settings, average_keys: np.ndarray | None):
    """``f(metric, human, items) -> (value, info)`` for the correlations of :mod:`~simpeval.metaeval.ties`
    and for any correlation averaged over ``average_keys`` (per-item group labels)."""
    name = settings.correlation
    if name == "acc23-opt":
        def opt(x, y, items):
            keys = None if average_keys is None else average_keys[items]
            rng = np.random.default_rng(settings.tie_seed) if settings.tie_sample < 1 else None
            cal = ties.acc23_opt(y, x, keys, sample_rate=settings.tie_sample, rng=rng)
            info = {"threshold": cal.threshold}
            if keys is not None:
                info["groups"] = cal.groups
                info["dropped"] = len(np.unique(keys)) - cal.groups
            return cal.value, info

        return opt
    if name == "kendall-23":
        pair = lambda h, m: ties.kendall_23(h, m, settings.tie_epsilon)  # noqa: E731
    elif name == "acc23":
        pair = lambda h, m: ties.acc23(h, m, settings.tie_epsilon)  # noqa: E731
    elif name == "pairwise-accuracy":
        pair = ties.pairwise_accuracy
    else:
        pair = grouped.plain_correlation(name)
    if average_keys is None:
        return lambda x, y, items: (pair(y, x), {})

    def averaged(x, y, items):
        result = grouped.average_correlation(y, x, average_keys[items], pair)
        return result.value, {"groups": result.used, "dropped": result.dropped}

    return averaged


def _correlator(
    settings: Settings, groups: np.ndarray | None, selection: np.ndarray | None,
    average_keys: np.ndarray | None = None,
) -> Correlator:
    """``corr(x, y, items) -> (r, p, info)``; ``items`` (dataset indices) locate WMT and LENS pairs
    and the groups of ``--average-by``; ``info`` holds what a record reports beside ``r``."""
    if settings.correlation in TIE_AWARE or average_keys is not None:
        statistic = _pair_statistic(settings, average_keys)
        return lambda x, y, items: _with_nan_p(statistic(x, y, items))
    if settings.correlation == "lens-kendall":
        if groups is None or selection is None:
            raise ValueError("lens-kendall needs every item's pairing group and per-rater ratings")

        def lens(x: np.ndarray, y: np.ndarray, items: np.ndarray) -> tuple[float, float, dict]:
            return stats.lens_kendall(x, selection[items], groups[items], settings.lens_threshold), float("nan"), {}

        return lens
    if settings.correlation == "wmt-kendall":
        if groups is None:
            raise ValueError("wmt-kendall needs the source of every item (groups)")

        def wmt(x: np.ndarray, y: np.ndarray, items: np.ndarray) -> tuple[float, float, dict]:
            chosen = None if selection is None else selection[items]
            return stats.wmt_kendall(y, x, groups[items], settings.wmt_threshold, chosen), float("nan"), {}

        return wmt
    return lambda x, y, items: (*stats.correlation(x, y, settings.correlation), {})


def _with_nan_p(value_info: tuple[float, dict]) -> tuple[float, float, dict]:
    """No p-value for the tie-aware and averaged statistics (the permutation test gives one per pair)."""
    return value_info[0], float("nan"), value_info[1]


def _rows_statistic(settings: Settings, average_keys: np.ndarray | None):
    """``f(human, metric_rows, items) -> one value per row``, computed for every row at once (the
    resamples of a test); None for a statistic without that form (acc23-opt, a positive tie
    epsilon, pairwise-accuracy, the WMT and LENS taus), which is computed one row at a time.

    ``human`` is one vector every row shares (a permutation test), or one row per metric row (a
    bootstrap); averaged statistics need the shared one (their groups are those of ``items``).
    """
    name = settings.correlation
    if name in ("kendall-23", "acc23") and settings.tie_epsilon == 0:
        variant = "23" if name == "kendall-23" else "acc23"
        pair = lambda h, m: ties.tau_rows(h, m, variant)  # noqa: E731
    elif name in stats.CORRELATIONS:
        pair = lambda h, m: stats.rowwise_correlation(m, h, name)  # noqa: E731
    else:
        return None
    if average_keys is None:
        return lambda h, m, items: pair(h, m)
    return lambda h, m, items: grouped.average_rows(h, m, average_keys[items], pair)


def _rowwise(settings: Settings, context: _Context, items: np.ndarray, human: np.ndarray):
    """``corr(matrix, human)`` per row, for the permutation test over ``items``."""
    if settings.correlation == "lens-kendall":
        pairs = stats.lens_pairs(context.selection[items], context.groups[items], settings.lens_threshold)
        return lambda m, h: stats.wmt_kendall_rows(m, pairs)
    if settings.correlation == "wmt-kendall":
        chosen = None if context.selection is None else context.selection[items]
        pairs = stats.wmt_pairs(human, context.groups[items], settings.wmt_threshold, chosen)  # found once
        return lambda m, h: stats.wmt_kendall_rows(m, pairs)
    rows = _rows_statistic(settings, context.average_keys)
    if rows is not None:
        return lambda m, h: rows(h, m, items)
    return lambda m, h: np.array([context.corr(row, h, items)[0] for row in np.atleast_2d(m)])


@dataclass(frozen=True)
class _Context:
    """What every split's correlations and tests share."""

    settings: Settings
    seed: int
    corr: Correlator
    groups: np.ndarray | None
    selection: np.ndarray | None
    average_keys: np.ndarray | None
    tick: Callable[[int], None] | None

    def generator(self) -> np.random.Generator:
        """A new generator started from the seed: every bootstrap and permutation test draws from its own."""
        return np.random.default_rng(self.seed)


def resampling_work(settings: Settings, split: Split, n_metrics: int) -> int:
    """How many resamples :func:`meta_evaluate` draws at most: a progress bar's total. Each split
    bootstraps every metric and, under the permutation test, tests every pair of metrics once
    (the one whose correlation is higher against the other)."""
    per_split = n_metrics * settings.bootstrap
    if settings.significance == "permutation":
        per_split += n_metrics * (n_metrics - 1) // 2 * settings.resamples
    return per_split * len(split.groups)


def meta_evaluate(
    human: np.ndarray,
    scores: Mapping[str, np.ndarray],
    split: Split,
    settings: Settings,
    seed: int,
    groups: Sequence | None = None,
    selection: np.ndarray | None = None,
    average_keys: Sequence | None = None,
    tick: Callable[[int], None] | None = None,
) -> MetaEvaluation:
    """Correlations, significance and winners of every metric in every group of ``split``.

    :param seed: where every resampling starts. Each metric's bootstrap and each pair's permutation
        test draw from a new generator started from it, so a metric's interval depends only on its own
        scores, the ratings and the seed, never on which other metrics share the run or their order;
        metrics scored on the same items are resampled alike (a paired bootstrap, as
        :func:`simpeval.engine.compare.run_tests` does for systems).
    :param human: per-item human score (nan = missing).
    :param scores: metric name -> per-item scores (nan = missing).
    :param groups: per-item source id (required for ``wmt-kendall``); for ``lens-kendall``, the
        pairing group (source and sentence type).
    :param selection: per-item scores that select WMT pairs (default: ``human``); for
        ``lens-kendall``, the items x raters matrix of raw ratings.
    :param average_keys: with ``settings.average_by`` item or system, each item's group label
        (its source, or its system): correlations are averaged over those groups.
    :param tick: called with the number of resamples drawn as the tests go (a progress bar over
        :func:`resampling_work`).
    """
    if settings.significance == "williams" and settings.correlation != "pearson":
        raise ValueError("the Williams test is for Pearson correlations: use the permutation test")
    if settings.average_by != "none":
        if settings.correlation in ("wmt-kendall", "lens-kendall", "pairwise-accuracy"):
            raise ValueError(f"{settings.correlation} does its own pairing: use it with --average-by none")
        if average_keys is None:
            raise ValueError(f"--average-by {settings.average_by} needs each item's group")
        if settings.significance == "williams":
            raise ValueError("the Williams test is for one Pearson correlation, not an average: "
                             "use --significance permutation with --average-by")
    if settings.rank and settings.significance == "none":
        raise ValueError("--rank groups metrics by significance: pick --significance williams or permutation")
    human = np.asarray(human, dtype=float)
    groups_arr = None if groups is None else np.asarray(groups)
    keys = None if settings.average_by == "none" or average_keys is None else np.asarray(average_keys)
    context = _Context(settings, seed, _correlator(settings, groups_arr, selection, keys), groups_arr, selection,
                       keys, tick)
    result = MetaEvaluation([], {}, list(split.warnings))
    for split_name, idx in split.groups.items():
        records, matrix = _one_split(human, scores, split_name, idx, context, result.warnings)
        result.records.extend(records)
        result.significance[split_name] = matrix
    return result


def _one_split(human, scores, split_name, idx, context: _Context, warnings):
    settings, corr = context.settings, context.corr
    names = list(scores)
    columns = {m: np.asarray(scores[m], dtype=float)[idx] for m in names}
    h = human[idx]
    records = []
    signs = {}
    for m in names:
        ok = np.isfinite(columns[m]) & np.isfinite(h)
        n = int(ok.sum())
        r, p, info = corr(columns[m][ok], h[ok], idx[ok]) if n >= 3 else (float("nan"), float("nan"), {})
        if np.isnan(r):
            warnings.append(f"{m} has no correlation on split {split_name} (n={n}, constant or too few values)")
        else:
            signs[m] = 1.0 if r >= 0 else -1.0
        records.append(Record(m, split_name, n, r, p, winner=False, **info))
        if settings.bootstrap and not np.isnan(r):
            records[-1].ci_low, records[-1].ci_high = _bootstrap(columns[m][ok], h[ok], idx[ok], context)
        elif settings.bootstrap:
            _tick(context, settings.bootstrap)
    p_matrix = _significance(h, columns, signs, names, idx, context)
    testable = int(np.isfinite(h).sum()) >= MIN_TESTED_ITEMS
    if not testable and settings.significance != "none":
        warnings.append(f"split {split_name} has {int(np.isfinite(h).sum())} rated items, too few for a significance "
                        f"test (at least {MIN_TESTED_ITEMS}): its correlations are shown unmarked and unranked")
    for i, rec in enumerate(records):
        tested = rec.metric in signs and testable
        beaten = np.nan_to_num(p_matrix[:, i], nan=1.0) < settings.alpha
        rec.winner = tested and not beaten.any()
    if settings.rank:
        # the order the significance tests use: correlations oriented so that higher is better
        oriented = [rec.r * signs[rec.metric] if rec.metric in signs else np.nan for rec in records]
        for rec, rank in zip(records, cluster_ranks(oriented, p_matrix, settings.alpha)):
            rec.rank = rank if testable else None
    return records, SplitSignificance(names, p_matrix)


def _tick(context: _Context, n: int) -> None:
    if context.tick is not None:
        context.tick(n)


def _bootstrap(x: np.ndarray, y: np.ndarray, items: np.ndarray, context: _Context) -> tuple[float, float]:
    """The percentile interval of the statistic of ``x`` against ``y``: every resample at once where the
    statistic has that form and no groups (averaged groups change with each resample), else one by one."""
    settings = context.settings
    rows = None if context.average_keys is not None else _rows_statistic(settings, None)
    if rows is not None:
        return stats.bootstrap_interval(lambda draws: rows(y[draws], x[draws], None), len(x), context.generator(),
                                        settings.bootstrap, settings.ci_level, rows=True, tick=context.tick)
    return stats.bootstrap_interval(lambda s: context.corr(x[s], y[s], items[s])[0], len(x), context.generator(),
                                    settings.bootstrap, settings.ci_level, tick=context.tick)


def _significance(h, columns, signs, names, idx, context: _Context) -> np.ndarray:
    settings, corr = context.settings, context.corr
    k = len(names)
    p = np.full((k, k), np.nan)
    if settings.significance == "none":
        return p
    tested = 0
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
                rowwise = _rowwise(settings, context, items, hh)
                p[i, j] = stats.perm_both_test(hh, x, y, rowwise, context.generator(), settings.resamples, context.tick)
                tested += 1
    if settings.significance == "permutation":  # the pairs left untested: the bar's total counts them
        _tick(context, (k * (k - 1) // 2 - tested) * settings.resamples)
    return p
