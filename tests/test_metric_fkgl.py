"""FKGL: syllable counts of known words, grades worked out by hand, corpus pooling."""

from __future__ import annotations

import pytest

from simpeval.metrics.fkgl import Fkgl, ReadabilityCounts, fkgl_from_counts, readability_counts
from simpeval.syllables import count_syllables


@pytest.mark.parametrize(
    ("word", "syllables"),
    [
        ("cat", 1),
        ("hello", 2),
        ("beautiful", 4),  # vowel groups eau, i, u + "[aeiou]{3}"
        ("simplification", 5),  # 5 groups + "io" - "ion"
        ("readable", 3),  # "readabl" after the final e: ea, a + "[aeiouy]bl$"
        ("McDonald", 3),  # o, a + "^mc"
        ("the", 1),  # exception list
        ("Mr", 2),  # exception list (case-insensitive)
        ("satiated", 4),  # exception list
        ("tree", 0),  # EASSE strips *all* trailing "e"s: "tr" has no vowel group
        (",", 0),
    ],
)
def test_syllables_of_known_words(word: str, syllables: int) -> None:
    assert count_syllables(word) == syllables


def test_grade_worked_by_hand() -> None:
    # "simplification is beautiful ." : 4 words (the period counts, as in EASSE), 1 sentence,
    # 5 + 1 + 4 + 0 = 10 syllables -> 0.39 * 4 + 11.8 * 10 / 4 - 15.59 = 15.47.
    assert Fkgl().score_sentences(["x"], ["Simplification is beautiful."])["fkgl"] == [
        pytest.approx(15.47)
    ]


def test_negative_grades_are_clipped_unless_asked() -> None:
    # "the cat sat on the mat ." : 7 words, 6 syllables, 1 sentence -> 2.73 + 70.8/7 - 15.59.
    text = ["The cat sat on the mat."]
    assert Fkgl().score_sentences(text, text)["fkgl"] == [0.0]
    assert Fkgl(clip=False).score_sentences(text, text)["fkgl"] == [
        pytest.approx(0.39 * 7 + 11.8 * 6 / 7 - 15.59)
    ]


def test_sentences_are_split_with_punkt() -> None:
    text = "Dr. Smith went home. He was tired."
    # Moses keeps "dr." (a non-breaking prefix) and, as the text is lowercased first,
    # also "home." (a period before a lowercase word stays attached): two sentences, 8 words ...
    moses = readability_counts(text, "moses", True)
    assert (moses.sentences, moses.words) == (2, 8)
    # ... while 13a splits off every period ("dr ."), which Punkt then takes as a boundary.
    mteval = readability_counts(text, "13a", True)
    assert (mteval.sentences, mteval.words) == (3, 10)


def test_empty_text_scores_zero() -> None:
    assert Fkgl().score_sentences([""], [""])["fkgl"] == [0.0]
    assert fkgl_from_counts(ReadabilityCounts(0, 0, 0)) == 0.0


def test_corpus_pools_counts_rather_than_averaging() -> None:
    texts = ["Simplification is beautiful.", "The cat sat on the mat. It was happy."]
    metric = Fkgl(clip=False)
    pooled = readability_counts(texts[0], "13a", True) + readability_counts(texts[1], "13a", True)
    assert metric.score_corpus(texts, texts)["fkgl"] == pytest.approx(fkgl_from_counts(pooled, False))
    assert metric.score_corpus(texts, texts)["fkgl"] != pytest.approx(
        sum(metric.score_sentences(texts, texts)["fkgl"]) / 2
    )
    assert Fkgl.is_higher_better("fkgl") is False
