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

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

import simpeval
from simpeval.metrics.base import AdditiveMetric, Metric, Option
from simpeval.ngram_table import sari_counts
from simpeval.store import StatsStore, stored_many
from simpeval.token_rows import shared_rows
from simpeval.tokenizers import TOKENIZER_NAMES

MAX_ORDER = 4
DELETION_SCORES = ("f1", "precision")


@dataclass(frozen=True)
class SariStats:
    """Per-order counts ``(correct, output total, reference total)`` of each operation."""

    add: tuple[tuple[int, int, int], ...]
    keep: tuple[tuple[int, int, int], ...]
    delete: tuple[tuple[int, int, int], ...]


@stored_many
def sari_stats(
    items: list[tuple[str, str, tuple[str, ...], str, bool, str | None]], *, store: StatsStore | None = None
) -> list[SariStats]:
    """SARI's counts of each ``(source, output, references, tokenizer, lowercase, source_tokenizer)``
    item, counted for all the items at once on arrays (:mod:`simpeval.ngram_table`), each item
    memoised in the run's store (bleu-sari-* reuse them).

    ``source_tokenizer`` is the tokenizer of the source when it differs from the others'
    (``sari-legacy`` splits the source on whitespace only), else ``None``.
    """
    if len({item[3:] for item in items}) != 1:  # no item, or items tokenized differently (one at a time)
        return [sari_stats.__wrapped__([item], store=store)[0] for item in items]  # type: ignore[attr-defined]
    tok, lc, src_tok = items[0][3:]
    texts = [out for _, out, _, _, _, _ in items]
    references = [ref for _, _, refs, _, _, _ in items for ref in refs]
    rows = shared_rows(texts, references, store)  # BLEU on the same batch shares it
    outputs = rows.rows(texts, tok, lc, store=store)
    ref_rows = rows.rows(references, tok, lc, store=store)
    sources = rows.rows([src for src, _, _, _, _, _ in items], src_tok or tok, lc, store=store)
    ref_items = np.repeat(np.arange(len(items)), [len(item[2]) for item in items])
    counts = sari_counts(rows.table(MAX_ORDER, lowered=lc), sources, outputs, ref_items, ref_rows, MAX_ORDER)
    return [SariStats(*(tuple(map(tuple, operation)) for operation in item)) for item in counts.tolist()]


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


def _order_mean(values: np.ndarray) -> np.ndarray:
    """The mean over the last axis (the orders) as ``sum(...) / MAX_ORDER`` computes it: left to right."""
    total = values[..., 0]
    for n in range(1, MAX_ORDER):
        total = total + values[..., n]
    return total / MAX_ORDER


def sari_from_stats(
    stats: SariStats, deletion: str = "f1", paper_version: bool = False
) -> tuple[float, float, float]:
    """``(add, keep, delete)`` scores, each 0-100; SARI is their mean."""
    return (
        100.0 * _operation_score(stats.add, True, paper_version),
        100.0 * _operation_score(stats.keep, True, paper_version),
        100.0 * _operation_score(stats.delete, deletion == "f1", paper_version),
    )


class Sari(AdditiveMetric):
    """SARI with its add, keep and delete sub-scores (EASSE's implementation)."""

    name = "sari"
    formula_version = "1"
    languages = None  # no language rules of its own: its tokenizer's (Metric.supported_languages)
    sub_scores = ("sari", "sari-add", "sari-keep", "sari-del")
    description = "SARI: n-grams added, kept and deleted vs. references and source"
    requires_references = True
    options = {
        "tokenizer": Option(str, "13a", "word tokenizer", choices=TOKENIZER_NAMES, short="tok"),
        "lowercase": Option(bool, True, "lowercase before tokenizing", short="lc"),
        "deletion": Option(
            str, "f1", "deletion score: f1 or precision", choices=DELETION_SCORES, short="del"
        ),
        "paper_version": Option(bool, False, "average P and R over orders before F1", short="paper"),
    }
    source_tokenizer: str | None = None  # None: the sources are tokenised as the outputs are

    def item_stats(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
    ) -> list[SariStats]:
        """Per-item counts, memoised in the run's store (composite metrics reuse them)."""
        settings = (self.text_tokenizer, self.lowercase, self.source_tokenizer)
        return sari_stats([(source, output, tuple(refs), *settings)
                           for source, output, refs in zip(sources, outputs, references)], store=self.store)

    def _scores(self, stats: SariStats) -> dict[str, float]:
        add, keep, delete = sari_from_stats(stats, self.deletion, self.paper_version)
        return {
            "sari": (add + keep + delete) / 3,
            "sari-add": add,
            "sari-keep": keep,
            "sari-del": delete,
        }

    def _item_statistics(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
    ) -> list[tuple[float, ...]]:
        return [
            tuple(value for operation in (s.add, s.keep, s.delete) for counts in operation for value in counts)
            for s in self.item_stats(sources, outputs, references)
        ]

    def _score_items(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
        **fields: Sequence[Any],
    ) -> dict[str, list[float]]:
        """Every item's scores at once, on arrays: :func:`sari_from_stats`'s operations in its order on
        the same float64 values (sums over orders written out left to right), so the same numbers."""
        stats = self.item_stats(sources, outputs, references)
        counts = np.array([(s.add, s.keep, s.delete) for s in stats], dtype=np.int64).reshape(len(stats), 3, MAX_ORDER, 3)
        correct, out_total, ref_total = (counts[..., k].astype(np.float64) for k in range(3))
        with np.errstate(divide="ignore", invalid="ignore"):
            precision = np.where(out_total > 0, correct / out_total, 0.0)
            recall = np.where(ref_total > 0, correct / ref_total, 0.0)
            if self.paper_version:
                precision, recall = (_order_mean(values) for values in (precision, recall))
            f1 = np.where((precision > 0) & (recall > 0), 2 * precision * recall / (precision + recall), 0.0)
        scores = f1 if self.deletion == "f1" else np.concatenate([f1[:, :2], precision[:, 2:]], axis=1)
        add, keep, delete = (100.0 * (scores[:, k] if self.paper_version else _order_mean(scores[:, k])) for k in range(3))
        return dict(zip(self.score_names(), (((add + keep + delete) / 3).tolist(), add.tolist(), keep.tolist(),
                                             delete.tolist())))

    def _score_from_totals(self, totals: Sequence[float]) -> dict[str, float]:
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
    formula_version = "1"
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


# what plugins may import (tests/test_public_helpers.py): the metric classes, to build one with settings
__all__ = ["Sari", "SariLegacy"]
