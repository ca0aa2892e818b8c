"""Opening files that simpeval reads but did not write itself, without hanging or filling memory.

Why a module of its own: a path where a file is expected (a cache entry, a model's
``config.json``, a weights shard) may hold a FIFO, which blocks ``open`` until a writer
comes, or a device such as ``/dev/zero``, which never ends. Both are refused here, after
the file is open (so a path swapped between a check and the open is still caught), and
whole-file reads stop at a limit instead of exhausting memory.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import BinaryIO

__all__ = ["NotRegularFile", "TooLarge", "open_regular", "read_bounded"]


class NotRegularFile(OSError):
    """The path holds a FIFO, a device, a socket or a directory, not a regular file."""


class TooLarge(OSError):
    """The file is larger than the caller is prepared to read at once."""


def open_regular(path: str | os.PathLike) -> BinaryIO:
    """``path`` opened for binary reading, when it is a regular file (symlinks followed).

    The open never blocks: it is non-blocking, which a FIFO without a writer allows,
    and the kind of file is checked on the open descriptor before anything is read.

    :raises NotRegularFile: for anything but a regular file.
    :raises OSError: as ``open`` (missing, unreadable).
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFile(errno.EINVAL, "not a regular file", os.fspath(path))
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_bounded(path: str | os.PathLike, limit: int) -> bytes:
    """The whole content of regular file ``path``, which must be at most ``limit`` bytes.

    :raises TooLarge: when the file holds more than ``limit`` bytes (checked while
        reading too, for a file that grows).
    :raises NotRegularFile: as :func:`open_regular`.
    """
    with open_regular(path) as handle:
        if os.fstat(handle.fileno()).st_size > limit:
            raise TooLarge(errno.EFBIG, f"larger than {limit} bytes", os.fspath(path))
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise TooLarge(errno.EFBIG, f"larger than {limit} bytes", os.fspath(path))
    return data

