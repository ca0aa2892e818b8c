"""D-SARI (Sun, Jin and Wan 2021): SARI for documents, with length and sentence-count penalties.

Why: sentence SARI rewards an output that keeps or adds the right n-grams whatever its length, so
a document simplification that drops half the text or merges every sentence is not penalised.
D-SARI multiplies SARI's three operation scores by penalties for an output shorter or longer than
the references and with another number of sentences. As the authors' ``D_SARI.py`` computes it
(Maddela & Alva-Manchego 2025 use the same script):

- n-grams of orders 1-4 of lower-cased ``nltk.word_tokenize`` tokens, each order scored as Wei
  Xu's sentence SARI (:mod:`simpeval.metrics.xu_sari`: keep F1, deletion precision, addition F1)
  and averaged over orders;
- lengths in tokens of the *cased* texts: ``I`` the input's, ``O`` the output's, ``R`` the mean
  over references, truncated to an integer; sentence counts (English Punkt) ``S_O`` and ``S_R``
  (the mean over references, truncated);
- ``LP1 = exp((O - R) / O)`` if ``O < R``, else 1 (additions from a too short output count less);
  ``LP2 = exp((R - O) / max(I - R, 1))`` if ``O > R``, else 1;
  ``SLP = exp(-|S_R - S_O| / max(S_R, S_O))``;
- keep x ``LP2 x SLP``, deletion x ``LP2``, addition x ``LP1``; D-SARI is their mean, x 100.

Where the script divides by zero, the limits are taken: an empty output against non-empty
references has ``LP1 = 0``; no sentences in output and references has ``SLP = 1``.
The corpus score is the mean of the documents' scores, as the paper reports it.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

import simpeval
from simpeval.metrics.base import Metric
from simpeval.metrics.xu_sari import order_scores
from simpeval.text import ngram_counts, split_sentences, tokenize

if TYPE_CHECKING:
    from simpeval.store import StatsStore

MAX_ORDER = 4
TOKENIZER = "nltk"

__all__ = ["DSari", "d_sari"]


def _penalties(source: str, output: str, references: Sequence[str],
               store: StatsStore | None) -> tuple[float, float, float]:
    """``(LP1, LP2, SLP)`` of one document."""
    source_length = len(tokenize(source, TOKENIZER, store=store))
    output_length = len(tokenize(output, TOKENIZER, store=store))
    reference_length = int(sum(len(tokenize(r, TOKENIZER, store=store)) for r in references) / len(references))
    reference_sentences = int(sum(len(split_sentences(r, store=store)) for r in references) / len(references))
    output_sentences = len(split_sentences(output, store=store))
    if output_length >= reference_length:
        lp1 = 1.0
    else:
        lp1 = math.exp((output_length - reference_length) / output_length) if output_length else 0.0
    lp2 = 1.0
    if output_length > reference_length:
        lp2 = math.exp((reference_length - output_length) / max(source_length - reference_length, 1))
    most_sentences = max(reference_sentences, output_sentences)
    slp = math.exp(-abs(reference_sentences - output_sentences) / most_sentences) if most_sentences else 1.0
    return lp1, lp2, slp


def d_sari(
    source: str, output: str, references: Sequence[str], *, store: StatsStore | None = None
) -> tuple[float, float, float, float]:
    """``(d-sari, keep, deletion, addition)`` of one document, each 0-100 and already penalised."""
    counts = [ngram_counts(text, TOKENIZER, True, MAX_ORDER, store=store) for text in (source, output)]
    ref_counts = [ngram_counts(r, TOKENIZER, True, MAX_ORDER, store=store) for r in references]
    per_order = []
    for n in range(MAX_ORDER):
        summed = sum((Counter(c[n]) for c in ref_counts), start=Counter({}))
        per_order.append(order_scores(Counter(counts[0][n]), Counter(counts[1][n]), summed,
                                      len(references)))
    keep, delete, add = (sum(order[k] for order in per_order) / MAX_ORDER for k in range(3))
    lp1, lp2, slp = _penalties(source, output, references, store)
    keep, delete, add = 100.0 * keep * lp2 * slp, 100.0 * delete * lp2, 100.0 * add * lp1
    return (keep + delete + add) / 3, keep, delete, add


class DSari(Metric):
    """D-SARI with its penalised keep, deletion and addition sub-scores (Sun et al. 2021's script)."""

    name = "d-sari"
    formula_version = "1"
    sub_scores = ("d-sari", "d-sari-keep", "d-sari-del", "d-sari-add")
    description = "D-SARI (Sun et al. 2021): document SARI with length and sentence-count penalties"
    requires_references = True
    level = "document"
    documents_only = "its length and sentence-count penalties compare whole documents with their references"

    def _score_items(self, sources, outputs, references=None):  # noqa: ANN001, ANN201
        values = [d_sari(s, o, refs, store=self.store) for s, o, refs in zip(sources, outputs, references)]
        return {key: [v[k] for v in values] for k, key in enumerate(self.sub_scores)}


@simpeval.hookimpl
def simpeval_register_metrics() -> list[type[Metric]]:
    return [DSari]
