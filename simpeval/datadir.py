"""Where simpeval finds its data: ``--data-dir`` (``data_dir=`` in Python), else ``$SIMPEVAL_DATA_DIR``,
else the per-user data directory (``~/.local/share/simpeval`` on Linux, platformdirs' choice elsewhere).

The directory is laid out like ``../shared/data`` (``metaeval/``, ``references/{asset,
turkcorpus,hsplit}/``, ``simpeval/``). The first place that is given is used: a ``--data-dir`` or
``$SIMPEVAL_DATA_DIR`` naming no directory is an error rather than a silent fall-through, so a typo
never scores against other data. A file missing there ends the command with one line naming the
file and where the public copy lives; ``simpeval data`` shows the search order, what was found and,
for each missing data set, its source, licence and where to put it. simpeval never reaches for
the network on its own, so tests and offline machines stay deterministic.
"""

from __future__ import annotations

import os
from pathlib import Path

from simpeval.errors import UsageError
from simpeval.fileio import note_read

DATA_DIR_ENV = "SIMPEVAL_DATA_DIR"
CLI_ARGUMENT = "--data-dir"
PYTHON_ARGUMENT = "data_dir="
DATA_DIR_HELP = f"Data directory (default: ${DATA_DIR_ENV}, else the user data directory; see `simpeval data`)."
__all__ = ["DATA_DIR_ENV", "DATA_DIR_HELP", "find_data_dir", "read_data_text", "require_file", "resolve_data_dir",
           "search_path", "user_data_dir"]


def user_data_dir() -> Path:
    """The per-user data directory (``platformdirs.user_data_path("simpeval")``), whether or not it exists."""
    import platformdirs

    return platformdirs.user_data_path("simpeval")


def search_path(data_dir: str | os.PathLike | None = None,
                argument: str = CLI_ARGUMENT) -> list[tuple[str, Path | None]]:
    """Where simpeval looks, in order: ``(label, path or None when not given)`` for the argument,
    ``$SIMPEVAL_DATA_DIR`` and the user data directory."""
    env = os.environ.get(DATA_DIR_ENV)
    return [
        (argument, None if data_dir is None else Path(data_dir).expanduser()),
        (f"${DATA_DIR_ENV}", Path(env).expanduser() if env else None),
        ("user data directory", user_data_dir()),
    ]


def find_data_dir(data_dir: str | os.PathLike | None = None) -> Path | None:
    """The directory :func:`resolve_data_dir` would use, or None where it would fail (no error)."""
    try:
        return resolve_data_dir(data_dir)
    except UsageError:
        return None


def resolve_data_dir(data_dir: str | os.PathLike | None = None, argument: str = CLI_ARGUMENT) -> Path:
    """The data directory: ``data_dir`` if given, else ``$SIMPEVAL_DATA_DIR`` if set, else the user data
    directory if it exists.

    :param argument: how the caller names ``data_dir`` in errors: ``--data-dir`` on the command line,
        ``data_dir=`` from the Python API.
    :raises UsageError: when the first place given is not a directory, or nothing is given and the user
        data directory does not exist.
    """
    (_, given), (env_label, env), (_, user) = search_path(data_dir, argument)
    for label, path in ((argument, given), (env_label, env)):
        if path is not None:
            if not path.is_dir():
                problem = "is a file, not a directory" if path.exists() else "does not exist"
                raise UsageError(f"data directory {path} {problem}: fix {label}")
            return path
    if user.is_dir():
        return user
    flag = f"{argument}DIR" if argument.endswith("=") else f"{argument} DIR"
    raise UsageError(f"no data directory: {DATA_DIR_ENV} is not set and {user} does not exist: put the data "
                     f"there (`simpeval data` lists each data set, its source and licence), or pass {flag} "
                     f"or set {DATA_DIR_ENV}")


def require_file(data_dir: Path, relative: str, source: str = "") -> Path:
    """``data_dir / relative``, which must exist.

    :param source: the public address of the file, named in the error so the user can fetch it.
    :raises UsageError: naming the missing file and its source (no command-line flag: the Python API
        raises it too).
    """
    path = data_dir / relative
    if not path.is_file():
        where = f" (public copy: {source})" if source else ""
        raise UsageError(f"missing data file {path}{where}: put it there (`simpeval data` shows every data set "
                         "and where it goes)")
    note_read(path)  # an output of this command must never replace it
    return path


def read_data_text(path: Path) -> str:
    """The text of data file ``path`` (UTF-8); :class:`UsageError` naming the file when it cannot
    be read or is not UTF-8, instead of a traceback."""
    note_read(path)
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot read data file {path}: {exc.strerror}: fix its permissions or re-fetch it") from None
    except UnicodeDecodeError as exc:
        raise UsageError(f"data file {path} is not UTF-8 (byte 0x{exc.object[exc.start]:02x} at offset "
                         f"{exc.start}): replace it with the released file") from None
