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


def test_the_languages_are_those_split_into_sentences_that_wordfreq_ranks_and_spacy_has_stopwords_of():
    import wordfreq

    from simpeval.sentences import SENTENCE_LANGUAGES

    assert qe.LANGUAGES == tuple(sorted(set(SENTENCE_LANGUAGES) & set(wordfreq.available_languages())))
    assert all(len(qe.stopwords(lang)) > 100 for lang in qe.LANGUAGES)


def test_german_ranks_german_words_and_leaves_out_germans_stopwords():
    from wordfreq import top_n_list

    german = top_n_list("de", 50000)
    assert "und" in qe.stopwords("de") and "und" not in qe.STOPWORDS
    tokens = ["der", "hund", "und", "die", "katze", "."]
    expected = sorted(math.log1p(german.index(w)) for w in ("hund", "katze"))
    value = qe.lexical_complexity(tokens, 50000, "de")
    assert value == pytest.approx(expected[0] + 0.75 * (expected[1] - expected[0]))  # numpy's linear quantile
    metric = QualityEstimation(lang="de")
    assert metric.signature().startswith("qe|formula:3|lang:de|")  # English alone keeps formula 2
    scores = metric.sentence_scores(["Der Hund schläft. Die Katze auch."], ["Der Hund schläft."])
    assert scores["qe-splits"] == [0.5]


@pytest.mark.parametrize("lang", ["et", "th", "ja"])
def test_a_language_wordfreq_does_not_rank_or_simpeval_does_not_split_is_refused(lang):
    from simpeval.errors import UsageError

    # Estonian: Punkt's, not wordfreq's; Thai: neither; Japanese: wordfreq's, without sentence splitting
    with pytest.raises(UsageError, match=f'metric "qe" has no rules for language "{lang}": it supports ar, cs, '):
        QualityEstimation(lang=lang)


def test_arabic_and_hindi_rank_their_words_in_wordfreq():
    from wordfreq import top_n_list

    # content words (not spaCy stopwords: "على"; "पर", "सो", "है"), each in wordfreq's list; "." and "।" are not
    for lang, text, words in (("ar", "القطة تنام على الأريكة .", ["القطة", "تنام", "الأريكة"]),
                              ("hi", "बिल्ली सोफे पर सो रही है ।", ["बिल्ली", "सोफे", "रही"])):
        listed = top_n_list(lang, 50000)
        assert [w for w in text.split() if w not in qe.stopwords(lang) and w in listed] == words
        kept = [math.log1p(listed.index(w)) for w in words]
        metric = QualityEstimation(lang=lang)
        assert metric.signature().startswith(f"qe|formula:3|lang:{lang}|")
        assert metric.sentence_scores([text], [text])["qe-lexical-complexity"] == [
            pytest.approx(float(np.quantile(kept, 0.75)), abs=1e-12)]


def _deplain_ranks(lang: str, vocab_size: int) -> dict[str, int]:
    """0-based ranks counted from wordfreq's frequency buckets (``get_frequency_list``: lists of words of
    one rounded frequency, most frequent first), without the words it estimates from digits, as top_n_list."""
    import wordfreq
    from wordfreq.numbers import has_digit_sequence

    words = [w for bucket in wordfreq.get_frequency_list(lang) for w in bucket if not has_digit_sequence(w)]
    return {word: rank for rank, word in enumerate(words[:vocab_size])}


def test_german_lexical_complexity_on_deplain_equals_wordfreq_directly(data_dir):
    """DEplain-web test (1,846 German sentences), mBART (APA) outputs: every item's lexical complexity against
    an outside computation: sacrebleu's 13a tokens of the lower-cased output, spaCy's German stop words
    (spaCy's module), each word NFC-normalised and casefolded (wordfreq's German normal form, so "außerdem"
    is found as "ausserdem"), ranked in wordfreq's buckets; and each ranked word's Zipf frequency from
    ``wordfreq.zipf_frequency`` on the token itself is its bucket's, so the rank is that word's."""
    import statistics
    import unicodedata

    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    from simpeval.testing import require_module

    wordfreq = require_module("wordfreq")
    stop_words = require_module("spacy.lang.de.stop_words").STOP_WORDS
    outputs = (data_dir / "system_outputs/deplain-web/test/DEplain_trimmed_mbart_sents_apa.txt").read_text(
        encoding="utf-8").splitlines()
    sources = load_test_set(data_dir, "deplain-web_test").sources
    assert len(outputs) == len(sources) == 1846
    ranks, tokenizer = _deplain_ranks("de", 50000), Tokenizer13a()
    zipf_of_rank = {}  # the bucket's Zipf value of each ranked word
    for index, bucket in enumerate(wordfreq.get_frequency_list("de")):
        zipf_of_rank.update((word, 9 - index / 100) for word in bucket)
    expected, sharp_s = [], 0
    for output in outputs:
        kept = []
        for token in tokenizer(output.lower()).split():
            if all(c in "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~" for c in token) or token in stop_words:
                continue
            word = unicodedata.normalize("NFC", token).casefold()
            if word in ranks:
                kept.append(math.log1p(ranks[word]))
                sharp_s += "ß" in token
                if wordfreq.tokenize(token, "de") == [word]:
                    assert wordfreq.zipf_frequency(token, "de") == pytest.approx(zipf_of_rank[word], abs=0.005)
        expected.append(math.log(1 + 50000) if not kept else kept[0] if len(kept) == 1
                        else statistics.quantiles(kept, n=4, method="inclusive")[2])
    scores = QualityEstimation(lang="de").sentence_scores(sources, outputs)["qe-lexical-complexity"]
    assert scores == pytest.approx(expected, abs=1e-12)
    assert sharp_s == 280  # content words with "ß": unranked before formula 3 (wordfreq lists "ß" as "ss")
    assert round(statistics.fmean(scores), 4) == 8.5548  # formula 2 gave 8.5583


def test_german_qe_from_the_command_line_and_a_language_wordfreq_lacks_refused(data_dir):
    import json
    import subprocess
    import sys

    outputs = data_dir / "system_outputs/deplain-web/test/DEplain_trimmed_mbart_sents_apa.txt"

    def simpeval(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "simpeval", "evaluate", "-t", "deplain-web_test", "--sys",
                               str(outputs), "--data-dir", str(data_dir), "--no-cache", *args],
                              capture_output=True, text=True, timeout=300)

    done = simpeval("-m", "qe", "--format", "json")  # the test set declares German: no --lang
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert set(result["signatures"].values()) == {"qe|formula:3|lang:de|tok:13a|lc:yes|vocab:50000|version:"
                                                  + simpeval_version()}
    assert round(result["corpus"]["qe-lexical-complexity"], 4) == 8.5548
    assert round(result["corpus"]["qe-compression"], 4) == 0.8979
    assert round(result["corpus"]["qe-levenshtein"], 4) == 0.8037
    refused = simpeval("-m", "qe", "--lang", "ja")
    assert refused.returncode == 2
    assert refused.stderr.strip().splitlines() == [
        f'Error: metric "qe" has no rules for language "ja": it supports {", ".join(qe.LANGUAGES)}; drop it from '
        "-m, or give --lang one of those"]


def simpeval_version() -> str:
    from simpeval import __version__

    return __version__


def test_english_looks_words_up_as_they_are_and_keeps_formula_2():
    assert qe.listed_form("straße", "en") == "straße" and qe.listed_form("straße", "de") == "strasse"
    assert QualityEstimation().signature().startswith("qe|formula:2|lang:en|")
    assert QualityEstimation.formula_version == "2"


def test_greek_words_with_a_final_sigma_are_ranked():
    from wordfreq import top_n_list

    greek = top_n_list("el", 50000)
    assert "δρόμος" not in greek and "δρόμοσ" in greek  # wordfreq lists the final sigma as "σ"
    value = qe.lexical_complexity(["δρόμος"], 50000, "el")
    assert value == pytest.approx(math.log1p(greek.index("δρόμοσ")))
