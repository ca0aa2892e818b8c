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
    assert Fkgl().sentence_scores(["x"], ["Simplification is beautiful."])["fkgl"] == [
        pytest.approx(15.47)
    ]


def test_negative_grades_are_clipped_unless_asked() -> None:
    # "the cat sat on the mat ." : 7 words, 6 syllables, 1 sentence -> 2.73 + 70.8/7 - 15.59.
    text = ["The cat sat on the mat."]
    assert Fkgl().sentence_scores(text, text)["fkgl"] == [0.0]
    assert Fkgl(clip=False).sentence_scores(text, text)["fkgl"] == [
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
    assert Fkgl().sentence_scores([""], [""])["fkgl"] == [0.0]
    assert fkgl_from_counts(ReadabilityCounts(0, 0, 0)) == 0.0


def test_corpus_pools_counts_rather_than_averaging() -> None:
    texts = ["Simplification is beautiful.", "The cat sat on the mat. It was happy."]
    metric = Fkgl(clip=False)
    pooled = readability_counts(texts[0], "13a", True) + readability_counts(texts[1], "13a", True)
    assert metric.corpus_score(texts, texts)["fkgl"] == pytest.approx(fkgl_from_counts(pooled, False))
    assert metric.corpus_score(texts, texts)["fkgl"] != pytest.approx(
        sum(metric.sentence_scores(texts, texts)["fkgl"]) / 2
    )
    assert Fkgl.is_higher_better("fkgl") is False


# EASSE's corpus_fkgl (tokenizer 13a, its default) on the systems' published outputs, computed
# outside this project with EASSE's own code (easse/fkgl.py, easse/utils/text.py and
# easse/utils/preprocessing.py, copied to /tmp/easse_src) and NLTK's PunktSentenceTokenizer with the
# English parameters in place of nltk.data's english.pickle, which cannot be downloaded here:
#   PYTHONPATH=/tmp/easse_src:/tmp/out-fkgl python /tmp/out-fkgl/easse_fkgl.py SYSTEM_FILE...
# (easse_fkgl.py: `easse.fkgl.to_sentences = nltk_punkt_english.tokenize`, then
# `print(corpus_fkgl(open(path).read().splitlines()))`). DMASS-DCSS, PBMT-R and the others with
# 13a-tokenised ellipses (". . .") are the cases a splitter that keeps ". . ." together gets wrong
# (+0.056 and +0.062).
EASSE_FKGL = {
    "turkcorpus/test/ACCESS": 7.2885721457257624,
    "turkcorpus/test/BTRLTS": 7.5928557410225643,
    "turkcorpus/test/BTTS": 7.5123795315807271,
    "turkcorpus/test/DMASS-DCSS": 7.7298081231361131,
    "turkcorpus/test/Dress-Ls": 7.6637601230961145,
    "turkcorpus/test/EditNTS": 8.3772430718692128,
    "turkcorpus/test/Hybrid": 5.1771986818278961,
    "turkcorpus/test/NTS-SARI": 8.1835457702848693,
    "turkcorpus/test/PBMT-R": 8.8463466533466537,
    "turkcorpus/test/SBMT-SARI": 7.945579215651474,
    "turkcorpus/test/UNMT": 8.9727329344254727,
    "turkcorpus/test/UNTS": 7.6004962040235498,
    "pwkp/test/Complex.tok": 13.103232183908045,
    "pwkp/test/Dress.tok": 8.3961527581329563,
    "pwkp/test/Hybrid.tok.low": 10.285952298651917,
}


@pytest.mark.parametrize("system", sorted(EASSE_FKGL))
def test_easse_corpus_fkgl_of_published_systems(system: str, data_dir) -> None:
    outputs = (data_dir / "system_outputs" / system).read_text(encoding="utf-8").splitlines()
    # FKGL reads only the outputs; the sources are there because every metric takes one per output
    assert Fkgl().corpus_score(outputs, outputs)["fkgl"] == pytest.approx(EASSE_FKGL[system], abs=1e-12)
