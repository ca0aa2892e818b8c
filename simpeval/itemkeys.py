"""One rated item's identity across datasets: a digest of its texts' letters and digits, case folded.

Rated datasets share items (WIKI-DA is Simplicity-DA minus some originals; SimpEval_past and
Structural Simplicity rate some of Simplicity-DA's outputs again). Two layers need to see that:
the leaderboard, to mark a learned metric's cells on data it was trained on, and the
leave-one-dataset-out trainers, to keep a left-out dataset's items out of the training data of
its own fold. Both key an item the same way, here.

The datasets do not store a shared output alike: one keeps it tokenised ("a folder ( matchcover )",
'" Prussia proper"'), another detokenised, and their truecasing differs ("the itch of Itch" /
"the itch of itch"). Whitespace alone missed more than half of SimpEval_past's outputs that
Simplicity-DA rates too, so a text is reduced to its letters and digits, case folded, before it is
hashed. Two outputs that differ only in punctuation or case count as one item: for keeping
training data away from a test set, over-matching is the safe side.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

__all__ = ["digest", "pair_keys"]


def _normalise(text: str) -> str:
    """The text's letters and digits, case folded: what survives tokenisation, detokenisation and truecasing."""
    return "".join(filter(str.isalnum, text.casefold()))


def digest(*texts: str) -> bytes:
    """A 16-byte digest of normalised texts (a (source, output) pair, or a single source)."""
    joined = "\x1f".join(_normalise(t) for t in texts)
    return hashlib.blake2b(joined.encode("utf-8"), digest_size=16).digest()


def pair_keys(sources: Sequence[str], outputs: Sequence[str]) -> tuple[bytes, ...]:
    """One key per item: the digest of its (source, output) pair."""
    return tuple(digest(s, o) for s, o in zip(sources, outputs, strict=True))
