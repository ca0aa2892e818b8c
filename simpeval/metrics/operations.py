"""Word-level operations (EASSE's ``--analysis``) as metrics, over :mod:`simpeval.analysis`.

- ``ops``: the proportions of the original's words an output keeps (``ops-kept``), deletes,
  replaces and moves, and of its own words it adds (``ops-added``); the corpus score pools the
  counts of all items (so a long sentence weighs more than a short one).
- ``ops-f1``: how well those operations agree with the references', as EASSE's annotator
  reports it: per operation, the F1 (0-100) of the original's labels from the output against
  those from each reference, the best reference per item, averaged over items.

Both tokenise with ``tokenizer`` (13a) and compare words lower-cased.
"""

from __future__ import annotations

from collections.abc import Sequence

import simpeval
from simpeval.analysis import (
    ADDED,
    SOURCE_OPERATIONS,
    operation_counts,
    proportions_from_counts,
    reference_agreement,
)
from simpeval.metrics.base import AdditiveMetric, Metric, Option
from simpeval.text import tokenize
from simpeval.tokenizers import TOKENIZER_NAMES

_TOKENIZER = {"tokenizer": Option(str, "13a", "word tokenizer", choices=TOKENIZER_NAMES, short="tok")}


def _words(metric: Metric, text: str) -> list[str]:
    """``text``'s words under the metric's tokenizer, memoised in the run's store."""
    return tokenize(text, metric.text_tokenizer, store=metric.store)


class Operations(AdditiveMetric):
    """Proportions of words kept, deleted, replaced, moved (of the original) and added (of the output)."""

    name = "ops"
    formula_version = "1"
    languages = None  # no language rules of its own: its tokenizer's (Metric.supported_languages)
    sub_scores = tuple(f"ops-{op}" for op in (*SOURCE_OPERATIONS, ADDED))
    description = "word-level operations: proportions of words kept, deleted, replaced, moved, added"
    options = _TOKENIZER
    lower_is_better = frozenset({"ops-kept"})
    no_direction = frozenset(sub_scores)  # shares of words kept, deleted...: what was done, not how well

    def _item_statistics(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
    ) -> list[tuple[float, ...]]:
        return [operation_counts(_words(self, s), _words(self, o)) for s, o in zip(sources, outputs)]

    def _score_from_totals(self, totals: Sequence[float]) -> dict[str, float]:
        return {f"ops-{op}": value for op, value in proportions_from_counts(totals).items()}



class OperationsF1(Metric):
    """Agreement of the output's operations with the references' (EASSE's word-level analysis report)."""

    name = "ops-f1"
    formula_version = "1"
    languages = None  # no language rules of its own: its tokenizer's (Metric.supported_languages)
    sub_scores = tuple(f"ops-f1-{op}" for op in SOURCE_OPERATIONS)
    description = "F1 of the output's word operations against the references' (EASSE's annotator)"
    requires_references = True
    options = _TOKENIZER

    def _score_items(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
    ) -> dict[str, list[float]]:
        scores: dict[str, list[float]] = {key: [] for key in self.sub_scores}
        for source, output, refs in zip(sources, outputs, references):
            f1 = reference_agreement(_words(self, source), _words(self, output), [_words(self, r) for r in refs])
            for op in SOURCE_OPERATIONS:
                scores[f"ops-f1-{op}"].append(100.0 * f1[op])
        return scores


@simpeval.hookimpl
def simpeval_register_metrics() -> list[type[Metric]]:
    return [Operations, OperationsF1]
