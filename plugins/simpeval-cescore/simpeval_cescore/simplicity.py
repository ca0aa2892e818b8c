"""Simplicity: Sentence Length Score, Average Sentence Familiarity, Text Simplicity Score, SScore.

Paper sections 3.1, Equation 1 and Algorithms 2-4. Where the paper and the
authors' package differ, the package is followed (it produced the paper's numbers):

- SLS is ``1 - 1 / (1 + exp(-tau * (n - omega)))``, i.e. it *falls* with length;
  Equation 1 prints the exponent without the minus sign.
- ASF averages over the words found in Brysbaert's list (Algorithm 2 says the
  SUBTLEX-US list), each contributing ``percent_known * zipf / syllables``; a word
  missing from SUBTLEX-US has Zipf 0. A text without such words has ASF 0.
- TSS uses ``SLS ** 0.33`` (not a true cube root), ``alpha = 0.45`` and
  ``beta = 0.55``; a text with no sentence longer than one character has
  F_strc = 0.
- SScore is clipped to [0, 1].
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING

from simpeval.store import stored
from simpeval_cescore.lexicons import percent_known, zipf
from simpeval_cescore.syllables import count_syllables
from simpeval_cescore.text import analyse

if TYPE_CHECKING:
    from simpeval.store import StatsStore

SLS_TAU = 0.22
SLS_OMEGA = 13.0
TSS_ALPHA = 0.45
TSS_BETA = 0.55
TSS_LENGTH_WEIGHT = 5.0
TSS_LENGTH_EXPONENT = 0.33


def sentence_length_score(n_tokens: int) -> float:
    """SLS of a sentence of ``n_tokens`` words: 0.5 at 13 words, near 1 when short, near 0 when long."""
    return 1.0 - 1.0 / (1.0 + math.exp(-SLS_TAU * (n_tokens - SLS_OMEGA)))


@lru_cache(maxsize=1 << 18)
def word_familiarity(word: str) -> float | None:
    """``percent_known * zipf / syllables`` of ``word``, or None when Brysbaert's list lacks it."""
    known = percent_known().get(word)
    if known is None:
        return None
    return known * zipf().get(word, 0.0) / count_syllables(word)


def average_familiarity(words: tuple[str, ...]) -> float:
    """ASF: the mean familiarity of the words in Brysbaert's list (0 when there are none)."""
    values = [v for v in map(word_familiarity, words) if v is not None]
    return sum(values) / len(values) if values else 0.0


def _structural(units: tuple[str, ...]) -> float:
    return average_familiarity(units) * sentence_length_score(len(units))


@stored
def text_simplicity(text: str, *, store: StatsStore | None = None) -> float:
    """TSS: ``alpha * (ASF + 5 * SLS**0.33)`` of the whole text plus ``beta *`` its hardest sentence."""
    view = analyse(text, store=store)
    lexical = average_familiarity(view.units) + TSS_LENGTH_WEIGHT * (
        sentence_length_score(len(view.units)) ** TSS_LENGTH_EXPONENT
    )
    structural = min(map(_structural, view.sentence_units), default=0.0)
    return TSS_ALPHA * lexical + TSS_BETA * structural


def sscore(source: str, output: str, store: StatsStore | None = None) -> float:
    """SScore: ``(TSS(out) - TSS(src)) / (TSS(out) + TSS(src)) + 0.5``, clipped to [0, 1]."""
    simple, complex_ = text_simplicity(output, store=store), text_simplicity(source, store=store)
    relative = (simple - complex_) / (simple + complex_) + 0.5
    return min(1.0, max(0.0, relative))
