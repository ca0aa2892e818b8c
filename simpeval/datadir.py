"""Where simpeval finds its data: ``--data-dir`` or ``SIMPEVAL_DATA_DIR``.

The directory is laid out like ``../shared/data`` (``metaeval/``, ``references/{asset,
turkcorpus,hsplit}/``, ``simpeval/``). A file missing there ends the command with one line
naming the file, where the public copy lives and the ``--data-dir`` remedy: simpeval never
reaches for the network on its own, so tests and offline machines stay deterministic.
"""

from __future__ import annotations

import os
from pathlib import Path

from simpeval.errors import UsageError

DATA_DIR_ENV = "SIMPEVAL_DATA_DIR"
__all__ = ["DATA_DIR_ENV", "read_data_text", "require_file", "resolve_data_dir"]



def resolve_data_dir(data_dir: str | os.PathLike | None = None) -> Path:
    """The data directory: ``data_dir`` if given, else ``$SIMPEVAL_DATA_DIR``.

    :raises UsageError: when neither is set or the directory does not exist.
    """
    chosen = data_dir if data_dir is not None else os.environ.get(DATA_DIR_ENV)
    if not chosen:
        raise UsageError(
            f"no data directory: pass --data-dir DIR or set {DATA_DIR_ENV} "
            "(a directory laid out like shared/data)"
        )
    path = Path(chosen).expanduser()
    if not path.is_dir():
        raise UsageError(f"data directory {path} does not exist: fix --data-dir or {DATA_DIR_ENV}")
    return path


def require_file(data_dir: Path, relative: str, source: str = "") -> Path:
    """``data_dir / relative``, which must exist.

    :param source: the public address of the file, named in the error so the user can fetch it.
    :raises UsageError: naming the missing file, its source and the ``--data-dir`` remedy.
    """
    path = data_dir / relative
    if not path.is_file():
        where = f" (public copy: {source})" if source else ""
        raise UsageError(
            f"missing data file {path}{where}: put it there or point --data-dir / {DATA_DIR_ENV} "
            "at a directory that has it"
        )
    return path


def read_data_text(path: Path) -> str:
    """The text of data file ``path`` (UTF-8); :class:`UsageError` naming the file when it cannot
    be read or is not UTF-8, instead of a traceback."""
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot read data file {path}: {exc.strerror}: fix its permissions or re-fetch it") from None
    except UnicodeDecodeError as exc:
        raise UsageError(f"data file {path} is not UTF-8 (byte 0x{exc.object[exc.start]:02x} at offset "
                         f"{exc.start}): replace it with the released file") from None
