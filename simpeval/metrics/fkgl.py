"""Flesch-Kincaid Grade Level (Kincaid et al. 1975) as EASSE computes it.

``FKGL = 0.39 * words/sentences + 11.8 * syllables/words - 15.59``, clipped at 0
(``clip=yes``, EASSE). The text is lowercased and tokenized, then split into
sentences with English Punkt; words are the whitespace tokens (punctuation
included, as in EASSE) and syllables follow :func:`simpeval.syllables.count_syllables`.
A text without words scores 0. Lower grades mean simpler text.

The sentence score is the FKGL of one output; the corpus score pools the counts
of all outputs (EASSE's ``corpus_fkgl``), it is not the mean of sentence scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby, repeat
from operator import itemgetter

import simpeval
from simpeval.languages import ENGLISH
from simpeval.metrics.base import AdditiveMetric, Metric, Option
from simpeval.sentences import sentence_count
from simpeval.syllables import count_syllables
from simpeval.store import StatsStore, gc_paused, stored
from simpeval.text import tokenized, tokenized_many
from simpeval.tokenizers import TOKENIZER_NAMES


@dataclass(frozen=True)
class ReadabilityCounts:
    """Sentences, words and syllables of a text."""

    sentences: int
    words: int
    syllables: int

    def __add__(self, other: ReadabilityCounts) -> ReadabilityCounts:
        return ReadabilityCounts(
            self.sentences + other.sentences,
            self.words + other.words,
            self.syllables + other.syllables,
        )


@stored
def readability_counts(
    text: str, tokenizer: str, lowercase: bool, *, store: StatsStore | None = None
) -> ReadabilityCounts:
    """Counts of one English text (memoised: fkbleu reuses the counts of fkgl)."""
    return _counts(tokenized(text, tokenizer, lowercase, store=store))


def _counts(normalized: str) -> ReadabilityCounts:
    """The counts of a text given as its tokens joined by spaces. Punkt's sentences split the text at
    whitespace only, so their words are the text's: the sentences are counted (:func:`sentence_count`),
    not made."""
    tokens = normalized.split()
    return ReadabilityCounts(sentence_count(normalized, ENGLISH), len(tokens), sum(map(count_syllables, tokens)))


def readability_counts_many(
    texts: Sequence[str], tokenizer: str, lowercase: bool, *, store: StatsStore | None = None
) -> list[ReadabilityCounts]:
    """:func:`readability_counts` of each text, kept in the store under its keys: the texts not there
    tokenized in one batch and counted in one call (no store lookup per text and step)."""
    args = list(zip(texts, repeat(tokenizer), repeat(lowercase)))
    with gc_paused():
        if store is None:
            return _counts_batch(args, store=None)
        return store.get_many(readability_counts.__wrapped__, args, compute=_counts_batch)  # type: ignore[attr-defined]


def _counts_batch(args: list[tuple[str, str, bool]], *, store: StatsStore | None) -> list[ReadabilityCounts]:
    found: list[ReadabilityCounts] = []
    for (tokenizer, lowercase), group in groupby(args, itemgetter(1, 2)):
        normalized = tokenized_many(list(map(itemgetter(0), group)), tokenizer, lowercase, store=store)
        found += map(_counts, normalized)
    return found


def fkgl_from_counts(counts: ReadabilityCounts, clip: bool = True) -> float:
    """The grade level of ``counts``; 0 for a text with no words."""
    if counts.sentences == 0 or counts.words == 0:
        return 0.0
    grade = (
        0.39 * (counts.words / counts.sentences)
        + 11.8 * (counts.syllables / counts.words)
        - 15.59
    )
    return max(0.0, grade) if clip else grade


FKGL_OPTIONS: dict[str, Option] = {
    "tokenizer": Option(str, "13a", "word tokenizer", choices=TOKENIZER_NAMES, short="tok"),
    "lowercase": Option(bool, True, "lowercase before tokenizing", short="lc"),
    "clip": Option(bool, True, "clip negative grades to 0 (EASSE)"),
}


class Fkgl(AdditiveMetric):
    """Flesch-Kincaid Grade Level of the output (no references needed; lower is simpler)."""

    name = "fkgl"
    formula_version = "2"  # 2: sentences split exactly as NLTK's Punkt (a 13a '. . .' ends sentences)
    sub_scores = ("fkgl",)
    output_only = frozenset(sub_scores)
    description = "Flesch-Kincaid Grade Level of the output (lower = simpler)"
    requires_references = False
    level = "document"  # splits texts into sentences itself
    higher_is_better = False
    options = FKGL_OPTIONS

    def counts(self, texts: Sequence[str]) -> list[ReadabilityCounts]:
        """Per-text counts, memoised in the run's store (the texts tokenized in one batch first)."""
        return readability_counts_many(texts, self.tokenizer, self.lowercase, store=self.store)

    def grades(self, texts: Sequence[str]) -> list[float]:
        """Each text's grade level (sentence scores; fkbleu and SLE's labels use them too)."""
        return [fkgl_from_counts(c, self.clip) for c in self.counts(texts)]

    def _item_statistics(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
    ) -> list[tuple[float, ...]]:
        return [(c.sentences, c.words, c.syllables) for c in self.counts(outputs)]

    def _score_from_totals(self, totals: Sequence[float]) -> dict[str, float]:
        return {self.name: fkgl_from_counts(ReadabilityCounts(*totals), self.clip)}


@simpeval.hookimpl
def simpeval_register_metrics() -> list[type[Metric]]:
    return [Fkgl]


# what plugins may import (tests/test_public_helpers.py)
__all__ = [
    "ReadabilityCounts",
    "readability_counts",
    "fkgl_from_counts",
    "Fkgl",
]
