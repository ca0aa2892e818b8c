"""sacrebleu's mteval-style tokenizers (``13a``, ``intl``), the defaults of EASSE."""

from __future__ import annotations

from simpeval.tokenizers.base import BaseTokenizer


class Tokenizer13a(BaseTokenizer):
    """mteval-v13a tokenization, as sacrebleu's ``13a`` (EASSE's default)."""

    name = "13a"

    def __init__(self) -> None:
        from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a as _Impl

        self._impl = _Impl()

    def __call__(self, text: str) -> str:
        return self._impl(text)


class TokenizerIntl(BaseTokenizer):
    """mteval-v14 international tokenization (Unicode punctuation and symbols)."""

    name = "intl"

    def __init__(self) -> None:
        from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International

        self._impl = TokenizerV14International()

    def __call__(self, text: str) -> str:
        return self._impl(text)
