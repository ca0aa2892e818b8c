"""What a trainer computes once and keeps on disk: arrays keyed by what they were computed from.

A frozen encoder's embeddings of a corpus cost minutes and never change while the encoder (by content) and
the texts stay the same, so a rerun or a second seed reads them back (``$SIMPEVAL_CACHE_DIR/<kind>``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["cached_array"]


def cached_array(kind: str, key: Any, compute: Callable[[], Any], cache_dir: Path | None = None):
    """The array ``compute()`` returns, read from ``cache_dir/kind/<sha256 of key as JSON>.npy`` when there (else
    computed and written whole, never half)."""
    import numpy as np

    from simpeval.cache import default_cache_dir

    path = Path(cache_dir or default_cache_dir()) / kind / f"{hashlib.sha256(json.dumps(key).encode()).hexdigest()}.npy"
    if path.exists():
        return np.load(path)
    array = compute()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npy")
    np.save(tmp, array)
    tmp.replace(path)
    return array
