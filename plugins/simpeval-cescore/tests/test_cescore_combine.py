"""The CE combination: logistic squashing, then the product to the power 0.33."""

import math

import pytest
from simpeval_cescore.combine import cescore, combine, squash


def test_squash_is_a_logistic_curve_centred_at_one_half():
    assert squash(0.5) == 0.5
    assert squash(1.0) == pytest.approx(1 / (1 + math.exp(-5)), abs=1e-15)


def test_combine_hand_values():
    assert combine(0.5, 0.5, 0.5) == pytest.approx(0.125 ** 0.33, abs=1e-15)
    assert combine(0.5, 0.5, 0.5) == pytest.approx(0.5034777750283594, abs=1e-15)
    assert combine(1.0, 1.0, 1.0) == pytest.approx(0.9933738553520974, abs=1e-15)
    assert math.isnan(combine(0.5, math.nan, 0.5))


def test_cescore_of_an_unchanged_long_sentence():
    text = "The committee postponed its decision on the proposal until next year."
    scores = cescore(text, text)
    assert (scores.s, scores.m, scores.g) == (0.5, 1.0, 1.0)
    assert scores.ce == pytest.approx(combine(0.5, 1.0, 1.0), abs=1e-15)
