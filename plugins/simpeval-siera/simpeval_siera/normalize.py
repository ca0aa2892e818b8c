"""The one tokenisation SIERA applies to every sentence it trains on or scores.

Intermediate sentences are rebuilt from tokens, so they come out tokenised. If the
(original, simplified) pairs kept their raw spacing, the model could tell the
intermediates apart by their spacing alone. Every sentence, in training and in
scoring, is therefore Moses-tokenised and joined with single spaces.
"""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=1)
def _moses():
    from sacremoses import MosesTokenizer

    return MosesTokenizer(lang="en")


def tokenize(text: str) -> list[str]:
    """Moses tokens of ``text`` (no HTML escaping, so ``&`` and quotes stay as written)."""
    return _moses().tokenize(text.strip(), escape=False)


def normalize(text: str) -> str:
    """``text`` as the model sees it: its Moses tokens joined by single spaces."""
    return " ".join(tokenize(text))
