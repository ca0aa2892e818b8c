"""Quality-estimation features (``qe``) against EASSE's ``corpus_quality_estimation``: its published
ACCESS values, and tseval's feature definitions worked by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from simpeval.datasets.testsets import load_test_set
from simpeval.metrics import qe
from simpeval.metrics.qe import QualityEstimation, levenshtein_similarity


def test_access_compression_and_splits_equal_easse(data_dir):
    # EASSE on ACCESS (TurkCorpus test): compression ratio 0.94079 (EASSE -q, quoted in issue 12);
    # sentence splits 1.2000928505106778: EASSE's definition (tseval's count_sentence_splits on
    # 13a-normalised text) with NLTK's English Punkt, computed outside simpeval (tests/test_sentences.py
    # builds that splitter). Issue 12 quoted 1.2015, what a splitter that keeps the original's
    # ". . ." together (one sentence instead of NLTK's four) gives.
    sources = load_test_set(data_dir, "turkcorpus_test").sources
    outputs = (data_dir / "system_outputs/turkcorpus/test/ACCESS").read_text(encoding="utf-8").splitlines()
    for lowercase in (True, False):
        scores = QualityEstimation(lowercase=lowercase).corpus_score(sources, outputs)
        assert round(scores["qe-compression"], 5) == 0.94079
        assert scores["qe-splits"] == pytest.approx(1.2000928505106778, abs=1e-12)
        assert 0 < scores["qe-exact-copies"] < 0.1 and 0.8 < scores["qe-levenshtein"] < 0.95


def test_levenshtein_similarity_is_python_levenshtein_ratio():
    # Levenshtein.ratio("kitten", "sitting") = 0.6153846...: 13 characters, indel distance 5
    assert levenshtein_similarity("kitten", "sitting") == pytest.approx(8 / 13)
    assert levenshtein_similarity("", "") == 1.0 and levenshtein_similarity("abc", "") == 0.0


def test_features_of_one_pair_by_hand():
    source = "The cat, which was old, sat on the mat."
    output = "The old cat sat. It was happy."
    scores = QualityEstimation(lowercase=False).sentence_scores([source], [output])
    src = "The cat , which was old , sat on the mat ."  # 13a: 12 tokens, 42 characters
    out = "The old cat sat . It was happy ."  # 9 tokens, 32 characters
    assert scores["qe-compression"] == [pytest.approx(32 / 42)]
    assert scores["qe-splits"] == [2.0]
    assert scores["qe-levenshtein"] == [pytest.approx(levenshtein_similarity(src, out))]
    assert scores["qe-exact-copies"] == [0.0]
    # added: "It", "happy" and a second "."; deleted: ",", ",", "which", "on", "the", "mat"
    assert scores["qe-additions"] == [pytest.approx(3 / 12)]
    assert scores["qe-deletions"] == [pytest.approx(6 / 12)]


def test_exact_copies_and_empty_lines():
    scores = QualityEstimation().sentence_scores(["Same text .", "", "x"], ["same  text.", "y", ""])
    assert scores["qe-exact-copies"] == [1.0, 0.0, 0.0]  # lower-cased and normalised first
    assert scores["qe-compression"][1] == 0.0 and scores["qe-splits"][1] == 0.0  # tseval's safe division
    assert scores["qe-deletions"][2] == 1.0 and scores["qe-additions"][2] == 0.0


def test_lexical_complexity_is_the_third_quartile_of_log_ranks(monkeypatch):
    ranks = {"cat": 10, "sat": 100, "mat": 1000, "feline": 30000}
    monkeypatch.setattr(qe, "word_ranks", lambda vocab_size, lang: ranks)
    # "the", "on" are stopwords, "." punctuation, "zyzzyva" has no rank: they are left out
    value = qe.lexical_complexity("the cat sat on the mat . zyzzyva feline".split(), 50000)
    assert value == pytest.approx(np.quantile(np.log1p([10, 100, 1000, 30000]), 0.75))
    assert qe.lexical_complexity(["the", "."], 50000) == pytest.approx(math.log(1 + len(ranks)))


def test_lexical_complexity_ranks_common_words_lower_in_wordfreq():
    simple = QualityEstimation().sentence_scores(["x"], ["The dog is big."])["qe-lexical-complexity"][0]
    complex_ = QualityEstimation().sentence_scores(["x"], ["The canine is gargantuan."])["qe-lexical-complexity"][0]
    assert simple < complex_ < math.log(1 + 50000)


def test_the_languages_are_punkts_that_wordfreq_ranks():
    import wordfreq

    from simpeval.sentences import PUNKT_LANGUAGES

    assert qe.LANGUAGES == tuple(sorted(set(PUNKT_LANGUAGES) & set(wordfreq.available_languages())))


def test_german_ranks_german_words_and_leaves_out_germans_stopwords():
    from wordfreq import top_n_list

    german = top_n_list("de", 50000)
    assert "und" in qe.stopwords("de") and "und" not in qe.STOPWORDS
    tokens = ["der", "hund", "und", "die", "katze", "."]
    expected = sorted(math.log1p(german.index(w)) for w in ("hund", "katze"))
    value = qe.lexical_complexity(tokens, 50000, "de")
    assert value == pytest.approx(expected[0] + 0.75 * (expected[1] - expected[0]))  # numpy's linear quantile
    metric = QualityEstimation(lang="de")
    assert metric.signature().startswith("qe|formula:2|lang:de|")
    scores = metric.sentence_scores(["Der Hund schläft. Die Katze auch."], ["Der Hund schläft."])
    assert scores["qe-splits"] == [0.5]


def test_a_language_wordfreq_does_not_rank_is_refused():
    from simpeval.errors import UsageError

    with pytest.raises(UsageError, match='metric "qe" has no rules for language "ar"'):
        QualityEstimation(lang="ar")
