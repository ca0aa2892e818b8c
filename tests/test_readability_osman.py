"""Osman (El-Haj & Rayson 2016), Arabic readability, against textstat 0.7's ``osman`` (the outside oracle) on
ReadMe++'s real Arabic paragraphs.

The formula is checked on textstat's own counts: given them, simpeval's formula gives textstat's value. The
counts differ where textstat's differ from the paper's definition (benchmarks/readability_textstat.py measures
how much and docs/benchmarks/readability.md says why): its syllable counter never sees a vowel mark (its marks
are six-character raw strings ``"\\u064E"``, never equal to one character), so every text gets its fallback;
and with no marks its complex words (more than five marks) are none.
"""

from __future__ import annotations

import math
import warnings
from pathlib import Path

import pytest

from simpeval.errors import UsageError
from simpeval.metrics.readability import OsmanCounts, arabic_syllables, arabic_words, osman, osman_counts
from simpeval.registry import load_registry
from simpeval.testing import require_module

textstat = require_module("textstat")


def _arabic(data_dir: Path, n: int = 300) -> list[str]:
    import openpyxl

    path = data_dir / "readability" / "readmepp" / "ar" / "readme_ar_test.xlsx"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        book = openpyxl.load_workbook(path, read_only=True)
    rows = book.active.iter_rows(values_only=True)
    paragraph = next(rows).index("Paragraph")
    return [str(row[paragraph]) for row, _ in zip(rows, range(n)) if len(row) > paragraph and row[paragraph]]


@pytest.fixture(scope="module")
def texts(data_dir) -> list[str]:
    textstat.set_rounding_points(None)
    textstat.set_lang("ar")
    return _arabic(data_dir)


def _textstat_counts(text: str) -> OsmanCounts:
    from textstat.backend import counts

    return OsmanCounts(sentences=counts.count_sentences(text), words=counts.count_words(text),
                       syllables=counts.count_arabic_syllables(text), long_words=counts.count_arabic_long_words(text),
                       complex_words=counts.count_complex_arabic_words(text), faseeh_words=counts.count_faseeh(text))


def test_osman_gives_textstats_value_on_textstats_counts(texts):
    assert len(texts) >= 200
    for text in texts:
        assert osman(_textstat_counts(text)) == pytest.approx(textstat.osman(text), abs=1e-9), text


def test_words_and_long_words_are_counted_as_textstat_counts_them(texts):
    """Long words: more than five letters, vowel marks not counted; in all but a few texts (digits glued to
    punctuation) both count the same."""
    same = sum((osman_counts(t).words, osman_counts(t).long_words)
               == (textstat.lexicon_count(t), textstat.count_arabic_long_words(t)) for t in texts)
    assert same / len(texts) >= 0.98


@pytest.mark.parametrize(("word", "vocalised", "expected"), [
    ("كَتَبَ", True, 3),  # ka-ta-ba: three short syllables
    ("كِتَاب", True, 3),  # ki-taab: a short one and a long one (twice)
    ("شَدَّدَ", True, 5),  # sha-dda-da: three short, a stress (shadda, twice)
    ("كتب", False, 3),  # unvocalised: its consonants
    ("كتاب", False, 3),  # the alef lengthens the vowel before it
])
def test_syllables_are_weighted_by_type(word, vocalised, expected):
    assert arabic_syllables(word, vocalised) == expected


def test_textstats_syllable_counter_never_reads_a_vowel_mark():
    """textstat 0.7.13 counts a vocalised word as an unvocalised text: its characters (marks too) but alef
    and alef maqsura, less two; the weighted count it documents never runs."""
    for word in ("كَتَبَ", "كِتَاب", "شَدَّدَ"):
        stress = sum(c in "\u064b\u064c\u064d\u0651" for c in word)
        assert textstat.count_arabic_syllables(word) == len(word.replace("\u0627", "")) - 2 + 2 * stress
    assert (arabic_syllables("كَتَبَ"), textstat.count_arabic_syllables("كَتَبَ")) == (3, 4)


def test_unvocalised_syllables_are_textstats_fallback_per_word(texts):
    """On a text of bare Arabic letters (no marks, digits or other punctuation), textstat's fallback is the
    letters but alef and alef maqsura, less two: simpeval counts the same letters, word by word."""
    import re

    bare = [t for t in texts if re.fullmatch(r"[\u0621-\u063a\u0641-\u064a\s.!?,]+", t)]
    assert len(bare) >= 20
    for text in bare:
        assert osman_counts(text).syllables == textstat.count_arabic_syllables(text) + 2, text


def test_faseeh_words_are_complex_words_with_a_faseeh_letter_or_ending():
    # ten consonants: complex; hamza on yaa: faseeh
    counts = osman_counts("المسؤولياتهم كبيرة.")
    assert (counts.complex_words, counts.faseeh_words) == (1, 1)
    # the -uun ending of a long plural
    assert osman_counts("والمستخدمون هنا.").faseeh_words == 1
    # complex without a faseeh letter or ending
    assert osman_counts("والمستخدمين هنا.").faseeh_words == 0


def test_marks_stay_on_their_words():
    assert arabic_words("قال: «كَتَبَ الولدُ»، ثم ذهب.") == ["قال", "كَتَبَ", "الولدُ", "ثم", "ذهب"]


def test_a_stray_mark_does_not_make_a_text_vocalised():
    """Most Arabic is written without vowel marks; one shadda or damma among unmarked words leaves every
    word counted from its consonants."""
    plain, marked = "يستخدم الطلاب الكتب كل يوم.", "يُستخدم الطلاب الكتب كل يوم."
    assert osman_counts(plain).syllables == osman_counts(marked).syllables


def test_osman_is_registered_for_arabic_only():
    registry = load_registry(autoload=False)
    metric = registry.create_metric("osman", lang="ar")
    assert metric.signature().startswith("osman|formula:1|lang:ar|")
    with pytest.raises(UsageError, match='metric "osman" has no rules for language "en": it supports ar only'):
        registry.create_metric("osman", lang="en")


def test_corpus_score_pools_the_counts(texts):
    metric = load_registry(autoload=False).create_metric("osman", lang="ar")
    pooled = sum((osman_counts(t) for t in texts[:50]), OsmanCounts(0, 0, 0, 0, 0, 0))
    totals = [sum(column) for column in zip(*metric.corpus_statistics(texts[:50], texts[:50]))]
    assert metric.corpus_score(texts[:50], texts[:50]) == {"osman": pytest.approx(osman(pooled))}
    assert metric.corpus_score_from_statistics(totals) == {"osman": pytest.approx(osman(pooled))}
    assert math.isnan(metric.sentence_scores([""], [""])["osman"][0])


def test_packed_osman_counts_of_many_texts_are_the_counts_word_by_word(texts):
    """osman_counts_many (the new words of many texts counted together, a text's counts the sum of its
    tokens' rows, a vocalised text's one sum of its words' packed counts) gives Osman's counts made word
    by word (arabic_syllables, letters, complex and faseeh words), vocalised texts, tokens of marks or
    punctuation alone, underscores, tatweel and lone NULs (the texts' separator) included."""
    from simpeval.metrics import readability
    from simpeval.sentences import sentence_spans

    vocalised = "ذَهَبَ الوَلَدُ إِلَى المَدْرَسَةِ. وَكَتَبُوا الدَّرْسَ"
    sample = [*texts, vocalised, "", "ً ّ", "بيت 12", "المستشفيات والمؤسسات يكتبون",
              "كتب_الولد _ ـ «المدرسة» ، ً. \x00 ؟ مكتبــة", "بيت \x00", "\x00بيت ."]
    readability.clear_syllable_caches()
    for text, counts in zip(sample, readability.osman_counts_many([(text,) for text in sample])):
        found = arabic_words(text)
        voc = readability.is_vocalised(found)
        syllables = [arabic_syllables(w, voc) for w in found]
        bare = [readability._bare(w) for w in found]
        complex_words = [s > 5 for s in syllables]
        faseeh = [c and (bool(set("\u0621\u0626\u0624\u0630\u0638") & set(b)) or b.endswith(("\u0648\u0627", "\u0648\u0646")))
                  for c, b in zip(complex_words, bare)]
        expected = OsmanCounts(len(sentence_spans(text, "ar")) if found else 0, len(found), sum(syllables),
                               sum(sum(map(str.isalnum, b)) > 5 for b in bare), sum(complex_words), sum(faseeh))
        assert counts == expected == osman_counts(text), text
