"""Hand-checked SemiMatch and GScore values, including the partial-match rule and the zero rule."""

import pytest
from simpeval_cescore.grammar import (
    NgramIndex,
    gscore,
    gscore_from_sentences,
    semimatch,
)

REFERENCE = "the cat sat on the mat".split()


def test_full_match_counts_one():
    assert semimatch(REFERENCE, "the cat sat on".split(), 4) == 1.0


def test_partial_match_in_n_minus_one_positions_counts_n_minus_two_over_n():
    candidate = "the dog sat on the mat".split()
    # 4-grams: (the dog sat on) ~ (the cat sat on): 3 of 4 -> 2/4; (dog sat on the): 2/4;
    # (sat on the mat): full -> 1.   (0.5 + 0.5 + 1) / 3
    assert semimatch(REFERENCE, candidate, 4) == pytest.approx(2 / 3, abs=1e-15)
    # 5-grams: both match in 4 of 5 positions -> 3/5 each
    assert semimatch(REFERENCE, candidate, 5) == pytest.approx(0.6, abs=1e-15)


def test_two_mismatches_or_a_shift_count_zero():
    assert semimatch(REFERENCE, "the dog ran on".split(), 4) == 0.0
    # two words swapped: positions are compared, not bags of words
    assert semimatch(REFERENCE, "cat the sat on".split(), 4) == 0.0


def test_ngrams_are_counted_with_repetition_and_short_candidates_score_zero():
    # (the cat sat on) 1, (cat sat on the) 1, (sat on the cat) ~ (sat on the mat) 1/2,
    # (on the cat sat) 0, (the cat sat on) again 1: 3.5 / 5
    assert semimatch(REFERENCE, "the cat sat on the cat sat on".split(), 4) == pytest.approx(0.7)
    assert semimatch(REFERENCE, "the cat sat".split(), 4) == 0.0


def test_index_and_token_list_give_the_same_score():
    candidate = "the dog sat on the mat".split()
    assert semimatch(NgramIndex(REFERENCE, 4), candidate, 4) == semimatch(REFERENCE, candidate, 4)


def test_gscore_minimum_over_sentences_keeping_or_ignoring_zeros():
    source = "the cat sat on the mat and the dog ate the bone"
    output = "The cat sat on the mat. The dog ate."
    # Sentence 1, tokens "the cat sat on the mat." ("mat." differs from "mat"):
    #   n=4: (1 + 1 + 2/4) / 3; n=5: (1 + 3/5) / 2; n=6: 4/6; n=7: no 7-gram -> 0
    first = ((1 + 1 + 0.5) / 3 + (1 + 0.6) / 2 + 4 / 6 + 0) / 4
    assert first == pytest.approx(0.575)
    # Sentence 2 has 3 tokens: 0 for every n.
    assert gscore(source, output) == 0.0                                   # authors' package
    assert gscore(source, output, ignore_zeros=True) == pytest.approx(0.575)  # paper, Algorithm 7


def test_gscore_from_sentences():
    assert gscore_from_sentences([0.0, 0.5, 0.75]) == 0.0
    assert gscore_from_sentences([0.0, 0.5, 0.75], ignore_zeros=True) == 0.5
    assert gscore_from_sentences([0.0, 0.0], ignore_zeros=True) == 0.0
    assert gscore_from_sentences([]) == 0.0


def test_gscore_of_an_unchanged_sentence_is_one_for_long_sentences_only():
    text = "the cat sat on the mat today"
    assert gscore(text, text) == 1.0
    # 6 tokens: no 7-gram, so n=7 contributes 0
    assert gscore("the cat sat on the mat", "the cat sat on the mat") == 0.75
