"""The texts ``simpeval evaluate`` scores: line files (one item a line) or documents.

Line files pair items by line number; documents (a directory of ``.txt`` files or a
``.jsonl`` file, see :mod:`simpeval.documents`) pair them by id, and the ids key
the output rows. The two kinds cannot be mixed in one run.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from simpeval.cli.files import check_same_length, read_lines
from simpeval.documents import is_document_input, pair_documents, read_documents
from simpeval.errors import UsageError


@dataclass
class Inputs:
    """Aligned sources, outputs and item-major references; ``ids`` and ``fields`` for documents."""

    sources: list[str]
    outputs: list[str]
    references: list[list[str]] | None
    ids: list[str] | None = None
    fields: dict[str, list[float]] = field(default_factory=dict)


def read_inputs(orig_path: str, sys_path: str, refs_paths: Sequence[str]) -> Inputs:
    """Read ``--orig``, ``--sys`` and ``--refs`` as line files or, when any is one, as documents."""
    named = [("--orig", orig_path), ("--sys", sys_path), *(("--refs", p) for p in refs_paths)]
    kinds = [is_document_input(path) for _, path in named]
    if any(kinds):
        if not all(kinds):
            option, path = named[kinds.index(False)]
            raise UsageError(
                f"{option} {path} is a line file but other inputs are documents: give every input as a "
                "directory of .txt files or a .jsonl file"
            )
        return _read_documents(named)
    sources = read_lines(orig_path, "--orig")
    outputs = read_lines(sys_path, "--sys")
    ref_columns = [read_lines(path, "--refs") for path in refs_paths]
    check_same_length([(f"--orig {orig_path}", sources), (f"--sys {sys_path}", outputs),
                       *((f"--refs {p}", lines) for p, lines in zip(refs_paths, ref_columns))])
    references = [list(refs) for refs in zip(*ref_columns)] if ref_columns else None
    return Inputs(sources, outputs, references)


def _read_documents(named: Sequence[tuple[str, str]]) -> Inputs:
    """Documents paired by id, in ``--orig``'s order; targets come from ``--sys``, else ``--orig``."""
    read = [(f"{option} {path}", read_documents(path, option)) for option, path in named]
    ids = pair_documents(read)
    (_, orig), (_, system), *refs = read
    references = [list(texts) for texts in zip(*(docs.ordered(ids) for _, docs in refs))] if refs else None
    targets = system.targets or orig.targets
    fields = {"target": [targets.get(i, math.nan) for i in ids]} if targets else {}
    return Inputs(orig.ordered(ids), system.ordered(ids), references, ids, fields)
