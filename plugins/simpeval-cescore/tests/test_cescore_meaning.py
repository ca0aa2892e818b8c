"""Hand-checked MScore values (Zipf: the 7.468477762, cat 4.821264497, sat 4.456186998, ran 4.924999496)."""

import math

import pytest
from simpeval_cescore.meaning import information_weight, mscore


def weight(zipf_value):
    return 1 / (1 + zipf_value)


def test_information_weight_uses_zipf_and_one_for_unknown_words():
    assert information_weight("the") == pytest.approx(weight(7.468477762), abs=1e-15)
    assert information_weight("xyzzyq") == 1.0


def test_mscore_is_the_weighted_overlap_of_word_sets():
    the, cat, sat, ran = map(weight, (7.468477762, 4.821264497, 4.456186998, 4.924999496))
    expected = (the + cat) / (the + cat + sat + ran)
    assert mscore("The cat sat.", "the cat ran") == pytest.approx(expected, abs=1e-12)
    assert expected == pytest.approx(0.45156307573683424, abs=1e-12)


def test_mscore_rare_words_weigh_more():
    # an unknown word weighs 1, far more than "ran"
    assert mscore("The cat sat.", "the cat xyzzyq") < mscore("The cat sat.", "the cat ran")


def test_mscore_ignores_case_punctuation_and_repetition():
    assert mscore("The cat, the cat sat.", "the CAT sat") == 1.0


def test_mscore_of_two_wordless_texts_is_nan():
    assert math.isnan(mscore("...", "!"))


def test_mscore_of_the_same_words_reordered_is_exactly_one():
    # exact sums: no 1 - 1e-16 depending on the hash seed's set order (would break rank ties)
    source = "The old committee postponed its final decision on the controversial proposal yesterday."
    output = "Yesterday the committee postponed its decision on the old, controversial proposal final."
    assert mscore(source, output) == 1.0
