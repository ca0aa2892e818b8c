"""LENS's pairwise Kendall-like tau (``--correlation lens-kendall``) on hand-built pairs."""

import math

import numpy as np
import pytest

from simpeval.metaeval import stats


def test_majority_vote_threshold_and_skips():
    # one original, four outputs, three raters
    ratings = np.array([
        [80, 80, 80],  # a
        [70, 76, 60],  # b: a-b = 10, 4, 20 -> votes +, 0, + -> majority +
        [78, 60, 90],  # c: a-c = 2, 20, -10 -> votes 0, +, - -> no majority: skipped
        [75, 75, 85],  # d: a-d = 5, 5, -5 -> all within the threshold (<= 5): majority 0, skipped
    ])
    groups = ["s1"] * 4
    first, second, sign = stats.lens_pairs(ratings, groups, threshold=5)
    pairs = {(int(i), int(j)): int(s) for i, j, s in zip(first, second, sign)}
    # b-c: -8, 16, -30 -> -, +, - -> majority -; b-d: -5, 1, -25 -> 0, 0, - -> majority 0: skipped
    # c-d: 3, -15, 5 -> 0, -, 0 -> majority 0: skipped
    assert pairs == {(0, 1): 1, (1, 2): -1}


def test_concordant_discordant_and_metric_ties():
    ratings = np.array([[90, 90, 90], [50, 50, 50], [10, 10, 10]])
    groups = ["s"] * 3
    # humans: 0 > 1 > 2 (three pairs); metric orders 0 > 1 right, ties 1 and 2 (discordant), 0 > 2 right
    metric = np.array([3.0, 1.0, 1.0])
    assert stats.lens_kendall(metric, ratings, groups) == pytest.approx((2 - 1) / 3)
    assert stats.lens_kendall(-metric, ratings, groups) == pytest.approx((0 - 3) / 3)


def test_pairs_only_within_a_group():
    ratings = np.array([[90, 90, 90], [10, 10, 10], [10, 10, 10], [90, 90, 90]])
    groups = ["x", "x", "y", "y"]
    # within each group the metric agrees; pooled across groups, items 0 and 2 would tie
    assert stats.lens_kendall(np.array([1.0, 0.0, 0.0, 1.0]), ratings, groups) == 1.0
    assert stats.lens_kendall(np.array([0.0, 1.0, 1.0, 0.0]), ratings, groups) == -1.0
    assert len(stats.lens_pairs(ratings, groups)[0]) == 2


def test_threshold_is_inclusive_and_configurable():
    ratings = np.array([[55, 55, 55], [50, 50, 50]])
    assert math.isnan(stats.lens_kendall(np.array([1.0, 0.0]), ratings, ["s", "s"], threshold=5))
    assert stats.lens_kendall(np.array([1.0, 0.0]), ratings, ["s", "s"], threshold=4.9) == 1.0


def test_even_number_of_raters_needs_a_strict_majority():
    ratings = np.array([[90, 90, 10, 10], [50, 50, 50, 50]])  # 2 votes +, 2 votes -: no majority
    assert len(stats.lens_pairs(ratings, ["s", "s"])[0]) == 0
    ratings = np.array([[90, 90, 90, 10], [50, 50, 50, 50]])  # 3 of 4
    assert stats.lens_pairs(ratings, ["s", "s"])[2].tolist() == [1.0]
