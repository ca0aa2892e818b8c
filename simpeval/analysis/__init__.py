"""Word-level analysis of simplification operations: which words of the original an output
keeps, deletes, replaces or moves, and which it adds (EASSE's ``--analysis``).

:func:`operation_counts` and :func:`reference_agreement` work on one item's tokens;
:func:`analyse_operations` on a corpus. The ``ops`` and ``ops-f1`` metrics
(:mod:`simpeval.metrics.operations`) wrap them, and plugins may call them directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from simpeval.analysis.alignment import (
    ADDED,
    DELETED,
    KEPT,
    MOVED,
    REPLACED,
    SOURCE_OPERATIONS,
    WordAlignment,
    align_words,
    label_f1,
)

__all__ = ["ADDED", "COUNT_FIELDS", "DELETED", "KEPT", "MOVED", "REPLACED", "SOURCE_OPERATIONS", "OperationAnalysis",
           "WordAlignment", "align_words", "analyse_operations", "label_f1", "operation_counts",
           "reference_agreement"]

# kept, deleted, replaced, moved (of the original's tokens), original tokens, added, output tokens
COUNT_FIELDS = (KEPT, DELETED, REPLACED, MOVED, "source_tokens", ADDED, "output_tokens")


def operation_counts(source: Sequence[str], output: Sequence[str]) -> tuple[int, ...]:
    """Counts in the order of :data:`COUNT_FIELDS` for one original and output (token lists)."""
    alignment = align_words(source, output)
    labels = alignment.source_labels
    return (*(labels.count(op) for op in SOURCE_OPERATIONS), len(source),
            alignment.output_labels.count(ADDED), len(output))


def reference_agreement(
    source: Sequence[str], output: Sequence[str], references: Sequence[Sequence[str]]
) -> dict[str, float]:
    """F1 of each operation on the original's tokens, system against reference, best reference
    per operation (EASSE's annotator report: labels of the original from the alignment with
    the output compared with those from the alignment with each reference)."""
    system = align_words(source, output).source_labels
    per_reference = [align_words(source, reference).source_labels for reference in references]
    return {op: max((label_f1(ref, system, op) for ref in per_reference), default=0.0) for op in SOURCE_OPERATIONS}


@dataclass(frozen=True)
class OperationAnalysis:
    """Corpus proportions of each operation and, with references, the mean F1 against them.

    ``proportions``: kept, deleted, replaced and moved over the original's tokens, added over
    the output's; ``reference_f1``: operation -> mean over items of the best-reference F1 (0-1).
    """

    proportions: dict[str, float]
    reference_f1: dict[str, float] | None


def proportions_from_counts(totals: Sequence[float]) -> dict[str, float]:
    """Proportions of each operation from summed :data:`COUNT_FIELDS` counts (0 without tokens)."""
    kept, deleted, replaced, moved, n_source, added, n_output = totals
    share = (lambda x, n: x / n if n else 0.0)
    return {KEPT: share(kept, n_source), DELETED: share(deleted, n_source), REPLACED: share(replaced, n_source),
            MOVED: share(moved, n_source), ADDED: share(added, n_output)}


def analyse_operations(
    sources: Sequence[Sequence[str]],
    outputs: Sequence[Sequence[str]],
    references: Sequence[Sequence[Sequence[str]]] | None = None,
) -> OperationAnalysis:
    """Operation proportions of a corpus of tokenised items (and agreement with the references)."""
    totals = [0] * len(COUNT_FIELDS)
    for source, output in zip(sources, outputs):
        totals = [t + c for t, c in zip(totals, operation_counts(source, output))]
    reference_f1 = None
    if references is not None:
        per_item = [reference_agreement(s, o, r) for s, o, r in zip(sources, outputs, references)]
        reference_f1 = {op: sum(item[op] for item in per_item) / len(per_item) if per_item else 0.0
                        for op in SOURCE_OPERATIONS}
    return OperationAnalysis(proportions_from_counts(totals), reference_f1)
