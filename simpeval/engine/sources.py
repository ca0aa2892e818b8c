"""Where a plan's items come from, read in lock-step batches: lists in memory, line files, documents.

Every source is a context manager (line files are opened on entry and closed on exit) with
:meth:`count` (the number of items, checked across inputs, None when a file can be read
only once), :meth:`batches` and :meth:`in_memory`. :class:`LineFileSource` streams, so
memory does not grow with the files; :class:`MemorySource` holds every item, which a
paired test or a corpus formula without additive statistics needs. Documents (a
directory of ``.txt`` files or a ``.jsonl`` file, see :mod:`simpeval.documents`) are
paired by id and read whole, their ids keying the output rows.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from simpeval.documents import is_document_input, pair_documents, read_documents
from simpeval.engine.batches import Batch, make_batches
from simpeval.engine.linefiles import LineFile, close_all, counted_items, line_batches, open_line_files
from simpeval.engine.metrics import nrefs_of
from simpeval.errors import UsageError


@dataclass
class MemorySource:
    """Aligned sources, outputs and item-major references held in memory; ``ids`` and ``fields`` for documents."""

    sources: Sequence[str]
    outputs: Sequence[str]
    references: Sequence[Sequence[str]] | None = None
    ids: list[str] | None = None
    fields: dict[str, Sequence[object]] = field(default_factory=dict)

    @property
    def has_references(self) -> bool:
        return self.references is not None

    @property
    def nrefs(self) -> str | None:
        return nrefs_of(self.references)

    def count(self) -> int:
        return len(self.outputs)

    def batches(self, batch_size: int) -> Iterator[Batch]:
        return iter(make_batches(self.sources, self.outputs, self.references, batch_size, self.fields))

    def in_memory(self) -> MemorySource:
        return self

    def __enter__(self) -> MemorySource:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


class LineFileSource:
    """One system's line files (``-`` is standard input), read a batch at a time."""

    def __init__(self, orig: str, sys_path: str, refs: Sequence[str] = ()) -> None:
        self.paths = (str(orig), str(sys_path), tuple(str(p) for p in refs))
        self.ids = None
        self._files: list[LineFile] = []

    @property
    def has_references(self) -> bool:
        return bool(self.paths[2])

    @property
    def nrefs(self) -> str | None:
        return str(len(self.paths[2])) if self.paths[2] else None

    def count(self) -> int | None:
        """The number of items, after checking that every file has it (None for standard input)."""
        return counted_items(self._files)

    def batches(self, batch_size: int) -> Iterator[Batch]:
        return line_batches(self._files, batch_size)

    def in_memory(self) -> MemorySource:
        """What is left of the files, read whole (for a metric whose corpus score needs every item)."""
        (batch,) = line_batches(self._files, sys.maxsize)
        return MemorySource(list(batch.sources), list(batch.outputs), batch.references)

    def __enter__(self) -> LineFileSource:
        self._files = open_line_files(*self.paths)
        return self

    def __exit__(self, *exc: object) -> None:
        close_all(self._files)
        self._files = []


def open_source(orig: str, sys_path: str, refs: Sequence[str] = ()) -> LineFileSource | MemorySource:
    """One system's inputs: line files (streamed) or, when any input is one, documents (read whole)."""
    named = [("--orig", str(orig)), ("--sys", str(sys_path)), *(("--refs", str(p)) for p in refs)]
    kinds = [is_document_input(path) for _, path in named]
    if not any(kinds):
        return LineFileSource(orig, sys_path, refs)
    if not all(kinds):
        option, path = named[kinds.index(False)]
        raise UsageError(
            f"{option} {path} is a line file but other inputs are documents: give every input as a "
            "directory of .txt files or a .jsonl file"
        )
    return read_document_inputs(named)


def read_document_inputs(named: Sequence[tuple[str, str]]) -> MemorySource:
    """Documents paired by id, in ``--orig``'s order; targets come from ``--sys``, else ``--orig``."""
    read = [(f"{option} {path}", read_documents(path, option)) for option, path in named]
    ids = pair_documents(read)
    (_, orig), (_, system), *refs = read
    references = [list(texts) for texts in zip(*(docs.ordered(ids) for _, docs in refs))] if refs else None
    targets = system.targets or orig.targets
    fields = {"target": [targets.get(i, math.nan) for i in ids]} if targets else {}
    return MemorySource(orig.ordered(ids), system.ordered(ids), references, ids, fields)
