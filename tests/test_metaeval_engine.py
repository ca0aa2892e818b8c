"""The meta-evaluation engine: splits, orientation, n, winners, and the released code's defects avoided."""

from __future__ import annotations

import math

import numpy as np
import pytest

from simpeval.metaeval import stats
from simpeval.metaeval.engine import Settings, meta_evaluate
from simpeval.metaeval.splits import make_split, quality_split, system_type_split


def _data(n=400, seed=0):
    rng = np.random.default_rng(seed)
    human = rng.normal(size=n)
    return human, {
        "strong": human + rng.normal(scale=0.6, size=n),
        "close": human + rng.normal(scale=0.62, size=n),
        "weak": human + rng.normal(scale=3.0, size=n),
    }


def _run(human, scores, split=None, **settings):
    split = split or make_split("none", human, [])
    return meta_evaluate(human, scores, split, Settings(**settings), 0)


def test_quality_split_is_halves_by_stable_order():
    human = np.array([5.0, 1.0, 3.0, 2.0, 4.0, 0.0])
    split = quality_split(human)
    assert split.groups["Low"].tolist() == [1, 3, 5]
    assert split.groups["High"].tolist() == [0, 2, 4]
    assert split.groups["All"].tolist() == list(range(6))
    assert split.warnings == []


def test_quality_split_warns_about_ties_and_can_exclude_them():
    human = np.array([0.0, 0.0, 0.0, 0.0, -1.0, 1.0])
    ordered = quality_split(human)
    assert ordered.groups["Low"].tolist() == [0, 1, 4]  # ties cut by dataset order
    assert "4 of 6 items tie at the median" in ordered.warnings[0]
    excluded = quality_split(human, ties="exclude")
    assert excluded.groups["Low"].tolist() == [4] and excluded.groups["High"].tolist() == [5]
    assert "in neither Low nor High" in excluded.warnings[0]


def test_system_type_split_groups_in_first_seen_order_then_all():
    split = system_type_split(["S2S", "PBMT", "S2S", "Sem"])
    assert list(split.groups) == ["S2S", "PBMT", "Sem", "All"]
    assert split.groups["S2S"].tolist() == [0, 2]
    assert "no system types" in system_type_split(["", ""]).warnings[0]


def test_winners_are_metrics_not_significantly_outperformed():
    human, scores = _data()
    result = _run(human, scores)
    winners = {r.metric for r in result.records if r.winner}
    # "close" is slightly worse than "strong" but not significantly: both win; "weak" loses.
    assert winners == {"strong", "close"}
    sig = result.significance["All"]
    i, j = sig.metrics.index("strong"), sig.metrics.index("weak")
    assert sig.p[i, j] < 0.05 and math.isnan(sig.p[j, i])


def test_a_negatively_correlated_metric_is_flipped_as_a_whole():
    human, scores = _data()
    flipped = dict(scores, strong=-scores["strong"])
    plain, negated = _run(human, scores), _run(human, flipped)
    assert negated.record("strong", "All").r == pytest.approx(-plain.record("strong", "All").r)
    np.testing.assert_allclose(negated.significance["All"].p, plain.significance["All"].p, equal_nan=True)
    assert [r.winner for r in negated.records] == [r.winner for r in plain.records]


def test_inverse_metric_is_compared_with_the_metric_metric_correlation_flipped():
    # Taking |r23| (as the released code did) would treat "anti" and "strong" as agreeing.
    human, scores = _data()
    two = {"strong": scores["strong"], "anti": -scores["close"]}
    result = _run(human, two)
    h, a, b = human, scores["strong"], scores["close"]
    ra, rb = stats.correlation(a, h)[0], stats.correlation(b, h)[0]
    expected = stats.williams_test(max(ra, rb), min(ra, rb), stats.correlation(a, b)[0], len(h))
    sig = result.significance["All"]
    tested = sig.p[~np.isnan(sig.p)]
    assert tested.tolist() == pytest.approx([expected])


def test_williams_uses_the_items_actually_correlated():
    human, scores = _data(n=100)
    scores["strong"][:40] = np.nan
    result = _run(human, scores)
    assert result.record("strong", "All").n == 60
    assert result.record("weak", "All").n == 100
    ok = slice(40, None)
    h, a, c = human[ok], scores["strong"][ok], scores["weak"][ok]
    expected = stats.williams_test(stats.correlation(a, h)[0], stats.correlation(c, h)[0],
                                   stats.correlation(a, c)[0], 60)
    sig = result.significance["All"]
    assert sig.p[sig.metrics.index("strong"), sig.metrics.index("weak")] == pytest.approx(expected)


def test_a_metric_constant_on_a_split_is_reported_not_crashed():
    human = np.arange(14.0)  # 7 items per split: enough for a test (simpeval.metaeval.engine.MIN_TESTED_ITEMS)
    scores = {"flat": np.where(human < 7, 1.0, human), "good": human * 2}
    result = _run(human, scores, split=quality_split(human))
    low = result.record("flat", "Low")
    assert math.isnan(low.r) and not low.winner
    assert any("flat has no correlation on split Low" in w for w in result.warnings)
    assert result.record("good", "Low").winner


def test_no_winner_or_rank_on_too_few_items():
    human = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0])
    scores = {"good": human * 2, "noisy": human[::-1] * 0.1 + human}
    result = _run(human, scores, split=quality_split(human), rank=True)
    assert not any(rec.winner or rec.rank for rec in result.records if rec.split != "All")  # 5 items each
    assert all(rec.rank for rec in result.records if rec.split == "All") and result.record("good", "All").winner
    assert any("split Low has 5 rated items, too few" in w for w in result.warnings)


def test_permutation_test_and_bootstrap_intervals():
    human, scores = _data(n=200)
    result = _run(human, scores, significance="permutation", resamples=200, bootstrap=200)
    rec = result.record("strong", "All")
    assert rec.ci_low < rec.r < rec.ci_high
    assert {r.metric for r in result.records if r.winner} == {"strong", "close"}


def test_spearman_with_williams_is_refused():
    human, scores = _data(n=50)
    with pytest.raises(ValueError, match="Williams test is for Pearson"):
        _run(human, scores, correlation="spearman")


def test_wmt_kendall_through_the_engine():
    human = np.array([10.0, 50, 90, 0, 100])
    scores = {"m": np.array([1.0, 3, 2, 0, 9])}
    split = make_split("none", human, [])
    result = meta_evaluate(human, scores, split, Settings(correlation="wmt-kendall", significance="none"),
                           0, groups=["a", "a", "a", "b", "b"])
    assert result.record("m", "All").r == pytest.approx(0.5)


@pytest.mark.parametrize("correlation", ["pearson", "kendall-23"])
def test_a_metrics_interval_and_tests_do_not_depend_on_the_other_metrics(correlation):
    """Each metric's bootstrap and each pair's permutation test start from the seed: adding a metric,
    or reordering them, moves no interval and no p-value (they once shared one generator in turn)."""
    human, scores = _data(120)
    settings = dict(correlation=correlation, bootstrap=50, significance="permutation", resamples=40)
    alone = _run(human, {"close": scores["close"]}, **settings)
    pair = _run(human, {"strong": scores["strong"], "close": scores["close"]}, **settings)
    reordered = _run(human, {"weak": scores["weak"], "close": scores["close"], "strong": scores["strong"]},
                     **settings)

    def interval(result, metric):
        (rec,) = [r for r in result.records if r.metric == metric]
        return rec.ci_low, rec.ci_high

    assert interval(alone, "close") == interval(pair, "close") == interval(reordered, "close")
    assert interval(pair, "strong") == interval(reordered, "strong")
    def strong_and_close(result):
        sig = result.significance["All"]
        at = [sig.metrics.index("strong"), sig.metrics.index("close")]
        return sig.p[np.ix_(at, at)]

    np.testing.assert_array_equal(strong_and_close(pair), strong_and_close(reordered))
    assert np.isfinite(strong_and_close(pair)).sum() == 1  # the better of the two was tested
