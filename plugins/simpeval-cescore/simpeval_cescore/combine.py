"""CEScore: the overall quality from SScore, MScore and GScore (paper section 3).

The paper says "the geometric mean of the three scores". The authors' package
first maps each score through a logistic curve centred at 0.5 with slope 10
(pushing scores below 0.5 towards 0 and above towards 1), multiplies the three and
raises the product to the power 0.33 (not exactly 1/3); we do the same.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from typing import TYPE_CHECKING

from simpeval_cescore.grammar import gscore
from simpeval_cescore.meaning import mscore
from simpeval_cescore.simplicity import sscore, word_familiarity
from simpeval_cescore.syllables import count_syllables
from simpeval_cescore.text import retokenise_word

if TYPE_CHECKING:
    from simpeval.store import StatsStore

LOGISTIC_SLOPE = 10.0
LOGISTIC_CENTRE = 0.5
MEAN_EXPONENT = 0.33


def squash(score: float) -> float:
    """The logistic curve ``1 / (1 + exp(-10 * (score - 0.5)))`` applied before combining."""
    return 1.0 / (1.0 + math.exp(-LOGISTIC_SLOPE * (score - LOGISTIC_CENTRE)))


def combine(s: float, m: float, g: float) -> float:
    """CE from the three scores (NaN if any is NaN)."""
    if math.isnan(s) or math.isnan(m) or math.isnan(g):
        return math.nan
    return (squash(m) * squash(s) * squash(g)) ** MEAN_EXPONENT


@dataclass(frozen=True)
class CEScores:
    """The four scores of one (source, output) pair."""

    s: float
    m: float
    g: float
    ce: float


def cescore(source: str, output: str, ignore_zero_sentences: bool = False,
            store: StatsStore | None = None) -> CEScores:
    """SScore, MScore, GScore and CEScore of ``output`` as a simplification of ``source``.

    :param store: where each text's analysis is kept while in use (the metric's run's store).
    """
    s, m = sscore(source, output, store), mscore(source, output, store)
    g = gscore(source, output, ignore_zeros=ignore_zero_sentences, store=store)
    return CEScores(s, m, g, combine(s, m, g))


def clear_caches() -> None:
    """Forget every per-word result (benchmarks time a cold start with a new store); lexicons stay loaded.

    Per-text results live in a run's store, never process-wide.
    """
    for cached in (retokenise_word, word_familiarity, count_syllables):
        cached.cache_clear()
