"""An on-disk score cache keyed by metric signature and input hash.

Each entry is one JSON file written atomically (a temporary file in the same
directory, then ``os.replace``), so an interrupted run never leaves a
half-written entry and the next run resumes from every batch already scored.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

CACHE_DIR_ENV = "SIMPEVAL_CACHE_DIR"


def default_cache_dir() -> Path:
    """``$SIMPEVAL_CACHE_DIR``, else ``$XDG_CACHE_HOME/simpeval``, else ``~/.cache/simpeval``."""
    if os.environ.get(CACHE_DIR_ENV):
        return Path(os.environ[CACHE_DIR_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "simpeval"


def input_key(
    signature: str,
    kind: str,
    sources: Sequence[str],
    outputs: Sequence[str],
    references: Sequence[Sequence[str]] | None,
    fields: dict[str, list] | None = None,
) -> str:
    """A sha256 over the signature, the kind of score (sentence/corpus), every input text and
    the per-item fields a metric reads (left out when there are none, so older keys stay valid)."""
    digest = hashlib.sha256()
    payload = [signature, kind, list(sources), list(outputs), None if references is None else [list(r) for r in references]]
    if fields:
        payload.append(fields)
    digest.update(json.dumps(payload, ensure_ascii=False).encode("utf-8"))
    return digest.hexdigest()


def write_atomic(path: Path, text: str, mode: int | None = None) -> None:
    """Write ``text`` to ``path`` so that readers see either the old file or the whole new one.

    :param mode: the new file's permission bits (default: 0666 less the umask).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o666 & ~_umask() if mode is None else mode)  # mkstemp's 0600 would make results private
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


class ScoreCache:
    """Scores stored as ``<directory>/scores/<key[:2]>/<key>.json``."""

    def __init__(self, directory: Path | str | None = None) -> None:
        self.directory = Path(directory) if directory is not None else default_cache_dir()

    def _path(self, key: str) -> Path:
        return self.directory / "scores" / key[:2] / f"{key}.json"

    def get(self, key: str) -> Any | None:
        """The stored value, or None when absent or unreadable (an unreadable entry is recomputed)."""
        try:
            return json.loads(self._path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None

    def put(self, key: str, value: Any) -> None:
        write_atomic(self._path(key), json.dumps(value))
