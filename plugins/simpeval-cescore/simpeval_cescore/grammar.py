"""Grammaticality: SemiMatch and GScore (paper section 3.3, Equation 2, Algorithms 6-7).

SemiMatch(C, S, n) is the precision of S's n-grams against C's: an n-gram of S
found in C counts 1; one that matches some n-gram of C in exactly n - 1 of its n
positions (a "partial match", e.g. one word substituted) counts (n - 2) / n;
any other counts 0. Equation 2 as printed garbles these cases; this is what the
authors' package computes. N-grams are counted with repetition, tokens are the
lowercased whitespace tokens (punctuation kept), and a text with fewer than n
tokens scores 0.

A partial match is found in O(n) per n-gram instead of a scan over C: every
n-gram of C is stored n times with one position blanked out, and an n-gram of S
matches in n - 1 positions exactly when one of its own blanked versions is stored.

GScore is the minimum over the output's sentences of the mean SemiMatch for
n = 4..7. The paper (Algorithm 7, footnote 1) ignores sentences that score 0;
the authors' package does not, and by default neither do we (for parity with the
package, which produced the paper's numbers); ``ignore_zeros=True`` gives the
paper's rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from simpeval.store import stored
from simpeval_cescore.text import analyse, whitespace_tokens

if TYPE_CHECKING:
    from simpeval.store import StatsStore

GSCORE_ORDERS = (4, 5, 6, 7)
Ngram = tuple[str, ...]
_BLANK = None


def ngrams(tokens: Sequence[str], n: int) -> list[Ngram]:
    """The n-grams of ``tokens`` in order, with repetition."""
    return [tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]


def _blanked(gram: Ngram) -> list[tuple]:
    """``gram`` with each position in turn replaced by a blank."""
    return [gram[:i] + (_BLANK,) + gram[i + 1 :] for i in range(len(gram))]


class NgramIndex:
    """The n-grams of a reference text, indexed for full and partial matches."""

    def __init__(self, tokens: Sequence[str], n: int) -> None:
        self.n = n
        self.full = set(ngrams(tokens, n))
        self.partial = {blank for gram in self.full for blank in _blanked(gram)}

    def credit(self, gram: Ngram) -> float:
        """1 for a full match, (n - 2) / n for a match in n - 1 positions, else 0."""
        if gram in self.full:
            return 1.0
        if any(blank in self.partial for blank in _blanked(gram)):
            return (self.n - 2) / self.n
        return 0.0


def semimatch(reference: Sequence[str] | NgramIndex, candidate: Sequence[str], n: int) -> float:
    """SemiMatch precision of ``candidate``'s n-grams against ``reference`` (tokens or an index)."""
    index = reference if isinstance(reference, NgramIndex) else NgramIndex(reference, n)
    grams = ngrams(candidate, n)
    if not grams:
        return 0.0
    return sum(map(index.credit, grams)) / len(grams)


@stored
def source_index(text: str, n: int, *, store: StatsStore | None = None) -> NgramIndex:
    """The n-gram index of a source text, built once while ``store`` keeps it (a source has many outputs)."""
    return NgramIndex(whitespace_tokens(text), n)


@stored
def sentence_semimatch(source: str, sentence_tokens: tuple[str, ...], *, store: StatsStore | None = None) -> float:
    """The mean SemiMatch of one output sentence against the whole source over GScore's orders
    (kept in ``store``: systems often produce the same sentence, e.g. an unchanged source)."""
    return sum(semimatch(source_index(source, n, store=store), sentence_tokens, n)
               for n in GSCORE_ORDERS) / len(GSCORE_ORDERS)


def gscore_from_sentences(sentence_scores: Sequence[float], ignore_zeros: bool = False) -> float:
    """The minimum sentence score (over the non-zero ones if ``ignore_zeros``); 0 when none are left."""
    kept = [s for s in sentence_scores if s > 0] if ignore_zeros else list(sentence_scores)
    return min(kept, default=0.0)


def gscore(source: str, output: str, ignore_zeros: bool = False, store: StatsStore | None = None) -> float:
    """GScore: how well every sentence of ``output`` keeps to the n-grams of ``source``."""
    sentences = analyse(output, store=store).sentence_tokens
    scores = [sentence_semimatch(source, tokens, store=store) for tokens in sentences]
    return gscore_from_sentences(scores, ignore_zeros)
