"""Token and span edit operations between an original and a simplified sentence.

Token edits (TEs) follow EditNTS (Dong et al. 2019): a dynamic programme over
insertions and deletions only (no substitutions), matching tokens
case-insensitively. Tracing back from the end prefers a deletion, so within a
rewritten stretch the additions come before the deletions, as in the paper's
Figure 1 (``ADD(most) DEL DEL``).

Span edits (SEs, paper section 5) group consecutive non-KEEP token edits: a block of
ADDs followed by a block of DELs is an ADD-DEL span (a rewrite), a lone block of
DELs a DEL span, a lone block of ADDs an ADD span.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

KEEP = "KEEP"
DEL = "DEL"
ADD = "ADD"

ADD_DEL_SPAN = "ADD-DEL"
DEL_SPAN = "DEL"
ADD_SPAN = "ADD"


@dataclass(frozen=True)
class TokenEdit:
    """One token edit: ``op`` is KEEP or DEL of an original token, or ADD of ``token``."""

    op: str
    token: str

    def __str__(self) -> str:
        return f"ADD({self.token})" if self.op == ADD else self.op


@dataclass(frozen=True)
class Span:
    """A span edit: the token edits ``edits[start:end]``, of kind ADD-DEL, DEL or ADD."""

    kind: str
    start: int
    end: int


def _distance_table(source: Sequence[str], target: Sequence[str]) -> list[list[int]]:
    """``table[i][j]``: fewest insertions and deletions turning ``source[:i]`` into ``target[:j]``."""
    rows, cols = len(source), len(target)
    table = [[0] * (cols + 1) for _ in range(rows + 1)]
    for i in range(rows + 1):
        for j in range(cols + 1):
            if i == 0 or j == 0:
                table[i][j] = i + j
            elif source[i - 1] == target[j - 1]:
                table[i][j] = table[i - 1][j - 1]
            else:
                table[i][j] = 1 + min(table[i - 1][j], table[i][j - 1])
    return table


def token_edits(source: Sequence[str], target: Sequence[str]) -> list[TokenEdit]:
    """The EditNTS token edits turning ``source`` tokens into ``target`` tokens.

    KEEP and DEL carry the source token, ADD the target token; tokens match
    case-insensitively (a KEEP keeps the source's casing).
    """
    lowered_source = [token.lower() for token in source]
    lowered_target = [token.lower() for token in target]
    table = _distance_table(lowered_source, lowered_target)
    edits: list[TokenEdit] = []
    i, j = len(source), len(target)
    while i > 0 or j > 0:
        if i > 0 and j > 0 and lowered_source[i - 1] == lowered_target[j - 1]:
            edits.append(TokenEdit(KEEP, source[i - 1]))
            i, j = i - 1, j - 1
        elif i > 0 and table[i][j] == table[i - 1][j] + 1:
            edits.append(TokenEdit(DEL, source[i - 1]))
            i -= 1
        else:
            edits.append(TokenEdit(ADD, target[j - 1]))
            j -= 1
    edits.reverse()
    return edits


def edit_spans(edits: Sequence[TokenEdit]) -> list[Span]:
    """Group the non-KEEP token edits into ADD-DEL, DEL and ADD spans, left to right."""
    spans: list[Span] = []
    position = 0
    while position < len(edits):
        if edits[position].op == KEEP:
            position += 1
            continue
        start = position
        while position < len(edits) and edits[position].op == ADD:
            position += 1
        added = position > start
        deletions_start = position
        while position < len(edits) and edits[position].op == DEL:
            position += 1
        deleted = position > deletions_start
        kind = ADD_DEL_SPAN if added and deleted else (ADD_SPAN if added else DEL_SPAN)
        spans.append(Span(kind, start, position))
    return spans


def apply_spans(edits: Sequence[TokenEdit], spans: Sequence[Span], chosen: Collection[int]) -> list[str]:
    """The tokens after applying the spans whose indices are in ``chosen`` to the source.

    Edits in an applied span take effect (ADD inserts, DEL removes); the others are
    undone (an ADD is skipped, a DEL keeps its source token).
    """
    applied = [False] * len(edits)
    for index in chosen:
        for position in range(spans[index].start, spans[index].end):
            applied[position] = True
    tokens: list[str] = []
    for edit, is_applied in zip(edits, applied):
        if edit.op == KEEP or (edit.op == DEL and not is_applied) or (edit.op == ADD and is_applied):
            tokens.append(edit.token)
    return tokens
