"""The files a run reads and writes: inputs read as strict UTF-8, one item per line, with clear
errors; results printed or written atomically, never over a file the run read.

This is library code below the command line (the engine, :func:`simpeval.evaluate_files` and
every command write through it), so it prints with :data:`sys.stdout` rather than click.

Every output goes through :class:`StagedOutput`, and that is where an output is refused when
it is a file the command read: inputs, documents, dataset files, ``--scores`` files, whatever
the path or link that names them (:func:`command_files`, :func:`note_read`).
"""

from __future__ import annotations

import atexit
import errno
import glob
import os
import re
import stat
import sys
import tempfile
import threading
import time
import unicodedata
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from simpeval.errors import UsageError

# what plugins may import (tests/test_public_helpers.py)
__all__ = ["StagedOutput", "check_writable", "new_file_mode", "read_lines", "replaced_on_success", "write_output"]


def read_lines(path: str, option: str) -> list[str]:
    """The lines of ``path`` (``-`` for standard input), without their line endings.

    An empty line is an item (an empty output); the newline that ends the file
    does not start another one. A UTF-8 byte-order mark is dropped.
    """
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as handle:
                note_read(path)
                data = handle.read()
    except OSError as exc:
        raise UsageError(f"cannot read {option} {path}: {exc.strerror}; check the path") from None
    return decode_lines(data, path, option)


BOM = b"\xef\xbb\xbf"
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def not_utf8(option: str, path: str | os.PathLike, byte: int, position: int, start: bytes = b"") -> UsageError:
    """The error for a file that is not UTF-8: the first bad byte and its offset, and the
    ``iconv`` that converts it (from UTF-16 when ``start``, the file's first bytes, is its byte-order mark)."""
    source = "utf-16" if start[:2] in UTF16_BOMS else "latin1"
    return UsageError(f"{option} {path} is not UTF-8 (byte 0x{byte:02x} at offset {position}): "
                      f"convert it, e.g. iconv -f {source} -t utf-8")


def normalized(text: str) -> str:
    """``text`` in Unicode normalisation form C, as every input text is read.

    One text typed on two systems may arrive composed (``é``, U+00E9) or decomposed
    (``e`` + U+0301): read as they are, the two would count different characters,
    syllables and tokens, and score differently (FKGL 7.47 against 7.09). Composed is
    what nearly all text already is, so most inputs pass through unchanged. An ASCII text is
    in every form already and is returned at once: line by line, 240,412 reference lines
    (22,362 of them not ASCII) take 58 ms, against 2.2 s for their 32 MB as one text.
    """
    return text if text.isascii() else unicodedata.normalize("NFC", text)


def decode_lines(data: bytes, path: str, option: str, offset: int = 0) -> list[str]:
    """The lines of ``data``, bytes ``offset`` onwards of ``path`` (a whole file, or whole lines
    of it, as :mod:`simpeval.engine.linefiles` reads them): strict UTF-8, CRLF read as LF,
    a byte-order mark dropped at the start of the file, a bad byte reported by its offset in the
    file, and the text in Unicode's composed form (:func:`normalized`)."""
    skip = len(BOM) if offset == 0 and data.startswith(BOM) else 0
    try:
        text = str(memoryview(data)[skip:], "utf-8")
    except UnicodeDecodeError as exc:
        position = skip + exc.start
        raise not_utf8(option, path, data[position], offset + position, data[:2] if offset == 0 else b"") from None
    lines = [normalized(line) for line in text.replace("\r\n", "\n").split("\n")]
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
    (a device such as ``/dev/null``, a FIFO) or a name of an open descriptor (``/dev/stdout``,
    ``/dev/fd/3``) only needs to be writable itself: it is written through, never replaced.
    Within a command (:func:`command_files`), a file it has read already, or one that another
    of its outputs names (``--html`` and ``-o``), is refused as well.
    """
    if output is None or _standard_stream(output) is not None:
        return
    path = Path(output)
    try:
        if _is_descriptor(output) or is_special(path):
            if not os.access(path, os.W_OK):
                raise UsageError(f"cannot write {option} {output}: permission denied; pick another path")
            return
        if path.is_symlink() and not path.exists():
            raise UsageError(f"{option} {output} is a symbolic link to nothing: remove it or pick another path")
        if path.is_dir():
            raise UsageError(f"{option} {output} is a directory: give a file path")
        target = path.resolve()
        exists = target.exists()
    except OSError as exc:  # a name too long, a loop of links
        raise _unreachable(exc, output, option) from None
    if exists:
        if not os.access(target, os.W_OK) or not os.access(target.parent, os.W_OK):
            raise UsageError(f"cannot write {option} {output}: permission denied; pick another path")
    else:
        if len(target.name.encode("utf-8", "surrogateescape")) > _name_max(target.parent):
            raise UsageError(f"cannot write {option} {output}: the file name is too long; pick a shorter one")
        parent = target.parent
        while not parent.exists():
            parent = parent.parent
        if not parent.is_dir() or not os.access(parent, os.W_OK | os.X_OK):
            raise UsageError(f"cannot write {option} {output}: {parent} is not a writable directory; "
                             "pick another path")
    refuse_a_read_file(output, option)
    _plan(target, output, option)


def _unreachable(exc: OSError, output: str, option: str) -> UsageError:
    problem = "the file name is too long" if exc.errno == errno.ENAMETOOLONG else exc.strerror
    return UsageError(f"cannot write {option} {output}: {problem}; pick another path")


def check_not_an_input(output: str | None, inputs: Sequence[str | None], option: str = "-o") -> None:
    """Refuse, before any work, an ``output`` that is one of the command's ``inputs`` or a file
    in one of its input directories (documents): :func:`note_read` on each, then the one check
    (:func:`refuse_a_read_file`) that :class:`StagedOutput` repeats when it publishes."""
    with command_files():
        for path in inputs:
            if path is None or path == "-":
                continue
            if os.path.isdir(path):
                for entry in _entries(path):
                    note_read(entry)
            else:
                note_read(path)
        refuse_a_read_file(output, option)


def _entries(directory: str) -> list[str]:
    try:
        return [entry.path for entry in os.scandir(directory)]
    except OSError:
        return []  # unreadable: reading the inputs names the problem


# --------------------------------------------------------------------------
# What a command has read: its outputs never replace one of those files
# --------------------------------------------------------------------------


class _CommandFiles:
    """The files one command has read, by (device, inode), and the outputs it has announced."""

    def __init__(self) -> None:
        self.read: dict[tuple[int, int], str] = {}
        self.outputs: dict[tuple, tuple[str, str]] = {}  # file identity -> (option, path)


_command: _CommandFiles | None = None
_command_lock = threading.Lock()


@contextmanager
def command_files() -> Iterator[None]:
    """The span of one command or library call: within it, every file read through this module,
    :func:`simpeval.datadir.require_file` or the document and dataset readers is remembered
    (:func:`note_read`), and an output that is one of them is refused (:class:`StagedOutput`).

    Nested spans share the outermost one; what was read is forgotten when it ends, so a
    long-lived process may later write a file an earlier call read.
    """
    global _command
    with _command_lock:
        outermost = _command is None
        if outermost:
            _command = _CommandFiles()
    try:
        yield
    finally:
        if outermost:
            with _command_lock:
                _command = None


def note_read(path: str | os.PathLike) -> None:
    """Remember that the current command reads the regular file ``path`` (nothing outside a
    :func:`command_files` span, for standard input or for what is not a regular file)."""
    files = _command
    if files is None or path == "-":
        return
    try:
        found = os.stat(path)
    except (OSError, ValueError):
        return
    if stat.S_ISREG(found.st_mode):
        files.read.setdefault((found.st_dev, found.st_ino), os.fspath(path))


def refuse_a_read_file(output: str | os.PathLike | None, option: str = "-o") -> None:
    """Raise :class:`UsageError` if ``output`` is a file the current command has read (the same
    file by device and inode, whatever the path, link or hard link that names it)."""
    files = _command
    if files is None or output is None:
        return
    try:
        found = os.stat(output)
    except (OSError, ValueError):
        return  # not there yet: it cannot have been read
    read = files.read.get((found.st_dev, found.st_ino)) if stat.S_ISREG(found.st_mode) else None
    if read is not None:
        raise UsageError(f"{option} {os.fspath(output)} is also an input ({read}), read by this command: writing "
                         "it would replace that file; pick another output path")


def _plan(target: Path, output: str, option: str) -> None:
    """Announce an output of the current command: two options naming one file are refused."""
    files = _command
    if files is None:
        return
    try:
        found = os.stat(target)
        identity: tuple = ("file", found.st_dev, found.st_ino)
    except OSError:
        identity = ("new", str(target))
    other = files.outputs.setdefault(identity, (option, output))
    if other[0] != option:
        raise UsageError(f"{other[0]} {other[1]} and {option} {output} name the same file: give each its own path")


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


def write_output(text: str, output: str | None, option: str = "-o") -> None:
    """Print ``text``, or write it atomically to ``output`` (an interrupted write leaves no partial file).

    An existing file keeps its permission bits. A symbolic link is written through: the
    file it points to gets the new content and the link stays.
    """
    if output is None:
        _print(text, sys.stdout)
        return
    with StagedOutput(output, option) as staged:
        staged.write(text)
        staged.publish()


def _print(text: str, stream: TextIO) -> None:
    stream.write(text)
    stream.flush()


_STANDARD = {"/dev/stdout": 1, "/dev/stderr": 2}
_DESCRIPTOR = re.compile(r"/dev/fd/(?P<fd>[0-9]+)|/proc/self/fd/(?P<self>[0-9]+)|/dev/std(?:in|out|err)")


def _is_descriptor(output: str) -> bool:
    """Whether ``output`` names an open descriptor (``/dev/stdout``, ``/dev/fd/3``): written
    through, never replaced, whatever the descriptor holds (a pipe, a terminal, a file opened by ``>>``)."""
    return _DESCRIPTOR.fullmatch(os.path.normpath(output)) is not None


def _standard_stream(output: str | None) -> TextIO | None:
    """:data:`sys.stdout` for no output or a name of descriptor 1, :data:`sys.stderr` for 2, else None.

    Printing through the stream rather than reopening its file keeps the order of what the
    command prints, and keeps ``>> file`` appending."""
    if output is None:
        return sys.stdout
    match = _DESCRIPTOR.fullmatch(os.path.normpath(output))
    if match is None:
        return None
    fd = _STANDARD.get(match[0]) or int(match["fd"] or match["self"] or 0)
    return {1: sys.stdout, 2: sys.stderr}.get(fd)


_unpublished: set[Path] = set()
"""Stages not yet published or deleted. A signal can end the process between creating a stage and
entering its ``with`` block (SIGTERM raises there under load), where ``__exit__`` never runs: the
interpreter's exit deletes what is left here."""


@atexit.register
def _delete_unpublished() -> None:
    for tmp in list(_unpublished):
        tmp.unlink(missing_ok=True)


class StagedOutput:
    """A command's output, written piece by piece as it is produced and published whole at the end.

    The pieces go to a temporary file (beside ``output``, or in the temporary directory for
    standard output, a special file such as ``/dev/null`` or a FIFO, or a descriptor's name such as
    ``/dev/stdout``); :meth:`publish` renames it over ``output`` (as :func:`write_output` does) or
    copies it to the stream, into the special file or through the descriptor, which is never
    replaced. An ``output`` that is a file the command read is refused, when staging starts and
    again when publishing (:func:`refuse_a_read_file`): nothing is written then. Leaving the
    ``with`` block without publishing, by an error or an interruption, deletes the stage: nothing
    half-written is ever seen. A temporary file beside ``output`` is locked while its writer
    lives, so one that a killed run left behind is removed by the next run that writes there
    (:func:`sweep_stale`). A full disk or a file-size limit is one line naming ``output``.
    """

    COPY_CHUNK = 1 << 20

    def __init__(self, output: str | None, option: str = "-o") -> None:
        self.output, self.option = output, option
        self._tmp = None
        self._target: Path | None = None  # the regular file the stage is renamed over
        self._stream = _standard_stream(output)
        self._append = False
        try:
            if self._stream is None:
                self._append = _is_descriptor(output)
                if not (self._append or is_special(Path(output))):
                    self._target = Path(output).resolve()
            if self._target is None:
                self._handle = tempfile.TemporaryFile("w+", encoding="utf-8", newline="")
            else:
                refuse_a_read_file(self._target, option)
                self._target.parent.mkdir(parents=True, exist_ok=True)
                sweep_stale(self._target)
                fd, tmp = tempfile.mkstemp(dir=self._target.parent, prefix=_temporary_prefix(self._target),
                                           suffix=".tmp")
                self._tmp = Path(tmp)
                _unpublished.add(self._tmp)
                hold_while_open(fd)
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
        """Make the whole output visible: rename it over ``output``, or copy it to the stream, into
        the special file or through the descriptor."""
        try:
            if self._target is None:
                self._handle.seek(0)
                if self._stream is not None:
                    while chunk := self._handle.read(self.COPY_CHUNK):
                        _print(chunk, self._stream)
                else:
                    with open(self.output, "a" if self._append else "w", encoding="utf-8", newline="") as through:
                        while chunk := self._handle.read(self.COPY_CHUNK):
                            through.write(chunk)
                self._handle.close()
                return
            refuse_a_read_file(self._target, self.option)  # read since staging began (a loader, a document)
            mode = stat.S_IMODE(self._target.stat().st_mode) if self._target.exists() else new_file_mode()
            self._handle.flush()
            os.fsync(self._handle.fileno())
            self._handle.close()
            os.chmod(self._tmp, mode)  # mkstemp's 0600 would make results private
            os.replace(self._tmp, self._target)
            _unpublished.discard(self._tmp)
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
            _unpublished.discard(self._tmp)
        if isinstance(exc, OSError) and exc.errno in _FULL:
            raise self._unwritable(exc) from None  # a writer (csv) wrote to the handle directly

    def _unwritable(self, exc: OSError) -> UsageError:
        where = "standard output" if self.output is None else f"{self.option} {self.output}"
        remedy = "free some space or pick another path" if exc.errno in _FULL else "pick another path"
        return UsageError(f"cannot write {where}: {exc.strerror or exc}; {remedy}")


@contextmanager
def replaced_on_success(path: Path) -> Iterator[Path]:
    """A temporary path of its own beside ``path`` to write to; renamed over ``path`` when the block
    ends without an error, deleted when it does not.

    The name is unique (``.NAME.PID-RANDOM.tmp``, locked while the block runs, as
    :func:`sweep_stale` expects), so two processes saving into one directory never write into
    each other's temporary file, and a reader sees the old file or the whole new one. The new
    file gets the permission bits ``open`` would give it (0666 less the umask).
    """
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=_temporary_prefix(path), suffix=".tmp")
    tmp = Path(name)
    try:
        hold_while_open(fd)
        yield tmp
        os.chmod(tmp, new_file_mode())  # mkstemp's (and safetensors') 0600 would make the file private
        os.replace(tmp, path)
    finally:
        os.close(fd)
        tmp.unlink(missing_ok=True)


def new_file_mode() -> int:
    """The permission bits a new file gets from ``open``: 0666 less the umask.

    The umask is read, never set: ``os.umask(0)`` to learn it would leave, for a moment, every
    file another thread creates writable by all. Linux shows it in ``/proc/self/status``;
    elsewhere a probe file created with 0666 shows what the umask leaves.
    """
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return 0o666 & ~int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    directory = tempfile.mkdtemp()
    try:
        probe = os.path.join(directory, "probe")
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        return stat.S_IMODE(os.stat(probe).st_mode)
    finally:
        for name in os.listdir(directory):
            os.unlink(os.path.join(directory, name))
        os.rmdir(directory)


_FULL = {errno.ENOSPC, errno.EFBIG, errno.EDQUOT}
"""A write that failed for want of room: the disk, the quota or the file-size limit (RLIMIT_FSIZE)."""


def _temporary_prefix(target: Path) -> str:
    """``.NAME.PID-`` (the name shortened so the temporary name stays within the file system's limit)."""
    return f".{target.name[:100]}.{os.getpid()}-"


_TEMPORARY = re.compile(r"\.(?P<name>.*)\.[0-9]+-[^.]*\.tmp")

STALE_AFTER_SECONDS = 60.0
"""The age below which a temporary file is never swept, even unlocked: its writer may not have
taken the lock yet (the moment between creating the file and locking it)."""


def hold_while_open(fd: int) -> None:
    """Lock the temporary file open at ``fd`` for as long as it stays open in this process.

    The lock (``flock``) is what :func:`sweep_stale` asks about: it ends with the descriptor,
    also when the writer is killed, and it is seen whatever process id namespace or container
    the writer runs in, which a process id is not.
    """
    try:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except (ImportError, OSError):  # no flock (Windows, some network file systems): the age guards alone
        pass


def _unlocked(path: Path) -> bool:
    """Whether no process holds the lock of :func:`hold_while_open` on ``path``."""
    try:
        import fcntl
    except ImportError:
        return True
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return False  # gone, a link, or not ours to read: leave it
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    finally:
        os.close(fd)  # also releases the lock just taken
    return True


def sweep_stale(target: Path) -> None:
    """Remove the temporary files of ``target`` that a run killed before publishing left behind:
    those no process holds locked (:func:`hold_while_open`) that are older than
    :data:`STALE_AFTER_SECONDS`. A process id in the name is not asked: a live writer in another
    process id namespace or container looks dead to ``kill(pid, 0)``."""
    prefix_name = target.name[:100]
    try:
        siblings = list(target.parent.glob(f".{glob.escape(prefix_name)}.*.tmp"))
    except OSError:
        return
    cutoff = time.time() - STALE_AFTER_SECONDS
    for path in siblings:
        match = _TEMPORARY.fullmatch(path.name)
        if match is None or match["name"] != prefix_name:
            continue
        try:
            if path.lstat().st_mtime > cutoff or not _unlocked(path):
                continue
            path.unlink()
        except OSError:
            pass  # another run swept it first, or it is not ours to remove
