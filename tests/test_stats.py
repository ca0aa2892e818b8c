"""The statistics of meta-evaluation on hand-sized vectors with answers worked out by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as sp

from simpeval.metaeval import stats

X = [1, 2, 3, 4, 5]
Y = [2, 4, 5, 4, 5]


def test_pearson_of_a_hand_example():
    r, p = stats.correlation(X, Y)
    assert r == pytest.approx(math.sqrt(0.6))  # cov 1.5 / sqrt(2.5 * 1.5)
    assert 0 < p < 1


def test_kendall_is_tau_b_with_ties():
    # 7 concordant, 1 discordant, 2 pairs tied in Y: (7 - 1) / sqrt(10 * 8)
    assert stats.correlation(X, Y, "kendall")[0] == pytest.approx(6 / math.sqrt(80))


def test_spearman_is_pearson_of_ranks():
    ranks_y = [1, 2.5, 4.5, 2.5, 4.5]
    assert stats.correlation(X, Y, "spearman")[0] == pytest.approx(stats.correlation(X, ranks_y)[0])


def test_constant_vector_has_no_correlation():
    r, p = stats.correlation([1, 1, 1, 1], [1, 2, 3, 4])
    assert math.isnan(r) and math.isnan(p)


def test_unknown_correlation_is_rejected():
    with pytest.raises(ValueError, match="unknown correlation"):
        stats.correlation(X, Y, "cosine")


def test_rowwise_matches_one_at_a_time():
    rows = np.array([X, Y, [5, 3, 1, 2, 4]], dtype=float)
    human = np.array([1.0, 3.0, 2.0, 5.0, 4.0])
    for method in ("pearson", "spearman", "kendall"):
        expected = [stats.correlation(row, human, method)[0] for row in rows]
        assert stats.rowwise_correlation(rows, human, method) == pytest.approx(expected)


def test_williams_matches_the_formula_worked_by_hand():
    # r12=.5, r13=.3, r23=.4, n=20: K = 0.62, t = 0.2 sqrt(26.6) / sqrt(1.240 * 19/17 + 0.16 * 0.216)
    t = 0.2 * math.sqrt(26.6) / math.sqrt(2 * 0.62 * 19 / 17 + 0.16 * 0.216)
    assert t == pytest.approx(0.865483, abs=1e-6)
    assert stats.williams_test(0.5, 0.3, 0.4, 20) == pytest.approx(sp.t.sf(t, 17))
    assert stats.williams_test(0.5, 0.3, 0.4, 20) == pytest.approx(0.1994, abs=1e-4)


def test_williams_is_one_sided_and_grows_with_n():
    p = stats.williams_test(0.6, 0.4, 0.5, 50)
    assert p + stats.williams_test(0.4, 0.6, 0.5, 50) == pytest.approx(1.0)
    assert stats.williams_test(0.6, 0.4, 0.5, 500) < p < 0.5
    with pytest.raises(ValueError):
        stats.williams_test(0.6, 0.4, 0.5, 3)


def test_williams_on_metrics_that_order_every_item_alike_gives_no_evidence_not_nan():
    """bleu and sent-bleu correlate 1.0: K = -(r12 - r13)^2 and (1 - r23)^3 = 0, so the variance is 0
    (a rounding error below it in floats, a NaN from sqrt before)."""
    import warnings

    human = np.array([0.3, 1.2, -0.4, 2.2, 0.9, -1.0, 0.1])
    metric = np.array([0.1, 0.7, 0.2, 0.9, 0.35, 0.05, 0.3])
    twin = metric * 3.0 + 1.0  # the same ordering and spacing: r23 = 1
    r12, r13 = stats.correlation(metric, human)[0], stats.correlation(twin, human)[0]
    r23 = stats.correlation(metric, twin)[0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert stats.williams_test(r12, r13, r23, 7) == 0.5
    assert stats.williams_test(0.6, 0.4, 1.0, 20) == 0.0 and stats.williams_test(0.4, 0.6, 1.0, 20) == 1.0


def test_wmt_kendall_counts_pairs_of_the_same_source_only():
    human = np.array([10, 50, 90, 0, 100])
    metric = np.array([1, 3, 2, 0, 9])
    groups = ["a", "a", "a", "b", "b"]
    # group a: (10,50) diff 40 concordant; (10,90) concordant; (50,90) diff 40 discordant (3 > 2);
    # group b: (0,100) concordant. Cross-group pairs (e.g. 90 vs 0) never count.
    assert stats.wmt_kendall(human, metric, groups, threshold=25) == pytest.approx((3 - 1) / 4)
    # a threshold of 45 keeps only (10,90) and (0,100), both concordant
    assert stats.wmt_kendall(human, metric, groups, threshold=45) == pytest.approx(1.0)
    # selection scores other than the human ones decide which pairs qualify
    selection = np.array([0, 0, 0, 0, 100])
    assert stats.wmt_kendall(human, metric, groups, threshold=25, selection=selection) == pytest.approx(1.0)
    assert math.isnan(stats.wmt_kendall(human, metric, groups, threshold=1000))


def test_wmt_kendall_counts_metric_ties_as_discordant():
    assert stats.wmt_kendall([0, 100], [5, 5], ["s", "s"], threshold=25) == -1.0


def _rowwise_pearson(m, h):
    return stats.rowwise_correlation(m, h, "pearson")


def test_perm_both_separates_a_good_metric_from_noise():
    rng = np.random.default_rng(3)
    human = rng.normal(size=200)
    good = human + rng.normal(scale=0.5, size=200)
    noise = rng.normal(size=200)
    p_good = stats.perm_both_test(human, good, noise, _rowwise_pearson, np.random.default_rng(0), 200)
    p_same = stats.perm_both_test(human, good, good, _rowwise_pearson, np.random.default_rng(0), 200)
    assert p_good == pytest.approx(1 / 201)
    assert p_same == pytest.approx(1.0)
    again = stats.perm_both_test(human, good, noise, _rowwise_pearson, np.random.default_rng(0), 200)
    assert again == p_good


def test_bootstrap_interval_brackets_the_correlation():
    rng = np.random.default_rng(1)
    human = rng.normal(size=300)
    metric = human + rng.normal(size=300)
    r = stats.correlation(metric, human)[0]

    def statistic(idx):
        return stats.correlation(metric[idx], human[idx])[0]

    low95, high95 = stats.bootstrap_interval(statistic, 300, np.random.default_rng(0), 300, 0.95)
    low90, high90 = stats.bootstrap_interval(statistic, 300, np.random.default_rng(0), 300, 0.90)
    assert low95 < low90 < r < high90 < high95
    assert high95 - low95 < 0.2


def test_icc1_reproduces_shrout_and_fleiss_table_2():
    # Shrout and Fleiss (1979), Table 2: 6 targets x 4 judges; ICC(1,1) = .17
    ratings = np.array([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]])
    assert stats.icc1(ratings) == pytest.approx(0.1657, abs=1e-4)


def test_simulated_raters_agree_perfectly_on_identical_ratings():
    ratings = np.repeat(np.arange(10.0)[:, None], 4, axis=1)
    result = stats.simulated_rater_spearman(ratings, np.random.default_rng(0), repetitions=20)
    assert result.mean == pytest.approx(1.0) and result.std == pytest.approx(0.0)
    assert result.repetitions == 20


def test_simulated_raters_on_noise_are_near_zero():
    ratings = np.random.default_rng(5).normal(size=(400, 5))
    result = stats.simulated_rater_spearman(ratings, np.random.default_rng(0), repetitions=50)
    assert abs(result.mean) < 0.05 and 0 < result.std < 0.1


def test_wmt_rows_equal_the_tau_of_each_metric_on_pairs_found_once():
    rng = np.random.default_rng(3)
    human = rng.integers(0, 100, 60).astype(float)
    groups = np.repeat(np.arange(12), 5)
    metrics = rng.normal(size=(4, 60))
    metrics[3] = np.round(metrics[3])  # ties count as discordant
    pairs = stats.wmt_pairs(human, groups, threshold=25)
    assert len(pairs[0]) > 0 and set(pairs[2]) <= {-1.0, 1.0}
    assert all(groups[pairs[0]] == groups[pairs[1]])
    expected = [stats.wmt_kendall(human, row, groups, threshold=25) for row in metrics]
    np.testing.assert_allclose(stats.wmt_kendall_rows(metrics, pairs), expected)
