"""The Moses tokenizer (sacremoses), without XML escaping.

``escape=False`` keeps ``&``, ``'`` and ``"`` as they are: this is how the
per-sentence EASSE scores published by Alva-Manchego et al. (2021) were computed.
"""

from __future__ import annotations

from simpeval.tokenizers.base import BaseTokenizer


class MosesTokenizer(BaseTokenizer):
    """English Moses tokenization with ``escape=False``."""

    name = "moses"

    def __init__(self) -> None:
        from sacremoses import MosesTokenizer as _Impl

        self._impl = _Impl(lang="en")

    def __call__(self, text: str) -> str:
        return self._impl.tokenize(text, escape=False, return_str=True)
