"""Line files (``--orig``, ``--sys``, ``--refs``) read in lock-step, a batch of lines at a time.

The engine streams line files (``simpeval evaluate``, :func:`simpeval.evaluate_files`) so
that memory does not grow with their length: item i is line i of every file, and only the
current batches are in memory. Files of different lengths are refused before any scoring
when they can be counted (regular files, a quick pass over their bytes); standard input
cannot be read twice, so a length mismatch there is found when one input ends before the
others, still before any output is published. Lines are decoded as
:func:`simpeval.fileio.read_lines` decodes a whole file.
"""

from __future__ import annotations

import codecs
import os
import stat
import sys
from collections.abc import Iterator, Sequence
from itertools import islice
from typing import BinaryIO

from simpeval.fileio import check_same_counts, decode_lines, not_utf8, note_read
from simpeval.errors import UsageError
from simpeval.engine.batches import Batch

COUNT_CHUNK = 1 << 16


class LineFile:
    """One input file read whole lines at a time; ``-`` is standard input."""

    def __init__(self, path: str, option: str) -> None:
        self.path, self.option = path, option
        self.name = f"{option} {path}"
        self.lines = 0  # lines read so far
        self._offset = 0  # bytes read so far
        try:
            self._handle: BinaryIO = sys.stdin.buffer if path == "-" else open(path, "rb")
        except OSError as exc:
            raise self._unreadable(exc) from None
        note_read(path)  # an output of this command must never replace it

    def count(self) -> int | None:
        """The number of lines of a regular file (without reading it into memory); None for
        standard input, a pipe or a device, which can be read only once.

        The bytes are checked to be UTF-8 while they are counted, so that a file in another
        encoding (UTF-16, whose characters hold newline bytes) is reported as such, not as a
        file with another number of lines."""
        if self.path == "-" or not stat.S_ISREG(os.fstat(self._handle.fileno()).st_mode):
            return None
        count, last, offset, start = 0, b"\n", 0, b""
        decoder = codecs.getincrementaldecoder("utf-8")()
        try:
            with open(self.path, "rb") as handle:
                while chunk := handle.read(COUNT_CHUNK):
                    start = start or chunk[:2]
                    try:
                        decoder.decode(chunk)
                    except UnicodeDecodeError as exc:  # exc.object: the bytes held from the last chunk, then this one
                        position = offset - (len(exc.object) - len(chunk)) + exc.start
                        raise not_utf8(self.option, self.path, exc.object[exc.start], position, start) from None
                    count += chunk.count(b"\n")
                    last = chunk[-1:]
                    offset += len(chunk)
                decoder.decode(b"", final=True)
        except OSError as exc:
            raise self._unreadable(exc) from None
        except UnicodeDecodeError as exc:  # the file ends inside a character
            raise not_utf8(self.option, self.path, exc.object[exc.start], offset - len(exc.object) + exc.start,
                           start) from None
        return count + (last != b"\n")  # a last line without its newline is an item too

    def take(self, n: int) -> list[str]:
        """The next ``n`` lines (fewer at the end of the file)."""
        try:
            raw = b"".join(islice(self._handle, n))
        except OSError as exc:
            raise self._unreadable(exc) from None
        lines = decode_lines(raw, self.path, self.option, self._offset)
        self._offset += len(raw)
        self.lines += len(lines)
        return lines

    def count_rest(self) -> int:
        """The number of lines, reading what is left of the file (after a length mismatch)."""
        try:
            return self.lines + sum(1 for _ in self._handle)
        except OSError as exc:
            raise self._unreadable(exc) from None

    def close(self) -> None:
        if self._handle is not sys.stdin.buffer:
            self._handle.close()

    def _unreadable(self, exc: OSError) -> UsageError:
        return UsageError(f"cannot read {self.name}: {exc.strerror}; check the path")


def open_line_files(orig_path: str, sys_path: str, refs_paths: Sequence[str]) -> list[LineFile]:
    """``--orig``, ``--sys`` and every ``--refs``, opened (an unreadable one is a :class:`UsageError`)."""
    named = [(orig_path, "--orig"), (sys_path, "--sys"), *((p, "--refs") for p in refs_paths)]
    readers = [option for path, option in named if path == "-"]
    if len(readers) > 1:
        raise UsageError(f"standard input (-) is named by {' and '.join(readers)}, but it can be read only once: "
                         "give files for all but one of them")
    files: list[LineFile] = []
    try:
        for path, option in named:
            files.append(LineFile(path, option))
    except UsageError:
        close_all(files)
        raise
    return files


def close_all(files: Sequence[LineFile]) -> None:
    for file in files:
        file.close()


def counted_items(files: Sequence[LineFile]) -> int | None:
    """The number of items when every file can be counted, after checking that all have that
    many lines (:class:`UsageError` naming the first that differs); None when one cannot be counted."""
    counts = [file.count() for file in files]
    if None in counts:
        return None
    check_same_counts([(file.name, count) for file, count in zip(files, counts)])
    return counts[0]


def line_batches(files: Sequence[LineFile], batch_size: int) -> Iterator[Batch]:
    """Batches of items from ``[orig, sys, *refs]`` in lock-step (references item-major).

    Raises :class:`UsageError` when one file ends before the others (naming the line counts)
    or when there is no item at all.
    """
    orig, system, *refs = files
    index = start = 0
    while True:
        columns = [file.take(batch_size) for file in files]
        if any(len(column) != len(columns[0]) for column in columns):
            check_same_counts([(file.name, file.count_rest()) for file in files])
        if not columns[0]:
            break
        references = [list(item) for item in zip(*columns[2:])] if refs else None
        yield Batch(index, start, columns[0], columns[1], references)
        index, start = index + 1, start + len(columns[0])
    check_same_counts([(file.name, file.lines) for file in files])
