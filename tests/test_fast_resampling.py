"""The vectorised resampling statistics equal slow, straightforward reference implementations.

The references here compare every pair of items one by one, call scipy once per row, and draw
and score one resample at a time, as the meta-evaluation engine did before it was vectorised;
the fast versions (:mod:`simpeval.metaeval.paircounts`, ``rowwise`` statistics, chunked
resampling) must give the same integers and the same floats (to rounding) on small random inputs
with many ties.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from scipy import stats as sp

from simpeval.metaeval import engine, grouped, stats, ties
from simpeval.metaeval.engine import Settings, meta_evaluate
from simpeval.metaeval.paircounts import inversions, pair_classes
from simpeval.metaeval.splits import make_split


def _slow_classes(human, metric):
    """(concordant, discordant, tied in human only, tied in metric only, tied in both), pair by pair."""
    counts = [0, 0, 0, 0, 0]
    for i, j in combinations(range(len(human)), 2):
        dh, dm = human[i] - human[j], metric[i] - metric[j]
        if dh == 0 and dm == 0:
            counts[4] += 1
        elif dh == 0:
            counts[2] += 1
        elif dm == 0:
            counts[3] += 1
        else:
            counts[0 if (dh > 0) == (dm > 0) else 1] += 1
    return tuple(counts)


def _random_tied(rng, shape, levels):
    return rng.integers(0, levels, shape).astype(float)


@pytest.mark.parametrize("seed", range(40))
def test_pair_classes_equal_counting_every_pair(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(0, 45))
    human = _random_tied(rng, n, int(rng.integers(1, 6)))
    metric = _random_tied(rng, (3, n), int(rng.integers(1, 8))) + rng.normal(size=(3, n)) * (seed % 2)
    for shared in (human, np.vstack([human] * 3)):  # one human vector for all rows, or one per row
        classes = pair_classes(shared, metric)
        for r in range(3):
            both = classes.tied_both[r]
            fast = (classes.concordant[r], classes.discordant[r], classes.tied_human[r] - both,
                    classes.tied_metric[r] - both, both)
            assert tuple(int(v) for v in fast) == _slow_classes(human, metric[r])


@pytest.mark.parametrize("n", [0, 1, 2, 3, 31, 32, 33, 64, 100])
def test_inversions_equal_counting_every_pair(n):
    rows = np.random.default_rng(n).integers(0, max(n, 1), (4, n))
    expected = [sum(row[i] > row[j] for i, j in combinations(range(n), 2)) for row in rows]
    assert inversions(rows).tolist() == expected


@pytest.mark.parametrize("seed", range(10))
def test_tau_rows_equal_the_pairwise_definition(seed):
    rng = np.random.default_rng(seed)
    human = _random_tied(rng, 30, 5)
    rows = _random_tied(rng, (6, 30), 6)
    for variant, one in (("23", ties.kendall_23), ("acc23", ties.acc23)):
        expected = []
        for row in rows:  # the definition of Deutsch et al. (2023), pair by pair
            con, dis, t_h, t_m, t_hm = _slow_classes(human, row)
            total = con + dis + t_h + t_m + t_hm
            expected.append((con + t_hm - dis - t_h - t_m) / total if variant == "23" else (con + t_hm) / total)
        assert ties.tau_rows(human, rows, variant).tolist() == expected
        assert [one(human, row) for row in rows] == expected


def test_tau_rows_without_a_pair_are_nan():
    assert np.isnan(ties.tau_rows(np.array([1.0]), np.array([[2.0], [3.0]]), "23")).all()


@pytest.mark.parametrize("method", ["pearson", "spearman", "kendall"])
@pytest.mark.parametrize("seed", range(6))
def test_rowwise_correlation_equals_scipy_row_by_row(method, seed):
    rng = np.random.default_rng(seed)
    human = _random_tied(rng, 25, 4)
    rows = _random_tied(rng, (5, 25), 5)
    rows[0] = 2.0  # a constant row: nan
    humans = _random_tied(rng, (5, 25), 4)  # one human row per metric row (a bootstrap)
    scipy_fn = {"pearson": sp.pearsonr, "spearman": sp.spearmanr,
                "kendall": lambda a, b: sp.kendalltau(a, b, variant="b")}[method]
    for y, pairs in ((human, [(row, human) for row in rows]), (humans, list(zip(rows, humans)))):
        expected = [np.nan if np.ptp(a) == 0 or np.ptp(b) == 0 else scipy_fn(a, b)[0] for a, b in pairs]
        assert stats.rowwise_correlation(rows, y, method) == pytest.approx(expected, abs=1e-12, nan_ok=True)


@pytest.mark.parametrize("seed", range(6))
def test_average_rows_equal_averaging_row_by_row(seed):
    rng = np.random.default_rng(seed)
    n = 40
    human = _random_tied(rng, n, 3)
    rows = _random_tied(rng, (4, n), 3)
    labels = rng.integers(0, 9, n).astype(str)  # groups of 0 to ~10 items, some constant
    for name in ("pearson", "kendall"):
        slow = grouped.plain_correlation(name)
        expected = [grouped.average_correlation(human, row, labels, slow).value for row in rows]
        fast = grouped.average_rows(human, rows, labels, lambda h, m: stats.rowwise_correlation(m, h, name))
        assert fast == pytest.approx(expected, abs=1e-12, nan_ok=True)
    slow23 = [grouped.average_correlation(human, row, labels, ties.kendall_23).value for row in rows]
    fast23 = grouped.average_rows(human, rows, labels, lambda h, m: ties.tau_rows(h, m, "23"))
    assert fast23 == pytest.approx(slow23, abs=1e-12)


def _perm_both_one_draw(human, a, b, corr, rng, n_resamples):
    """PERM-BOTH as first written: every resample's swaps drawn at once."""
    a, b = stats._standardize(np.asarray(a, float)), stats._standardize(np.asarray(b, float))
    observed = corr(np.vstack([a, b]), human)
    swap = rng.random((n_resamples, len(a))) < 0.5
    deltas = corr(np.where(swap, b, a), human) - corr(np.where(swap, a, b), human)
    return float((1 + np.sum(deltas >= observed[0] - observed[1] - 1e-12)) / (1 + n_resamples))


def test_chunked_permutation_test_equals_one_draw(monkeypatch):
    monkeypatch.setattr(stats, "_CHUNK_CELLS", 97)  # chunks of 3 resamples on 30 items
    rng = np.random.default_rng(3)
    human = rng.normal(size=30)
    a, b = human + rng.normal(size=30), human + rng.normal(scale=2, size=30)
    corr = lambda m, h: stats.rowwise_correlation(m, h, "pearson")  # noqa: E731
    ticks = []
    fast = stats.perm_both_test(human, a, b, corr, np.random.default_rng(9), 50, tick=ticks.append)
    assert fast == _perm_both_one_draw(human, a, b, corr, np.random.default_rng(9), 50)
    assert sum(ticks) == 50 and len(ticks) == 17


def test_vectorised_bootstrap_equals_one_resample_at_a_time(monkeypatch):
    monkeypatch.setattr(stats, "_CHUNK_CELLS", 101)
    rng = np.random.default_rng(4)
    human = _random_tied(rng, 30, 5)
    metric = human + rng.normal(size=30)
    slow = stats.bootstrap_interval(lambda idx: ties.kendall_23(human[idx], metric[idx]), 30,
                                    np.random.default_rng(2), 60)
    fast = stats.bootstrap_interval(lambda draws: ties.tau_rows(human[draws], metric[draws], "23"), 30,
                                    np.random.default_rng(2), 60, rows=True)
    assert fast == pytest.approx(slow, abs=1e-12)


def _data(n, seed):
    rng = np.random.default_rng(seed)
    human = _random_tied(rng, n, 7)
    scores = {"a": human + rng.normal(scale=2, size=n), "b": np.round(human + rng.normal(scale=3, size=n)),
              "c": _random_tied(rng, n, 4)}
    scores["a"][3] = np.nan
    return human, scores, np.array([f"s{i % (n // 4)}" for i in range(n)])


def _assert_same_records(fast, slow):
    for a, b in zip(fast.records, slow.records, strict=True):
        assert (a.metric, a.split, a.n, a.winner, a.rank) == (b.metric, b.split, b.n, b.winner, b.rank)
        assert [a.r, a.p_value, a.ci_low, a.ci_high] == pytest.approx([b.r, b.p_value, b.ci_low, b.ci_high],
                                                                      abs=1e-12, nan_ok=True)


@pytest.mark.parametrize("correlation", ["pearson", "spearman", "kendall", "kendall-23", "acc23"])
@pytest.mark.parametrize("average_by", ["none", "item"])
def test_meta_evaluate_vectorised_equals_one_row_at_a_time(monkeypatch, correlation, average_by):
    """The engine's permutation tests and bootstrap intervals, with and without its vectorised statistics."""
    human, scores, keys = _data(36, 5)
    settings = Settings(correlation=correlation, significance="permutation", resamples=20, bootstrap=15,
                        average_by=average_by, rank=True)
    split = make_split("quality", human, [])

    def run():
        ticks = []
        result = meta_evaluate(human, scores, split, settings, 1, groups=keys,
                               average_keys=keys if average_by != "none" else None, tick=ticks.append)
        return result, sum(ticks)

    fast, fast_ticks = run()
    monkeypatch.setattr(engine, "_rows_statistic", lambda settings, keys: None)  # the loops of old
    slow, slow_ticks = run()
    _assert_same_records(fast, slow)
    for name, matrix in fast.significance.items():
        np.testing.assert_allclose(matrix.p, slow.significance[name].p, atol=1e-12)
    assert fast_ticks == slow_ticks == engine.resampling_work(settings, split, len(scores))
