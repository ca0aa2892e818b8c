"""The files of a command: inputs read as strict UTF-8, one item per line, with clear errors;
results printed or written atomically."""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Sequence
from pathlib import Path

import click

from simpeval.cache import write_atomic
from simpeval.errors import UsageError


def read_lines(path: str, option: str) -> list[str]:
    """The lines of ``path`` (``-`` for standard input), without their line endings.

    An empty line is an item (an empty output); the newline that ends the file
    does not start another one. A UTF-8 byte-order mark is dropped.
    """
    try:
        data = sys.stdin.buffer.read() if path == "-" else open(path, "rb").read()
    except OSError as exc:
        raise UsageError(f"cannot read {option} {path}: {exc.strerror}; check the path") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UsageError(
            f"{option} {path} is not UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}): "
            "convert it, e.g. iconv -f latin1 -t utf-8"
        ) from None
    lines = text.replace("\r\n", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def check_same_length(named: Sequence[tuple[str, list[str]]]) -> None:
    """Raise a :class:`UsageError` if the first file has no line, or naming the first file whose
    line count differs from the first one's."""
    (first_name, first), *rest = named
    if not first:
        raise UsageError(f"{first_name} has no lines: give one line per item to score")
    for name, lines in rest:
        if len(lines) != len(first):
            raise UsageError(
                f"{name} has {len(lines)} lines but {first_name} has {len(first)}: "
                "every file needs one line per item"
            )


def check_writable(output: str | None, option: str = "-o") -> None:
    """Raise :class:`UsageError` now, before any work, if ``output`` could not be written later.

    The file itself, or (when it does not exist yet) the nearest existing directory above it,
    must be writable; a directory or a dangling symbolic link is refused.
    """
    if output is None:
        return
    path = Path(output)
    if path.is_symlink() and not path.exists():
        raise UsageError(f"{option} {output} is a symbolic link to nothing: remove it or pick another path")
    if path.is_dir():
        raise UsageError(f"{option} {output} is a directory: give a file path")
    target = path.resolve()
    if target.exists():
        if not os.access(target, os.W_OK) or not os.access(target.parent, os.W_OK):
            raise UsageError(f"cannot write {option} {output}: permission denied; pick another path")
        return
    parent = target.parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir() or not os.access(parent, os.W_OK | os.X_OK):
        raise UsageError(f"cannot write {option} {output}: {parent} is not a writable directory; pick another path")


def write_output(text: str, output: str | None) -> None:
    """Print ``text``, or write it atomically to ``output`` (an interrupted write leaves no partial file).

    An existing file keeps its permission bits. A symbolic link is written through: the
    file it points to gets the new content and the link stays.
    """
    if output is None:
        click.echo(text, nl=False)
        return
    target = Path(output).resolve()
    mode = stat.S_IMODE(target.stat().st_mode) if target.exists() else None
    try:
        write_atomic(target, text, mode)
    except OSError as exc:
        raise UsageError(f"cannot write -o {output}: {exc.strerror}; pick another path") from None
