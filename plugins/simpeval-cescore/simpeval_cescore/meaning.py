"""Meaning preservation: MScore (paper section 3.2, Algorithm 5).

The words the source and the output share, weighted by how much information a
word carries (``1 / (1 + zipf)``, so rare words weigh more), over the same weight of
all words of either text. Words are the lowercased alphanumeric tokens, as sets;
a word missing from SUBTLEX-US has Zipf 0 (weight 1). Two texts without any word
give NaN, as 0/0 does in the authors' package.

The sums are exact (``math.fsum``), so they do not depend on the order in which a
set is iterated (which changes with Python's hash seed). The authors' ``np.sum``
over sets does: an output with the same words as its source, in another order,
gets 1 +- 1e-16 there and exactly 1 here, which keeps such outputs tied when
ranked (it moves the sentence-level Spearman of M by about 0.01 on Structural
Simplicity; see docs/reproduced/cescore.md).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from simpeval_cescore.lexicons import zipf
from simpeval_cescore.text import analyse

if TYPE_CHECKING:
    from simpeval.store import StatsStore


def information_weight(word: str) -> float:
    """``1 / (1 + zipf(word))``: frequent words (Zipf up to 7.3) carry little information."""
    return 1.0 / (1.0 + zipf().get(word, 0.0))


def mscore(source: str, output: str, store: StatsStore | None = None) -> float:
    """MScore: weighted Jaccard overlap of the two texts' word sets."""
    source_words, output_words = set(analyse(source, store=store).words), set(analyse(output, store=store).words)
    union = math.fsum(map(information_weight, source_words | output_words))
    if union == 0.0:
        return math.nan
    return math.fsum(map(information_weight, source_words & output_words)) / union
