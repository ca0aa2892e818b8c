"""sacrebleu's mteval-style tokenizers (``13a``, ``intl``), the defaults of EASSE."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from simpeval.tokenizers.base import BaseTokenizer


class _SacrebleuTokenizer(BaseTokenizer):
    """Wraps the sacrebleu tokenizer class at ``impl`` ("module:class"), imported on first use."""

    impl: str = ""

    def __init__(self) -> None:
        module_name, class_name = self.impl.split(":")
        self._impl: Callable[[str], str] = getattr(import_module(module_name), class_name)()

    def __call__(self, text: str) -> str:
        return self._impl(text)


class Tokenizer13a(_SacrebleuTokenizer):
    """mteval-v13a tokenization, as sacrebleu's ``13a`` (EASSE's default)."""

    name = "13a"
    impl = "sacrebleu.tokenizers.tokenizer_13a:Tokenizer13a"


class TokenizerIntl(_SacrebleuTokenizer):
    """mteval-v14 international tokenization (Unicode punctuation and symbols)."""

    name = "intl"
    impl = "sacrebleu.tokenizers.tokenizer_intl:TokenizerV14International"
