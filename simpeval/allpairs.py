"""Every pair of systems compared, and the systems ranked into significance clusters, per sub-score.

This is the arithmetic of ``simpeval evaluate --sys A --sys B --sys C --all-pairs`` (and of
:func:`simpeval.runner.compare_systems` with ``all_pairs``), over what the engine collected for each
metric while it scored the systems: every system's per-item **additive statistics** and the
metric's ``scorer`` (:mod:`simpeval.significance`), plus the per-item sentence scores, cached and
computed by the run's executor like any score. Nothing here scores text.

Per sub-score:

- **paired bootstrap** (Koehn 2004, as sacrebleu's ``--paired-bs``): every system is scored once
  on the same ``n_bootstrap`` resamples of the items (one generator seeded with ``seed``, so each
  pair sees exactly the resamples :func:`simpeval.significance.paired_bootstrap` would draw with
  that seed, and sacrebleu would); a pair's p-value compares the observed absolute difference
  with the resampled ones shifted to mean zero. Scoring each system once, not once per pair,
  keeps hundreds of systems cheap. The same resamples give each system's 95% interval;
- **approximate randomization** (optional, ``n_ar`` trials per pair, as ``--paired-ar``): each
  trial swaps the two systems' statistics on every item with probability 1/2, so it costs two
  scorings per trial *per pair*;
- **paired t-test** on the per-item sentence scores (Student's t on the differences, n - 1
  degrees of freedom, two-sided, as scipy's ``ttest_rel``). For a corpus-level metric (BLEU,
  SARI, FKGL) it tests the mean sentence score, not the corpus score;
- **win / tie / loss** rates: the share of items whose sentence score is better, equal or worse
  for the first system of the pair (better = lower for a lower-is-better score such as FKGL);
- a sub-score without a direction (a feature such as ``qe-compression``,
  :meth:`simpeval.Metric.declared_direction`) gets p-values but no wins, losses or ranks;
- **ranking**: systems sorted by score, then grouped into significance clusters with
  :func:`simpeval.ranks.cluster_ranks` (WMT's rule) on the bootstrap p-values, Holm-corrected
  over all pairs of the sub-score by default (:func:`simpeval.ranks.holm`).

On fewer than :data:`simpeval.significance.MIN_PAIRED_ITEMS` items no test makes a claim, as
for ``--paired-bs``: the bootstrap, AR and t-test p-values are NaN and every system shares
rank 1 (the resamples are still drawn, so the intervals are those of any other run). The
t-test is included in that rule so that no column of the table claims what the others cannot.
Memory stays bounded whatever resamples x items: the resamples are drawn a chunk at a time
(:func:`simpeval.significance.resampled_systems`), the same draws as one array.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy import stats as _sp

from simpeval import significance as sig
from simpeval.errors import UsageError
from simpeval.ranks import cluster_ranks, holm


# Holm over P pairs can only reject when the smallest p-value, 1 / (N + 1) for N resamples, is below
# alpha / P: 1,000 resamples (sacrebleu's default) cannot separate more than 7 systems at 0.05
HOLM_BOOTSTRAP = 10000
PLAIN_BOOTSTRAP = 1000  # sacrebleu's default, without Holm's correction
AR_TRIALS = 1000  # per pair: AR costs two scorings per trial and pair


@dataclass(frozen=True)
class Settings:
    """How every pair is compared: bootstrap resamples, AR trials per pair (None: no AR test), the
    seed, alpha and whether ranks use Holm-corrected p-values."""

    n_bootstrap: int = HOLM_BOOTSTRAP
    n_ar: int | None = None
    seed: int = 12345
    alpha: float = 0.05
    holm: bool = True

    @classmethod
    def from_options(cls, resamples: int | None, test: str | None, seed: int, holm: bool = True) -> Settings:
        """The settings of ``--paired-n`` (None: the defaults), ``--paired-ar`` (``test == "ar"``: AR too),
        ``--seed`` and ``--holm/--no-holm``."""
        return cls(resamples or (HOLM_BOOTSTRAP if holm else PLAIN_BOOTSTRAP),
                   (resamples or AR_TRIALS) if test == "ar" else None, seed, holm=holm)

    def work(self, n_systems: int, n_metrics: int) -> int:
        """How many resamples and trials :func:`compare_all_pairs` draws: a progress bar's total."""
        return n_metrics * (self.n_bootstrap + (self.n_ar or 0) * (n_systems * (n_systems - 1) // 2))

    def holm_warning(self, n_systems: int) -> str | None:
        """Why Holm's correction cannot separate any system with these resamples, or None."""
        n_pairs = n_systems * (n_systems - 1) // 2
        if self.holm and n_pairs / (self.n_bootstrap + 1) >= self.alpha:
            return (f"with {self.n_bootstrap} resamples, Holm's correction over {n_pairs} pairs cannot reach "
                    f"p < {self.alpha}: every system shares rank 1; raise --paired-n or pass --no-holm")
        return None


@dataclass(frozen=True)
class MetricStatistics:
    """What one metric contributes: its sub-scores and every system's statistics.

    :param stats: per system, the ``(n_items, k)`` additive statistics.
    :param sentence: per system, ``(n_items, len(sub_scores))`` sentence scores (nan: none).
    """

    sub_scores: list[str]
    higher_is_better: list[bool | None]  # None: a feature without a direction
    stats: list[np.ndarray]
    scorer: sig.Scorer
    sentence: list[np.ndarray] | None = None


@dataclass(frozen=True)
class PairComparison:
    """System ``first`` against system ``second`` on one sub-score."""

    metric: str
    first: str
    second: str
    delta: float  # score(first) - score(second)
    p_bootstrap: float
    p_ar: float | None
    p_ttest: float | None
    t: float | None
    wins: float | None  # share of items where first is better (sentence scores)
    ties: float | None
    losses: float | None
    p_holm: float | None = None  # bootstrap p, Holm-corrected over the sub-score's pairs


@dataclass(frozen=True)
class SystemRanking:
    """One system on one sub-score: its score, bootstrap interval and significance cluster."""

    metric: str
    system: str
    score: float
    mean: float
    low: float
    high: float
    rank: int | None


@dataclass
class AllPairs:
    """Everything ``--all-pairs`` reports."""

    systems: list[str]
    rankings: dict[str, list[SystemRanking]] = field(default_factory=dict)  # sub-score -> best first
    pairs: dict[str, list[PairComparison]] = field(default_factory=dict)  # sub-score -> every pair
    n_bootstrap: int = sig.BOOTSTRAP_SAMPLES
    n_ar: int | None = None
    seed: int = 12345
    alpha: float = 0.05
    holm: bool = True

    def note(self) -> str:
        """How the ranks were made, in one sentence."""
        correction = "Holm-corrected over all pairs" if self.holm else "uncorrected"
        return (f"rank: significance cluster by paired bootstrap ({self.n_bootstrap} resamples, seed {self.seed}, "
                f"p < {self.alpha} {correction}; a system starts a new cluster when significantly worse than one "
                "in the current cluster, as WMT ranks)")


def ranking_rows(result: AllPairs) -> tuple[list[str], list[list]]:
    """One row per system (best first by the first sub-score): per sub-score its rank and ``score (low-high)``."""
    subs = list(result.rankings)
    by_system = {sub: {row.system: row for row in result.rankings[sub]} for sub in subs}
    rows = []
    for system in (row.system for row in result.rankings[subs[0]]):
        row: list = [system]
        for sub in subs:
            r = by_system[sub][system]
            row += [r.rank, f"{r.score:.2f} ({r.low:.2f}-{r.high:.2f})"]
        rows.append(row)
    return ["system", *(c for sub in subs for c in (f"rank ({sub})", f"{sub} (95% CI)"))], rows


def pair_rows(result: AllPairs, sub: str) -> tuple[list[str], list[list]]:
    """One row per pair of systems on sub-score ``sub``."""
    columns = ["A", "B", "A - B", "p bootstrap", *(["p Holm"] if result.holm else []),
               *(["p AR"] if result.n_ar else []), "p t-test", "A wins", "ties", "B wins"]
    rows = [[p.first, p.second, p.delta, p.p_bootstrap, *([p.p_holm] if result.holm else []),
             *([p.p_ar] if result.n_ar else []), p.p_ttest, p.wins, p.ties, p.losses] for p in result.pairs[sub]]
    return columns, rows


def statistics(request, result) -> tuple[np.ndarray, sig.Scorer]:
    """One system's per-item statistics for the sub-scores of ``request`` (a metric request of the engine),
    and their scorer, from what the engine collected in ``result`` (its evaluation result): the per-item corpus statistics of a corpus-level metric (BLEU's n-gram
    counts; the run keeps them when it tests, cached per batch), else the sentence scores (their
    mean is the corpus score)."""
    metric = request.metric
    if not metric.corpus_level:
        values = np.array([result.sentence_scores[sub] for sub in request.report], dtype=float).T
        return sig.mean_statistics(values.reshape(result.n_items, len(request.report)))
    rows = result.item_statistics.get(request.report[0])
    if rows is None and result.n_items:
        raise UsageError(f'metric "{metric.name}" has a corpus score but no corpus statistics to resample: '
                         "leave it out of a paired test (--paired-bs/--paired-ar, --all-pairs)")
    report = list(request.report)

    def scorer(totals: np.ndarray) -> np.ndarray:
        rows = [metric.corpus_score_from_statistics(row) for row in totals.tolist()]
        return np.array([[scores[sub] for sub in report] for scores in rows], dtype=float)

    return np.asarray(rows or [], dtype=float).reshape(result.n_items, -1), scorer


def gather_statistics(requests, comparison) -> list[MetricStatistics]:
    """Each metric's per-system statistics and sentence scores, from a comparison whose run kept them
    (:func:`statistics`)."""
    out = []
    for request in requests:
        gathered = [statistics(request, system.result) for system in comparison.systems]
        report = list(request.report)
        n = comparison.baseline.result.n_items
        sentence = [np.array([system.result.sentence_scores.get(sub, [np.nan] * n) for sub in report],
                             dtype=float).T.reshape(n, len(report)) for system in comparison.systems]
        out.append(MetricStatistics(report, [comparison.higher_is_better[sub] for sub in report],
                                    [stats for stats, _ in gathered], gathered[0][1], sentence))
    return out


def paired_ttest(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """``(t, p)`` of the two-sided paired t-test of ``a`` against ``b`` (items with a nan left out).

    ``t = mean(d) / (sd(d) / sqrt(n))``, d = a - b, sd with n - 1 degrees of freedom; p from
    Student's t with n - 1 degrees of freedom. nan when fewer than 2 items or all d are equal.
    """
    d = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    d = d[np.isfinite(d)]
    if len(d) < 2:
        return float("nan"), float("nan")
    sd = d.std(ddof=1)
    if sd == 0:
        return float("nan"), float("nan")
    t = d.mean() / (sd / np.sqrt(len(d)))
    return float(t), float(2 * _sp.t.sf(abs(t), len(d) - 1))


def win_tie_loss(a: np.ndarray, b: np.ndarray, higher_is_better: bool = True) -> tuple[float, float, float]:
    """Shares of items (both scores finite) where ``a`` is better than, equal to, worse than ``b``."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    ok = np.isfinite(a) & np.isfinite(b)
    if not ok.any():
        return float("nan"), float("nan"), float("nan")
    d = (a[ok] - b[ok]) * (1 if higher_is_better else -1)
    n = len(d)
    return float(np.sum(d > 0) / n), float(np.sum(d == 0) / n), float(np.sum(d < 0) / n)


def compare_all_pairs(
    systems: Sequence[str],
    metrics: Sequence[MetricStatistics],
    *,
    n_bootstrap: int = sig.BOOTSTRAP_SAMPLES,
    n_ar: int | None = None,
    seed: int = 12345,
    alpha: float = 0.05,
    use_holm: bool = True,
    tick: sig.Tick | None = None,
) -> AllPairs:
    """Compare every pair of ``systems`` on every sub-score of ``metrics`` (see the module docstring).

    :param n_ar: approximate-randomization trials per pair; None: no AR test.
    :param use_holm: rank on Holm-corrected bootstrap p-values (else the raw ones).
    :param tick: called with the resamples and trials drawn as they go (a progress bar over
        :meth:`Settings.work`).
    """
    if len(systems) < 2:
        raise ValueError("all pairs need at least two systems")
    result = AllPairs(list(systems), n_bootstrap=n_bootstrap, n_ar=n_ar, seed=seed, alpha=alpha, holm=use_holm)
    for metric in metrics:
        _one_metric(result, metric, tick)
    return result


def _one_metric(result: AllPairs, metric: MetricStatistics, tick: sig.Tick | None) -> None:
    names, k = result.systems, len(result.systems)
    claim = sig.enough_items(len(metric.stats[0]))
    # every system on the same resamples, drawn a bounded chunk at a time: (n_bootstrap, subs) each
    resampled = sig.resampled_systems(np.random.default_rng(result.seed), result.n_bootstrap, *metric.stats,
                                      scorer=metric.scorer, tick=tick)
    full = np.array([sig.full_scores(s, metric.scorer) for s in metric.stats])  # (systems, sub-scores)
    ar = {}
    if result.n_ar is not None:
        for i in range(k):
            for j in range(i + 1, k):
                ar[i, j] = sig.ar_p_values(metric.stats[i], metric.stats[j], metric.scorer,
                                           np.random.default_rng(result.seed), result.n_ar, tick)
    for s, sub in enumerate(metric.sub_scores):
        direction = metric.higher_is_better[s]  # None: a feature, neither better nor worse
        better = -1.0 if direction is False else 1.0
        p_boot = np.full((k, k), np.nan)
        pairs = []
        for i in range(k):
            for j in range(i + 1, k):
                diffs = np.abs(resampled[i][:, s] - resampled[j][:, s])
                p = sig.p_value(diffs - diffs.mean(), abs(full[i, s] - full[j, s])) if claim else np.nan
                p_boot[i, j] = p_boot[j, i] = p
                t = p_t = wins = ties = losses = None
                if metric.sentence is not None:
                    a, b = metric.sentence[i][:, s], metric.sentence[j][:, s]
                    t, p_t = paired_ttest(a, b) if claim else (float("nan"), float("nan"))
                    if direction is not None:  # "wins" of a feature would say which output is better
                        wins, ties, losses = win_tie_loss(a, b, better > 0)
                pairs.append(PairComparison(sub, names[i], names[j], float(full[i, s] - full[j, s]), p,
                                            None if not ar else float(ar[i, j][s]), p_t, t, wins, ties, losses))
        adjusted = _upper_holm(p_boot) if result.holm else p_boot
        pairs = [PairComparison(**{**vars(pair), "p_holm": float(adjusted[names.index(pair.first),
                                                                         names.index(pair.second)])})
                 for pair in pairs] if result.holm else pairs
        oriented = better * full[:, s]
        # only the better of two systems can be significantly better than the other
        p_better = np.where(oriented[:, None] > oriented[None, :], adjusted, np.nan)
        ranks = cluster_ranks(oriented, p_better, result.alpha) if direction is not None else [None] * k
        rows = []
        for i in np.argsort(-oriented, kind="stable"):
            interval = sig.interval_of(resampled[i][:, s])
            rows.append(SystemRanking(sub, names[i], float(full[i, s]), interval.mean, interval.low, interval.high,
                                      ranks[i]))
        result.rankings[sub] = rows
        result.pairs[sub] = pairs


def _upper_holm(p: np.ndarray) -> np.ndarray:
    """Holm over the distinct pairs (the upper triangle) of a symmetric p-value matrix, made symmetric again."""
    upper = np.where(np.triu(np.ones(p.shape, dtype=bool), k=1), p, np.nan)
    adjusted = holm(upper)
    return np.where(np.isnan(adjusted), adjusted.T, adjusted)
