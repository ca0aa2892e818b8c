"""SARI (Xu et al. 2016) as EASSE computes it: add, keep and delete n-gram scores.

For each order n = 1..4, against the original ``I``, the output ``O`` and the
references ``R`` (r of them, their n-gram counts summed):

- add: n-grams of O not in I (as sets); correct if some reference has them;
  recall over the n-grams the references add.
- keep: counts ``min(r*I, r*O)`` kept by the output, ``min(r*I, R)`` kept by the
  references, correct ``min`` of both; precision and recall.
- delete: counts ``r*I - r*O`` and ``r*I - R`` (positive parts), correct ``min``;
  precision (``deletion=precision``, SARI's original sentence-level choice) or F1
  (``deletion=f1``, today's EASSE).

``paper_version=no`` (EASSE's default, Xu et al.'s Java code) averages the per-order
F1s; ``yes`` averages precisions and recalls over orders first, then takes F1
(the equations of the paper). SARI is the mean of the three operation scores.
The corpus score sums the counts of all items before scoring.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any

import simpeval
from simpeval.metrics.base import Metric, Option
from simpeval.store import StatsStore, stored
from simpeval.text import ngram_counts, tokenize
from simpeval.tokenizers import TOKENIZER_NAMES

MAX_ORDER = 4
DELETION_SCORES = ("f1", "precision")


@dataclass(frozen=True)
class SariStats:
    """Per-order counts ``(correct, output total, reference total)`` of each operation."""

    add: tuple[tuple[int, int, int], ...]
    keep: tuple[tuple[int, int, int], ...]
    delete: tuple[tuple[int, int, int], ...]

    def __add__(self, other: SariStats) -> SariStats:
        def plus(a: tuple, b: tuple) -> tuple:
            return tuple(tuple(x + y for x, y in zip(u, v)) for u, v in zip(a, b))

        return SariStats(
            plus(self.add, other.add), plus(self.keep, other.keep), plus(self.delete, other.delete)
        )


@stored
def _summed_reference_counts(
    references: tuple[str, ...], tokenizer: str, lowercase: bool, *, store: StatsStore | None = None
) -> tuple[dict[tuple[str, ...], int], ...]:
    """N-gram counts of all references of one item added together, per order: the n-grams of
    every reference counted at once (C speed) rather than their counts added in Python."""
    tokens = [tokenize(reference, tokenizer, lowercase, store=store) for reference in references]
    return tuple(
        Counter(chain.from_iterable(zip(*(t[i:] for i in range(n))) for t in tokens))
        for n in range(1, MAX_ORDER + 1)
    )


@stored
def sari_stats(
    source: str,
    output: str,
    references: tuple[str, ...],
    tokenizer: str,
    lowercase: bool,
    source_tokenizer: str | None = None,
    *,
    store: StatsStore | None = None,
) -> SariStats:
    """SARI's counts for one item (memoised: bleu-sari-* reuse them).

    :param source_tokenizer: tokenizer of the source when it differs from the others'
        (``sari-legacy`` splits the source on whitespace only).
    """
    r = len(references)
    add, keep, delete = [], [], []
    for src, out, refs in zip(
        ngram_counts(source, source_tokenizer or tokenizer, lowercase, store=store),
        ngram_counts(output, tokenizer, lowercase, store=store),
        _summed_reference_counts(references, tokenizer, lowercase, store=store),
    ):
        added = out.keys() - src.keys()
        add.append((len(added & refs.keys()), len(added), len(refs.keys() - src.keys())))
        # Per source n-gram: kept = min(r*I, r*O) (output) and min(r*I, R) (references), deleted =
        # r*I - kept; so the deletion counts follow from the keep sums and the source total.
        out_get, refs_get = out.get, refs.get
        keep_correct = keep_out = keep_ref = keep_either = 0
        for ngram, count in src.items():
            in_src = count * r
            kept_out = out_get(ngram, 0) * r
            if kept_out > in_src:
                kept_out = in_src
            kept_ref = refs_get(ngram, 0)
            if kept_ref > in_src:
                kept_ref = in_src
            keep_out += kept_out
            keep_ref += kept_ref
            if kept_out < kept_ref:
                keep_correct += kept_out
                keep_either += kept_ref
            else:
                keep_correct += kept_ref
                keep_either += kept_out
        total = r * sum(src.values())
        keep.append((keep_correct, keep_out, keep_ref))
        # min(r*I - kept_out, r*I - kept_ref) = r*I - max(kept_out, kept_ref)
        delete.append((total - keep_either, total - keep_out, total - keep_ref))
    return SariStats(tuple(add), tuple(keep), tuple(delete))


def _precision_recall(correct: int, out_total: int, ref_total: int) -> tuple[float, float]:
    return (
        correct / out_total if out_total > 0 else 0.0,
        correct / ref_total if ref_total > 0 else 0.0,
    )


def _f1(precision: float, recall: float) -> float:
    if precision > 0 and recall > 0:
        return 2 * precision * recall / (precision + recall)
    return 0.0


def _operation_score(
    counts: Sequence[tuple[int, int, int]], use_f1: bool, paper_version: bool
) -> float:
    """One operation's score in [0, 1] from its per-order counts."""
    pairs = [_precision_recall(*c) for c in counts]
    if paper_version:
        precision = sum(p for p, _ in pairs) / MAX_ORDER
        recall = sum(r for _, r in pairs) / MAX_ORDER
        return _f1(precision, recall) if use_f1 else precision
    return sum((_f1(p, r) if use_f1 else p) for p, r in pairs) / MAX_ORDER


def sari_from_stats(
    stats: SariStats, deletion: str = "f1", paper_version: bool = False
) -> tuple[float, float, float]:
    """``(add, keep, delete)`` scores, each 0-100; SARI is their mean."""
    return (
        100.0 * _operation_score(stats.add, True, paper_version),
        100.0 * _operation_score(stats.keep, True, paper_version),
        100.0 * _operation_score(stats.delete, deletion == "f1", paper_version),
    )


class Sari(Metric):
    """SARI with its add, keep and delete sub-scores (EASSE's implementation)."""

    name = "sari"
    sub_scores = ("sari", "sari-add", "sari-keep", "sari-del")
    description = "SARI: n-grams added, kept and deleted vs. references and source"
    requires_references = True
    corpus_level = True
    options = {
        "tokenizer": Option(str, "13a", "word tokenizer", choices=TOKENIZER_NAMES, short="tok"),
        "lowercase": Option(bool, True, "lowercase before tokenizing", short="lc"),
        "deletion": Option(
            str, "f1", "deletion score: f1 or precision", choices=DELETION_SCORES, short="del"
        ),
        "paper_version": Option(bool, False, "average P and R over orders before F1", short="paper"),
        "formula": Option(str, None, "lens-2023: Wei Xu's script as LENS ships it, ignoring the options "
                          "above (see simpeval.metrics.lens2023); unset: EASSE's", choices=("lens-2023",)),
    }
    presets: dict[str, dict[str, Any]] = {
        "metaeval-2021": {
            "tokenizer": "moses",
            "lowercase": False,
            "deletion": "precision",
            "paper_version": False,
        },
        "lens-2023": {"tokenizer": "nltk", "lowercase": True, "deletion": "precision", "formula": "lens-2023"},
    }

    source_tokenizer: str | None = None  # None: the sources are tokenised as the outputs are

    def item_stats(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
    ) -> list[SariStats]:
        """Per-item counts, memoised in the run's store (composite metrics reuse them)."""
        self.check_inputs(sources, outputs, references)
        return [
            sari_stats(source, output, tuple(refs), self.tokenizer, self.lowercase, self.source_tokenizer,
                       store=self.store)
            for source, output, refs in zip(sources, outputs, references)
        ]

    def _scores(self, stats: SariStats) -> dict[str, float]:
        add, keep, delete = sari_from_stats(stats, self.deletion, self.paper_version)
        return {
            "sari": (add + keep + delete) / 3,
            "sari-add": add,
            "sari-keep": keep,
            "sari-del": delete,
        }

    def score_sentences(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
    ) -> dict[str, list[float]]:
        if self.formula == "lens-2023":
            from simpeval.metrics.lens2023 import lens_sari

            values = [lens_sari(s, o, refs) for s, o, refs in zip(sources, outputs, references)]
            return {key: [v[k] for v in values] for k, key in enumerate(self.sub_scores)}
        per_item = [self._scores(s) for s in self.item_stats(sources, outputs, references)]
        return {key: [scores[key] for scores in per_item] for key in self.sub_scores}

    def score_corpus(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
    ) -> dict[str, float]:
        if self.formula == "lens-2023":  # LENS reports sentence scores only: their mean
            return super().score_corpus(sources, outputs, references)
        stats = self.item_stats(sources, outputs, references)
        if not stats:
            return {key: float("nan") for key in self.sub_scores}
        return self._scores(sum(stats[1:], start=stats[0]))

    def additive_statistics(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
    ) -> list[tuple[float, ...]]:
        return [
            tuple(value for operation in (s.add, s.keep, s.delete) for counts in operation for value in counts)
            for s in self.item_stats(sources, outputs, references)
        ]

    def score_from_statistics(self, totals: Sequence[float]) -> dict[str, float]:
        per_order = [tuple(totals[i:i + 3]) for i in range(0, len(totals), 3)]
        stats = SariStats(
            tuple(per_order[:MAX_ORDER]), tuple(per_order[MAX_ORDER:2 * MAX_ORDER]), tuple(per_order[2 * MAX_ORDER:])
        )
        return self._scores(stats)


class SariLegacy(Sari):
    """SARI as EASSE's ``sari_legacy`` computes it, to reproduce scores of earlier papers.

    EASSE's ``legacy=True`` replicates the original Java implementation (Xu et al. 2016):
    outputs and references are tokenised (13a) but never lower-cased, and the originals are
    taken as they are (split on whitespace): the inputs are expected to be tokenised and
    lower-cased already, as TurkCorpus' legacy files are (``--test-set turkcorpus_test_legacy``).
    """

    name = "sari-legacy"
    sub_scores = ("sari-legacy", "sari-legacy-add", "sari-legacy-keep", "sari-legacy-del")
    description = "SARI in EASSE's legacy mode: originals untokenised, nothing lower-cased"
    options = {key: option for key, option in Sari.options.items() if key != "lowercase"}
    presets: dict[str, dict[str, Any]] = {}
    lowercase = False
    source_tokenizer = "none"

    def _scores(self, stats: SariStats) -> dict[str, float]:
        return {key.replace("sari", self.name, 1): value for key, value in super()._scores(stats).items()}


@simpeval.hookimpl
def simpeval_register_metrics() -> list[type[Metric]]:
    return [Sari, SariLegacy]
