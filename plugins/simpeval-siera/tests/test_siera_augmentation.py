"""Intermediate sentences for small N, the subset cap, and the filter's threshold rule."""

import random

from simpeval_siera.augmentation import augment, filter_threshold, intermediates, passes_filter, span_subsets
from simpeval_siera.normalize import tokenize


def test_all_proper_subsets_when_few_spans():
    assert span_subsets(2, 14, random.Random(0)) == [(0,), (1,)]
    assert span_subsets(3, 14, random.Random(0))[-1] == (1, 2)
    assert len(span_subsets(3, 14, random.Random(0))) == 2**3 - 2
    assert span_subsets(1, 14, random.Random(0)) == []


def test_subsets_are_capped_distinct_proper_and_seeded():
    first = span_subsets(6, 10, random.Random(3))
    assert len(first) == 10 == len(set(first))
    assert all(0 < len(s) < 6 for s in first)
    assert first == span_subsets(6, 10, random.Random(3))


def test_intermediates_of_a_two_span_pair():
    result = intermediates(["the", "big", "cat", "sat"], ["the", "cat", "sat", "down"], 14, random.Random(0))
    assert result == ["the cat sat", "the big cat sat down"]


def test_figure1_gives_fourteen_intermediates(figure1):
    result = intermediates(tokenize(figure1[0]), tokenize(figure1[1]), 14, random.Random(0))
    assert len(result) == 2**4 - 2 == len(set(result))
    assert "According to Ledford , Northrop said they would build most of the bomber parts in Palmdale , creating about 1,500 jobs ." in result


def test_threshold_is_the_mean_and_ties_are_kept():
    assert filter_threshold([0.2, 0.4, 0.9]) == 0.5
    assert passes_filter(0.5, 0.5) and not passes_filter(0.49, 0.5)


def test_augment_filters_over_the_whole_corpus_and_keeps_m_per_pair():
    pairs = [("the big cat sat", "the cat sat down"), ("a b c", "a c d")]
    # Candidates in order: "the cat sat", "the big cat sat down", "a c", "a b c d";
    # each asks f1 against the original then the simplification.
    fake_scores = {"the cat sat": 0.9, "the big cat sat down": 0.7, "a c": 0.2, "a b c d": 0.6}

    def f1(queries):
        return [fake_scores[candidate] for candidate, _ in queries]

    result = augment(pairs, f1, m=1, cap=14, seed=0)
    assert result.n_candidates == 4
    assert result.threshold == (0.9 + 0.7 + 0.2 + 0.6) / 4
    # Above the corpus-wide mean of 0.6: both of pair 0, and pair 1's "a b c d" (a tie).
    assert [(c.pair_index, c.text) for c in result.chosen if c.pair_index == 1] == [(1, "a b c d")]
    assert len([c for c in result.chosen if c.pair_index == 0]) == 1
    both = augment(pairs, f1, m=2, cap=14, seed=0)
    assert sorted(c.text for c in both.chosen) == ["a b c d", "the big cat sat down", "the cat sat"]
