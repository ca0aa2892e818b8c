"""mteval-style tokenizers (``13a``, ``intl``), the defaults of EASSE: ``13a`` our own, equal to
sacrebleu's (tests compare them on every reference line), ``intl`` sacrebleu's."""

from __future__ import annotations

import re
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


# mteval-v13a's punctuation rules, applied in this order to " text ":
# every symbol of these ASCII ranges (the space included) stands alone ...
_SYMBOL = re.compile(r"([{-~\[-` -&(-+:-@/])")
# ... then periods and commas, unless between digits, and a dash after a digit
_LATER_RULES = (
    (re.compile(r"([^0-9])([.,])"), r"\1 \2 "),
    (re.compile(r"([.,])([^0-9])"), r" \1 \2"),
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),
)
_ENTITIES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))


class Tokenizer13a(BaseTokenizer):
    """mteval-v13a tokenization (WMT's, EASSE's default), equal to sacrebleu's ``13a``.

    Written for the cold path: the first rule puts spaces around each of many symbols
    (every space among them), which ``re.sub`` with a group template does by calling
    Python once per match; splitting on the rule's pattern and joining with spaces gives
    the same string at C speed. Nothing is cached here: the run's store keeps tokens.
    """

    name = "13a"

    def __call__(self, text: str) -> str:
        text = text.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
        if "&" in text:
            for entity, character in _ENTITIES:
                text = text.replace(entity, character)
        text = " ".join(_SYMBOL.split(f" {text} "))  # = _SYMBOL.sub(r" \1 ", ...)
        for pattern, replacement in _LATER_RULES:
            text = pattern.sub(replacement, text)
        return " ".join(text.split())


class TokenizerIntl(_SacrebleuTokenizer):
    """mteval-v14 international tokenization (Unicode punctuation and symbols)."""

    name = "intl"
    impl = "sacrebleu.tokenizers.tokenizer_intl:TokenizerV14International"
