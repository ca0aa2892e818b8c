"""A lexical word alignment of an original and its simplification, and the operation of each word.

EASSE aligns words with Sultan et al.'s monolingual aligner over Stanford CoreNLP parses (a
Java server, not available here) and then labels the original's tokens. simpeval aligns
lexically, in three passes over lower-cased tokens:

1. **kept**: the longest common subsequence of the two token sequences (words that stay,
   in the same order);
2. **moved**: a word left over on both sides that is the same word (a word that stays but
   changes place), paired with the nearest such occurrence;
3. **replaced**: between two consecutive kept words, the unaligned original words and the
   unaligned output words of the same stretch are paired in order (EASSE's heuristic of a
   deletion and an addition at the same place, without its part-of-speech check).

Whatever is left is **deleted** (original side) or **added** (output side). Every original
token thus gets one of ``kept``, ``moved``, ``replaced``, ``deleted``; every output token is
aligned or ``added``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

KEPT, MOVED, REPLACED, DELETED, ADDED = "kept", "moved", "replaced", "deleted", "added"
SOURCE_OPERATIONS = (KEPT, DELETED, REPLACED, MOVED)


@dataclass(frozen=True)
class WordAlignment:
    """Operation labels of an original's tokens and an output's tokens.

    :param source_labels: one of ``kept``, ``moved``, ``replaced``, ``deleted`` per original token.
    :param output_labels: ``kept``, ``moved``, ``replaced`` (aligned) or ``added`` per output token.
    :param pairs: ``(source index, output index)`` of every aligned pair, sorted.
    """

    source_labels: tuple[str, ...]
    output_labels: tuple[str, ...]
    pairs: tuple[tuple[int, int], ...]


def _lcs_pairs(a: Sequence[str], b: Sequence[str]) -> list[tuple[int, int]]:
    """Index pairs of a longest common subsequence of ``a`` and ``b`` (earliest matches first)."""
    n, m = len(a), len(b)
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        row, below = table[i], table[i + 1]
        for j in range(m - 1, -1, -1):
            row[j] = below[j + 1] + 1 if a[i] == b[j] else max(below[j], row[j + 1])
    pairs, i, j = [], 0, 0
    while i < n and j < m:
        if a[i] == b[j]:
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif table[i + 1][j] >= table[i][j + 1]:
            i += 1
        else:
            j += 1
    return pairs


def align_words(source: Sequence[str], output: Sequence[str]) -> WordAlignment:
    """Align the tokens of an original and an output and label each token's operation.

    Tokens are compared lower-cased; see the module docstring for the three passes.
    """
    a = [t.lower() for t in source]
    b = [t.lower() for t in output]
    src_labels = [DELETED] * len(a)
    out_labels = [ADDED] * len(b)
    pairs: list[tuple[int, int]] = []
    kept = _lcs_pairs(a, b)
    for i, j in kept:
        src_labels[i] = out_labels[j] = KEPT
    pairs.extend(kept)
    for i, word in enumerate(a):  # pass 2: the same word elsewhere in the output
        if src_labels[i] != DELETED:
            continue
        free = [j for j, other in enumerate(b) if other == word and out_labels[j] == ADDED]
        if free:
            j = min(free, key=lambda k: abs(k - i))
            src_labels[i] = out_labels[j] = MOVED
            pairs.append((i, j))
    anchors = [(-1, -1), *kept, (len(a), len(b))]
    for (i0, j0), (i1, j1) in zip(anchors, anchors[1:]):  # pass 3: replacements between anchors
        gone = [i for i in range(i0 + 1, i1) if src_labels[i] == DELETED]
        new = [j for j in range(j0 + 1, j1) if out_labels[j] == ADDED]
        for i, j in zip(gone, new):
            src_labels[i] = out_labels[j] = REPLACED
            pairs.append((i, j))
    return WordAlignment(tuple(src_labels), tuple(out_labels), tuple(sorted(pairs)))


def label_f1(reference_labels: Sequence[str], system_labels: Sequence[str], label: str) -> float:
    """F1 of one operation label over the same tokens (EASSE compares the original's labels
    this way, as scikit-learn's ``f1_score``: 0 when neither side has the label)."""
    both = sum(1 for r, s in zip(reference_labels, system_labels) if r == s == label)
    total = sum(1 for r in reference_labels if r == label) + sum(1 for s in system_labels if s == label)
    return 2 * both / total if total else 0.0
