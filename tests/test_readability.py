"""Readability formulas per language against textstat 0.7 (the outside oracle), and their counts on real
German, French and Russian texts.

Each formula is checked on textstat's own counts of real texts: given the counts textstat made, simpeval's
formula must give textstat's value (rounding off), so every constant and every term is textstat's, or the
difference is the documented one. The counts are checked where both count the same way (words, long words);
where they differ (sentences: Punkt against textstat's rule; syllables outside pyphen's dictionary), the
differences are measured by benchmarks/readability_textstat.py and documented in docs/metrics.md.
"""

from __future__ import annotations

import math
import warnings
from pathlib import Path

import pytest

from simpeval.errors import UsageError
from simpeval.metrics import readability
from simpeval.metrics.readability import TextCounts, text_counts
from simpeval.registry import load_registry
from simpeval.testing import require_module

textstat = require_module("textstat")


def _german(data_dir: Path, n: int = 300) -> list[str]:
    path = data_dir / "references" / "deplain-web" / "DEplain-web-manual-public.test.org"
    return path.read_text(encoding="utf-8").splitlines()[:n]


def _readmepp(data_dir: Path, lang: str, n: int = 200) -> list[str]:
    import openpyxl

    path = data_dir / "readability" / "readmepp" / lang / f"readme_{lang}_test.xlsx"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        book = openpyxl.load_workbook(path, read_only=True)
    rows = book.active.iter_rows(values_only=True)
    header = next(rows)
    paragraph = header.index("Paragraph")
    return [row[paragraph] for row, _ in zip(rows, range(n)) if len(row) > paragraph and row[paragraph]]


def _textstat_counts(text: str, lang: str, letters: str = "letters") -> TextCounts:
    """textstat's counts of ``text`` after ``set_lang(lang)``, as simpeval's formulas take them."""
    textstat.set_lang(lang)
    return TextCounts(
        sentences=textstat.sentence_count(text), words=textstat.lexicon_count(text),
        syllables=textstat.syllable_count(text),
        letters=textstat.letter_count(text) if letters == "letters" else textstat.char_count(text),
        long_words=textstat.long_word_count(text), monosyllables=textstat.monosyllabcount(text),
        polysyllables=textstat.polysyllabcount(text))


@pytest.fixture(scope="module")
def texts(data_dir) -> dict[str, list[str]]:
    textstat.set_rounding_points(None)  # textstat's unrounded values
    return {"de": _german(data_dir), "fr": _readmepp(data_dir, "fr"), "ru": _readmepp(data_dir, "ru")}


def _metric(name: str, lang: str):
    return load_registry(autoload=False).create_metric(name, lang=lang)


@pytest.mark.parametrize(("name", "lang", "oracle"), [
    ("fre", "de", lambda t: textstat.flesch_reading_ease(t)),
    ("fre", "fr", lambda t: textstat.flesch_reading_ease(t)),
    ("fre", "ru", lambda t: textstat.flesch_reading_ease(t)),
    ("fre", "es", lambda t: textstat.flesch_reading_ease(t)),
    ("fre", "it", lambda t: textstat.flesch_reading_ease(t)),
    ("fre", "nl", lambda t: textstat.flesch_reading_ease(t)),
    ("amstad", "de", lambda t: textstat.flesch_reading_ease(t)),
    ("fernandez-huerta", "es", lambda t: textstat.fernandez_huerta(t)),
    ("kandel-moles", "fr", lambda t: textstat.flesch_reading_ease(t)),
    ("flesch-vacca", "it", lambda t: textstat.flesch_reading_ease(t)),
    ("douma", "nl", lambda t: textstat.flesch_reading_ease(t)),
    ("gutierrez-polini", "es", lambda t: textstat.gutierrez_polini(t)),
    ("crawford", "es", lambda t: textstat.crawford(t)),
    *((f"wiener-sachtextformel-{n}", "de", lambda t, n=n: textstat.wiener_sachtextformel(t, n)) for n in range(1, 5)),
    ("lix", "de", lambda t: textstat.lix(t)),
    ("rix", "fr", lambda t: textstat.rix(t)),
])
def test_each_formula_gives_textstats_value_on_textstats_counts(name, lang, oracle, texts):
    """On real texts (German DEplain, French and Russian ReadMe++; German ones for es, it, nl, whose
    formulas do not care which language the counts come from, as the data holds no such texts)."""
    formula = _metric(name, lang)._formula()
    for text in texts.get(lang, texts["de"])[:100]:
        counts = _textstat_counts(text, lang)
        if counts.words == 0:
            continue
        assert formula(counts) == pytest.approx(oracle(text), abs=1e-9), text


def test_gulpease_counts_letters_where_textstat_counts_characters(texts):
    """Lucisano & Piemontese count letters per word; textstat 0.7 counts every character but spaces
    (punctuation too) over tokens with punctuation-only ones. On text without punctuation the two agree:
    the constants are textstat's."""
    import re

    formula = _metric("gulpease", "it")._formula()
    textstat.set_lang("it")
    for text in texts["de"][:100]:
        bare = re.sub(r"[^\w\s]", "", text)
        if not bare.split():
            continue
        assert formula(_textstat_counts(bare, "it")) == pytest.approx(textstat.gulpease_index(bare), abs=1e-9)
        punctuated = textstat.gulpease_index(text)
        characters = textstat.char_count(text) / textstat.lexicon_count(text, removepunct=False)
        assert punctuated == pytest.approx(89 + 300 * textstat.sentence_count(text) / textstat.lexicon_count(text)
                                           - 10 * characters, abs=1e-9)


def test_szigriszt_pazos_uses_the_published_base_where_textstat_uses_fernandez_huertas(texts):
    """Szigriszt Pazos (1993) publish 206.835; textstat 0.7 takes its Spanish FRE base, 206.84."""
    formula = _metric("szigriszt-pazos", "es")._formula()
    for text in texts["de"][:100]:
        counts = _textstat_counts(text, "es")
        assert formula(counts) - textstat.szigriszt_pazos(text) == pytest.approx(-0.005, abs=1e-9)


@pytest.mark.parametrize("lang", ["de", "fr", "ru"])
def test_words_and_long_words_are_counted_as_textstat_counts_them(lang, texts):
    """Except that an underscore is no letter here (textstat keeps it: ``_quelque`` is its long word)."""
    textstat.set_lang(lang)
    for text in (t for t in texts[lang] if "_" not in t):
        counts = text_counts(text, lang)
        assert (counts.words, counts.long_words) == (textstat.lexicon_count(text), textstat.long_word_count(text))


def test_syllables_outside_english_are_pyphens_hyphenation_points_plus_one():
    import pyphen

    german = pyphen.Pyphen(lang="de")
    for word in ("Verständlichkeit", "Sachtextformel", "Haus", "Lesbarkeitsindex"):
        assert readability.syllables(word, "de") == len(german.positions(word.lower())) + 1
    assert readability.syllables("Haus", "de") == 1
    assert readability.syllables("Verständlichkeit", "de") == 4


def test_english_keeps_easses_syllables():
    from simpeval.syllables import count_syllables

    assert readability.syllables("readability", "en") == count_syllables("readability")


def test_corpus_scores_pool_the_counts_and_are_resampled_from_them():
    fre = _metric("fre", "de")
    outputs = ["Der Hund läuft schnell. Er ist müde.", "Die Katze schläft den ganzen Tag auf dem Sofa."]
    totals = [sum(column) for column in zip(*fre.corpus_statistics(outputs, outputs))]
    pooled = text_counts(outputs[0], "de") + text_counts(outputs[1], "de")
    expected = 180 - pooled.words / pooled.sentences - 58.5 * pooled.syllables / pooled.words
    assert fre.corpus_score(outputs, outputs) == {"fre": pytest.approx(expected)}
    assert fre.corpus_score_from_statistics(totals) == {"fre": pytest.approx(expected)}


def test_a_text_without_words_has_no_score():
    assert math.isnan(_metric("lix", "de").sentence_scores([""], [""])["lix"][0])


@pytest.mark.parametrize(("name", "lang", "supported"), [
    ("fre", "ar", "de, en, es, fr, it, nl, ru"),
    ("wiener-sachtextformel-1", "en", "de only"),
    ("gulpease", "de", "it only"),
    ("fkgl", "de", "en only"),
])
def test_a_formula_refuses_a_language_it_has_no_constants_for(name, lang, supported):
    with pytest.raises(UsageError, match=f'metric "{name}" has no rules for language "{lang}": it supports {supported}'):
        _metric(name, lang)


def test_fre_prints_its_language():
    assert _metric("fre", "de").signature().startswith("fre|formula:1|lang:de|")


@pytest.mark.parametrize("lang", ["de", "fr", "ru", "en"])
def test_packed_counts_of_many_texts_are_each_texts_counts_word_by_word(lang, texts):
    """text_counts_many (the new words of many texts counted together, a text's counts one sum of its
    words' packed counts) gives the counts made word by word: pyphen's points of each lower-cased word
    between its left and right margins plus one (EASSE's counter in English), letters, long words, words
    of one and of three or more syllables; and the store keeps them under text_counts' keys."""
    import pyphen

    from simpeval.sentences import sentence_spans
    from simpeval.store import StatsStore
    from simpeval.syllables import count_syllables

    sample = texts.get(lang, texts["de"])
    sample = [*sample, "", "  ", "...", "Ein Wort.", "x" * 300 + ". Zwei Wörter!"]
    hyphenator = None if lang == "en" else pyphen.Pyphen(lang=pyphen.language_fallback(lang))
    readability.clear_syllable_caches()
    store = StatsStore()
    many = readability.text_counts_many([(text, lang, True) for text in sample], store=store)
    for text, counts in zip(sample, many):
        found = readability.words(text)
        per_word = [count_syllables(w) if hyphenator is None else len(hyphenator.positions(w.lower())) + 1
                    for w in found]
        expected = TextCounts(len(sentence_spans(text, lang)) if found else 0, len(found), sum(per_word),
                              sum(map(len, found)), sum(len(w) > 6 for w in found), per_word.count(1),
                              sum(c >= 3 for c in per_word))
        assert counts == expected == text_counts(text, lang, store=store) == text_counts(text, lang), text
    assert readability.syllables("Wörterbuch", lang) == readability.text_counts("Wörterbuch", lang).syllables


@pytest.mark.parametrize("lang", ["de", "ru"])
def test_token_rows_give_the_counts_word_by_word_one_text_or_many_and_across_calls(lang, texts, monkeypatch):
    """_HyphenatedSyllables.text_totals (the texts' whitespace tokens interned, a row of counts per token,
    each text's counts summed from its tokens' rows) gives the counts of words() made word by word: on a
    text at a time and on all at once, with the token table kept between calls and emptied past its
    bound (made small here), with tokens of punctuation alone, underscores, case, and a text holding a
    lone NUL (the separator the texts are joined with)."""
    import pyphen

    monkeypatch.setattr(readability, "_SYLLABLE_WORDS", 50)
    hyphenator = pyphen.Pyphen(lang=pyphen.language_fallback(lang))
    sample = [*texts[lang][:40], "", "a \x00 b", "\x00", "Wort\x00 \x00Wort", "_ __ a_b — «Wort» 3,5 ... x.",
              "ÉCOLE école École İstanbul ΣΊΣΥΦΟΣ Straße STRASSE"]

    def expected(text: str) -> list[int]:
        found = readability.words(text)
        per_word = [len(hyphenator.positions(w.lower())) + 1 for w in found]
        return [len(found), sum(map(len, found)), sum(per_word), sum(len(w) > 6 for w in found),
                per_word.count(1), sum(c >= 3 for c in per_word)]

    table = readability._syllable_table(lang)
    readability.clear_syllable_caches()
    assert [table.text_totals([text]).tolist()[0] for text in sample] == list(map(expected, sample))
    assert table.text_totals(sample).tolist() == list(map(expected, sample))
    readability.clear_syllable_caches()
    assert table.text_totals(sample).tolist() == list(map(expected, sample))
    assert table.text_totals([]).tolist() == []


def test_a_lowercase_word_is_its_own_lower_case():
    """The token counts look a word that str.islower() up in pyphen's memo as it is, not lower-cased: every
    character that is neither upper nor title case is its own lower case (so a word with no upper or
    title case character, which islower() is, is too; the one context rule, final sigma, is for an
    upper-case sigma)."""
    import sys

    assert [hex(code) for code in range(sys.maxunicode + 1)
            if not chr(code).isupper() and not chr(code).istitle() and chr(code).lower() != chr(code)] == []


def test_words_of_arabic_text_are_its_arabic_words_without_marks():
    """The words lix and rix count in Arabic are counted with Osman's (arabic_totals: one tokenisation,
    shared in the store), as Osman's words without their marks: the same counts as words() gives."""
    from simpeval.sentences import sentence_spans
    from simpeval.store import StatsStore

    cases = ["ذَهَبَ الوَلَدُ إلى المدرسةِ.", "كتب ـ الولد ، ّ َ كتاباً؟", "بيت", "ً", "", "مدرسة_كبيرة 12 ٣",
             "المستشفياتُ الجامعيةُ الكبيرةُ"]
    readability.clear_syllable_caches()
    for text in cases:
        found = readability.words(text)
        expected = TextCounts(len(sentence_spans(text, "ar")) if found else 0, len(found), 0,
                              sum(map(len, found)), sum(len(w) > 6 for w in found), 0, 0)
        assert text_counts(text, "ar", False) == expected == text_counts(text, "ar", False, store=StatsStore()), text
        assert readability.arabic_totals(text)[0] == len(readability.arabic_words(text)) == len(found)


def test_words_drop_punctuation_and_the_underscore_inside_tokens():
    assert readability.words("l'homme, snake_case _ ... 3,5 «Ça» — va") == ["lhomme", "snakecase", "35", "Ça", "va"]
