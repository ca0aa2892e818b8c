"""The conventional metrics as LENS's released meta-evaluation code computes them (``--preset lens-2023``).

Maddela et al. (2023) and Kwak et al. (2024, Table 1) report FKGL, "BLEU" and SARI from the LENS
repository's ``experiments/meta_evaluation``; each differs from EASSE's metric of the same name:

- **FKGL** is textstat 0.7.3's ``flesch_kincaid_grade``: punctuation removed, words are
  whitespace tokens, syllables are pyphen (``en_US``) hyphenation points + 1 per word, sentences
  are runs of text up to ``.``, ``!`` or ``?`` (those of at most two words not counted), the average
  sentence length and syllables per word rounded to one decimal before the formula, the grade
  rounded to one decimal as textstat rounds (``floor(10 x + 0.5)``, ``floor(10 x - 0.5)`` below
  zero, so -2.62 becomes -2.7) and not clipped;
- **"BLEU"** is NLTK's sentence GLEU (Wu et al. 2016): n-grams of orders 1-4 pooled,
  matches / max(output n-grams, reference n-grams), the reference giving the best ratio,
  on lower-cased ``nltk.word_tokenize`` tokens;
- **SARI** is Wei Xu's script as LENS ships it: lower-cased NLTK tokens, keep and addition F1,
  deletion precision, averaged over orders 1-4 per operation; one change in LENS's copy: an added
  n-gram that the references have only counts when one of its tokens is not a token of the
  original or its tokens are not a subsequence of the original's whitespace-separated words.

Each is a metric named for what it computes (:mod:`simpeval.lens2023.metrics`): ``fkgl-textstat``,
``gleu-nltk`` and ``sari-lens``; ``--preset lens-2023`` maps ``fkgl``, ``bleu`` and ``sari`` to them.
The texts are prepared as LENS's data loaders prepare them: see :func:`remove_tokenization_artifacts`
and :func:`simpeval.lens2023.prepare_texts`.
"""

from __future__ import annotations

import string
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from simpeval.metrics.xu_sari import order_scores
from simpeval.text import ngram_counts

if TYPE_CHECKING:
    from simpeval.store import StatsStore

MAX_ORDER = 4


def remove_tokenization_artifacts(output: str, original: str) -> str:
    """LENS's clean-up of a system output: split markers dropped, tokenised punctuation re-attached.

    ``||`` and ``<SEP>`` markers become spaces; a punctuation token between two words is glued
    back to its neighbours (both, else the left, else the right one) where the original has them
    glued. LENS passes the *lower-cased* original and lower-cases the result afterwards.
    """
    output = output.replace(" || ", " ").replace("||", "").replace(" <SEP> ", " ")
    tokens = output.split()
    cleaned = output
    for i in range(1, len(tokens) - 1):
        token = tokens[i]
        if token not in string.punctuation:  # a substring test, as in LENS ("()" counts)
            continue
        before, after = tokens[i - 1], tokens[i + 1]
        if before + token + after in original:
            cleaned = cleaned.replace(f"{before} {token} {after}", before + token + after)
        elif before + token in original:
            cleaned = cleaned.replace(f"{before} {token}", before + token)
        elif token + after in original:
            cleaned = cleaned.replace(f"{token} {after}", token + after)
    return cleaned


# ----------------------------------------------------------------------
# GLEU (NLTK)
# ----------------------------------------------------------------------


def _pooled_ngrams(text: str, store: StatsStore | None) -> Counter:
    """Counts of every n-gram of orders 1-4 of the lower-cased NLTK tokens (NLTK's ``everygrams``)."""
    pooled: Counter = Counter()
    for counts in ngram_counts(text, "nltk", True, MAX_ORDER, store=store):
        pooled.update(counts)
    return pooled


def gleu_stats(output: str, references: Sequence[str], *, store: StatsStore | None = None) -> tuple[int, int]:
    """``(matches, n_all)`` of the reference with the best ratio; ``(0, 0)`` if none has n-grams.

    :param store: the run's statistics store, where the n-gram counts of a reference shared by items are kept.
    """
    hyp = _pooled_ngrams(output, store)
    hyp_total = sum(hyp.values())
    best: tuple[int, int] | None = None
    for reference in references:
        ref = _pooled_ngrams(reference, store)
        n_all = max(hyp_total, sum(ref.values()))
        if n_all == 0:
            continue
        matches = sum((hyp & ref).values())
        if best is None or matches / n_all > best[0] / best[1]:
            best = (matches, n_all)
    return best or (0, 0)


def gleu_from_stats(matches: int, n_all: int) -> float:
    """GLEU in [0, 1]; 0 when there is nothing to compare."""
    return matches / n_all if n_all else 0.0


# ----------------------------------------------------------------------
# SARI (Wei Xu's script, LENS's copy)
# ----------------------------------------------------------------------


def _is_subsequence(needle: Sequence[str], haystack: Sequence[str]) -> bool:
    found = 0
    for token in haystack:
        if found < len(needle) and needle[found] == token:
            found += 1
    return found == len(needle)


def _sari_order(source: Counter, output: Counter, refs: Counter, n_refs: int,
                source_tokens: set[str], source_words: list[str]) -> tuple[float, float, float]:
    """``(keep F1, deletion precision, addition F1)`` of one n-gram order, with LENS's addition rule."""
    return order_scores(source, output, refs, n_refs, lambda g: any(token not in source_tokens for token in g)
                        or not _is_subsequence(g, source_words))


def lens_sari(
    source: str, output: str, references: Sequence[str], *, store: StatsStore | None = None
) -> tuple[float, float, float, float]:
    """``(sari, add, keep, delete)``, each 0-100, for one output (LENS's ``SARIsent``, precision variant).

    :param store: the run's statistics store, where the n-gram counts of shared texts are kept.
    """
    per_order = []
    source_counts = ngram_counts(source, "nltk", True, MAX_ORDER, store=store)
    output_counts = ngram_counts(output, "nltk", True, MAX_ORDER, store=store)
    ref_counts = [ngram_counts(ref, "nltk", True, MAX_ORDER, store=store) for ref in references]
    source_words = source.lower().split()
    for n in range(MAX_ORDER):
        refs: Counter = Counter()
        for counts in ref_counts:
            refs.update(counts[n])
        # LENS's "tokens of the original" are those inside its n-grams of this order
        source_tokens = {token for gram in source_counts[n] for token in gram}
        per_order.append(_sari_order(Counter(source_counts[n]), Counter(output_counts[n]), refs,
                                     len(references), source_tokens, source_words))
    keep, delete, add = (100.0 * sum(order[k] for order in per_order) / MAX_ORDER for k in range(3))
    return (keep + delete + add) / 3, add, keep, delete

