"""Readability as textstat 0.7.3 computes it, for reproducing papers that reported textstat's numbers.

Why a copy of textstat's counting and not textstat itself: papers report textstat 0.7.3's values
(LENS's FKGL, DEplain's German FRE through EASSE-de), later textstat releases count differently,
and pinning an old textstat beside a new one is impossible. What 0.7.3 does, and these functions
do: punctuation (``[^\\w\\s]``) removed, words are whitespace tokens; syllables are pyphen's
hyphenation points + 1 per lower-cased word, in the text's language (``en_US`` for English, ``de``
for German); sentences are runs of text up to ``.``, ``!`` or ``?``, those of at most two words not
counted (at least one); average sentence length and syllables per word are rounded to one decimal
before the formula, and the result as textstat rounds (``floor(x * 10**k + 0.5)``, ``- 0.5`` below
zero). The formulas' constants per language are textstat's (``fre_base``, ``fre_sentence_length``,
``fre_syll_per_word``): Flesch (1948) for English, Amstad (1978) for German.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache

_NON_WORD = re.compile(r"[^\w\s]")
_SENTENCE = re.compile(r"\b[^.!?]+[.!?]*")

#: textstat 0.7.3's Flesch Reading Ease constants: language -> (base, per word per sentence, per syllable per word)
FRE_CONSTANTS: dict[str, tuple[float, float, float]] = {
    "en": (206.835, 1.015, 84.6),  # Flesch (1948)
    "de": (180.0, 1.0, 58.5),  # Amstad (1978)
}
#: the pyphen dictionary textstat 0.7.3's ``set_lang`` chooses for each language
HYPHENATION = {"en": "en_US", "de": "de"}


def legacy_round(number: float, points: int) -> float:
    """textstat's rounding: ``floor(x * 10**points +- 0.5)``, the sign of ``x`` choosing +-."""
    p = 10**points
    return float(math.floor(number * p + math.copysign(0.5, number))) / p


@lru_cache(maxsize=None)
def _hyphenator(lang: str):  # noqa: ANN202 - pyphen is imported lazily
    import pyphen

    return pyphen.Pyphen(lang=HYPHENATION[lang])


def _words(text: str) -> list[str]:
    return _NON_WORD.sub("", text).split()


def counts(text: str, lang: str = "en") -> tuple[int, int, int]:
    """``(sentences, words, syllables)`` as textstat 0.7.3 counts them in language ``lang``."""
    words = _words(text)
    pieces = _SENTENCE.findall(text)
    sentences = max(1, len(pieces) - sum(len(_words(piece)) <= 2 for piece in pieces))
    hyphenator = _hyphenator(lang)
    syllables = sum(len(hyphenator.positions(word)) + 1 for word in _words(text.lower()))
    return sentences, len(words), syllables


def _averages(text: str, lang: str) -> tuple[float, float]:
    """Average sentence length and syllables per word, each rounded to one decimal (0 without words)."""
    sentences, words, syllables = counts(text, lang)
    return legacy_round(words / sentences, 1), legacy_round(syllables / words, 1) if words else 0.0


def fkgl(text: str) -> float:
    """textstat 0.7.3's ``flesch_kincaid_grade(text)`` (English)."""
    sentence_length, syllables_per_word = _averages(text, "en")
    return legacy_round(0.39 * sentence_length + 11.8 * syllables_per_word - 15.59, 1)


def fre(text: str, lang: str) -> float:
    """textstat 0.7.3's ``flesch_reading_ease(text)`` after ``set_lang(lang)`` (higher = easier)."""
    base, per_sentence_length, per_syllable = FRE_CONSTANTS[lang]
    sentence_length, syllables_per_word = _averages(text, lang)
    return legacy_round(base - per_sentence_length * sentence_length - per_syllable * syllables_per_word, 2)
