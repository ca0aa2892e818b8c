"""One rated item's identity across datasets: a digest of its whitespace-normalised texts.

Rated datasets share items (WIKI-DA is Simplicity-DA minus some originals; SimpEval_past and
Structural Simplicity rate some of Simplicity-DA's outputs again). Two layers need to see that:
the leaderboard, to mark a learned metric's cells on data it was trained on, and the
leave-one-dataset-out trainers, to keep a left-out dataset's items out of the training data of
its own fold. Both key an item the same way, here.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

__all__ = ["digest", "pair_keys"]


def _normalise(text: str) -> str:
    return " ".join(text.split())


def digest(*texts: str) -> bytes:
    """A 16-byte digest of whitespace-normalised texts (a (source, output) pair, or a single source)."""
    joined = "\x1f".join(_normalise(t) for t in texts)
    return hashlib.blake2b(joined.encode("utf-8"), digest_size=16).digest()


def pair_keys(sources: Sequence[str], outputs: Sequence[str]) -> tuple[bytes, ...]:
    """One key per item: the digest of its (source, output) pair."""
    return tuple(digest(s, o) for s, o in zip(sources, outputs, strict=True))
