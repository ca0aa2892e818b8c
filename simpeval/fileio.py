"""The files a run reads and writes: inputs read as strict UTF-8, one item per line, with clear
errors; results printed or written atomically.

This is library code below the command line (the engine, :func:`simpeval.evaluate_files` and
every command write through it), so it prints with :data:`sys.stdout` rather than click.
"""

from __future__ import annotations

import errno
import glob
import os
import re
import stat
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from simpeval.cache import new_file_mode
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
    return decode_lines(data, path, option)


BOM = b"\xef\xbb\xbf"


def decode_lines(data: bytes, path: str, option: str, offset: int = 0) -> list[str]:
    """The lines of ``data``, bytes ``offset`` onwards of ``path`` (a whole file, or whole lines
    of it, as :mod:`simpeval.engine.linefiles` reads them): strict UTF-8, CRLF read as LF,
    a byte-order mark dropped at the start of the file, a bad byte reported by its offset in the file."""
    skip = len(BOM) if offset == 0 and data.startswith(BOM) else 0
    try:
        text = str(memoryview(data)[skip:], "utf-8")
    except UnicodeDecodeError as exc:
        position = skip + exc.start
        raise UsageError(
            f"{option} {path} is not UTF-8 (byte 0x{data[position]:02x} at offset {offset + position}): "
            "convert it, e.g. iconv -f latin1 -t utf-8"
        ) from None
    lines = text.replace("\r\n", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def check_same_length(named: Sequence[tuple[str, list[str]]]) -> None:
    """Raise a :class:`UsageError` if the first file has no line, or naming the first file whose
    line count differs from the first one's."""
    check_same_counts([(name, len(lines)) for name, lines in named])


def check_same_counts(named: Sequence[tuple[str, int]]) -> None:
    """:func:`check_same_length` on line counts (``[("--orig orig.txt", 359), ...]``)."""
    (first_name, first), *rest = named
    if not first:
        raise UsageError(f"{first_name} has no lines: give one line per item to score")
    for name, count in rest:
        if count != first:
            raise UsageError(
                f"{name} has {count} lines but {first_name} has {first}: "
                "every file needs one line per item"
            )


def check_writable(output: str | None, option: str = "-o") -> None:
    """Raise :class:`UsageError` now, before any work, if ``output`` could not be written later.

    The file itself, or (when it does not exist yet) the nearest existing directory above it,
    must be writable; a directory or a dangling symbolic link is refused. A special file
    (a device such as ``/dev/null``, a FIFO) only needs to be writable itself: it is written
    through, never replaced.
    """
    if output is None:
        return
    path = Path(output)
    try:
        if path.is_symlink() and not path.exists():
            raise UsageError(f"{option} {output} is a symbolic link to nothing: remove it or pick another path")
        if path.is_dir():
            raise UsageError(f"{option} {output} is a directory: give a file path")
        target = path.resolve()
        exists = target.exists()
    except OSError as exc:  # a name too long, a loop of links
        problem = "the file name is too long" if exc.errno == errno.ENAMETOOLONG else exc.strerror
        raise UsageError(f"cannot write {option} {output}: {problem}; pick another path") from None
    if exists:
        special = is_special(target)
        if not os.access(target, os.W_OK) or not (special or os.access(target.parent, os.W_OK)):
            raise UsageError(f"cannot write {option} {output}: permission denied; pick another path")
        return
    if len(target.name.encode("utf-8", "surrogateescape")) > _name_max(target.parent):
        raise UsageError(f"cannot write {option} {output}: the file name is too long; pick a shorter one")
    parent = target.parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir() or not os.access(parent, os.W_OK | os.X_OK):
        raise UsageError(f"cannot write {option} {output}: {parent} is not a writable directory; pick another path")


def check_not_an_input(output: str | None, inputs: Sequence[str | None], option: str = "-o") -> None:
    """Refuse an ``output`` that is one of the command's ``inputs`` (the same file, by device and
    inode, whatever the path or link that names it): publishing would replace the input."""
    if output is None:
        return
    try:
        out = os.stat(output)
    except OSError:
        return  # not there yet: it cannot be an input
    if not stat.S_ISREG(out.st_mode):
        return  # a device or a FIFO is written through, never replaced
    for path in inputs:
        if path is None or path == "-":
            continue
        try:
            same = os.path.samestat(out, os.stat(path))
        except OSError:
            continue
        if same:
            raise UsageError(f"{option} {output} is also an input ({path}): writing it would replace that input; "
                             "pick another output path")


def is_special(path: Path) -> bool:
    """Whether ``path`` (followed through links) is a device, a FIFO or a socket rather than a regular file."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def _name_max(directory: Path) -> int:
    """The longest file name ``directory``'s file system takes (255 where it cannot be asked)."""
    while not directory.exists():
        directory = directory.parent
    try:
        return os.pathconf(directory, "PC_NAME_MAX")
    except (OSError, ValueError):
        return 255


def write_output(text: str, output: str | None) -> None:
    """Print ``text``, or write it atomically to ``output`` (an interrupted write leaves no partial file).

    An existing file keeps its permission bits. A symbolic link is written through: the
    file it points to gets the new content and the link stays.
    """
    if output is None:
        _print(text)
        return
    with StagedOutput(output) as staged:
        staged.write(text)
        staged.publish()


def _print(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


class StagedOutput:
    """A command's output, written piece by piece as it is produced and published whole at the end.

    The pieces go to a temporary file (beside ``output``, or in the temporary directory for
    standard output and for a special file such as ``/dev/null`` or a FIFO); :meth:`publish`
    renames it over ``output`` (as :func:`write_output` does) or copies it to standard output
    or into the special file, which is never replaced. Leaving the ``with`` block without
    publishing, by an error or an interruption, deletes it: nothing half-written is ever seen.
    A temporary file beside ``output`` carries its writer's process id, so one that a killed
    run left behind is removed by the next run that writes there (:func:`sweep_stale`).
    A full disk or a file-size limit is one line naming ``output``.
    """

    COPY_CHUNK = 1 << 20

    def __init__(self, output: str | None) -> None:
        self.output = output
        self._tmp = None
        try:
            self._target = None if output is None else Path(output).resolve()
            self._special = self._target is not None and is_special(self._target)
            if self._target is None or self._special:
                self._handle = tempfile.TemporaryFile("w+", encoding="utf-8", newline="")
            else:
                self._target.parent.mkdir(parents=True, exist_ok=True)
                sweep_stale(self._target)
                fd, tmp = tempfile.mkstemp(dir=self._target.parent, prefix=_temporary_prefix(self._target),
                                           suffix=".tmp")
                self._tmp = Path(tmp)
                self._handle = os.fdopen(fd, "w", encoding="utf-8", newline="")
        except OSError as exc:
            raise self._unwritable(exc) from None

    def write(self, text: str) -> None:
        try:
            self._handle.write(text)
        except OSError as exc:
            raise self._unwritable(exc) from None

    @property
    def handle(self) -> TextIO:
        """The open temporary file (for a :func:`csv.writer`)."""
        return self._handle

    def publish(self) -> None:
        """Make the whole output visible: rename it over ``output``, or print it or write it into the special file."""
        try:
            if self._target is None or self._special:
                self._handle.seek(0)
                if self._target is None:
                    while chunk := self._handle.read(self.COPY_CHUNK):
                        _print(chunk)
                else:
                    with open(self._target, "w", encoding="utf-8", newline="") as device:
                        while chunk := self._handle.read(self.COPY_CHUNK):
                            device.write(chunk)
                self._handle.close()
                return
            mode = stat.S_IMODE(self._target.stat().st_mode) if self._target.exists() else new_file_mode()
            self._handle.flush()
            os.fsync(self._handle.fileno())
            self._handle.close()
            os.chmod(self._tmp, mode)  # mkstemp's 0600 would make results private
            os.replace(self._tmp, self._target)
            self._tmp = None
        except OSError as exc:
            raise self._unwritable(exc) from None

    def __enter__(self) -> StagedOutput:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        try:
            self._handle.close()
        except OSError:
            pass  # the write that failed is reported below; closing flushes it again
        if self._tmp is not None:
            self._tmp.unlink(missing_ok=True)
        if isinstance(exc, OSError) and exc.errno in _FULL:
            raise self._unwritable(exc) from None  # a writer (csv) wrote to the handle directly

    def _unwritable(self, exc: OSError) -> UsageError:
        where = "standard output" if self.output is None else f"-o {self.output}"
        remedy = "free some space or pick another path" if exc.errno in _FULL else "pick another path"
        return UsageError(f"cannot write {where}: {exc.strerror or exc}; {remedy}")


_FULL = {errno.ENOSPC, errno.EFBIG, errno.EDQUOT}
"""A write that failed for want of room: the disk, the quota or the file-size limit (RLIMIT_FSIZE)."""


def _temporary_prefix(target: Path) -> str:
    """``.NAME.PID-`` (the name shortened so the temporary name stays within the file system's limit)."""
    return f".{target.name[:100]}.{os.getpid()}-"


_TEMPORARY = re.compile(r"\.(?P<name>.*)\.(?P<pid>[0-9]+)-[^.]*\.tmp")


def sweep_stale(target: Path) -> None:
    """Remove the temporary files of ``target`` that a run killed before publishing left behind:
    those whose writer's process id is no longer running (a live writer's are left alone)."""
    prefix_name = target.name[:100]
    try:
        siblings = list(target.parent.glob(f".{glob.escape(prefix_name)}.*.tmp"))
    except OSError:
        return
    for path in siblings:
        match = _TEMPORARY.fullmatch(path.name)
        if match is None or match["name"] != prefix_name or _running(int(match["pid"])):
            continue
        try:
            path.unlink()
        except OSError:
            pass  # another run swept it first, or it is not ours to remove


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # someone else's process, or a number no process has: leave it
    return True
