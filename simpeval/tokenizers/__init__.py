"""Named, lazily imported word tokenizers, as in sacrebleu's ``tokenizers`` package.

A tokenizer is a callable ``text -> text`` (tokens separated by single spaces)
with a :meth:`~BaseTokenizer.signature` that goes into a metric's signature.
:func:`get_tokenizer` imports only the one it is asked for (sacremoses is slow to
import) and returns one shared instance per name.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import import_module

from simpeval.errors import UsageError
from simpeval.tokenizers.base import BaseTokenizer

# name -> "module:class", imported on first use
_TOKENIZERS: dict[str, str] = {
    "none": "simpeval.tokenizers.base:WhitespaceTokenizer",
    "13a": "simpeval.tokenizers.mteval:Tokenizer13a",
    "intl": "simpeval.tokenizers.mteval:TokenizerIntl",
    "moses": "simpeval.tokenizers.moses:MosesTokenizer",
    "nltk": "simpeval.tokenizers.nltk_word:NltkWordTokenizer",
    "spacy-de": "simpeval.tokenizers.spacy_rules:SpacyGermanTokenizer",
}

TOKENIZER_NAMES: tuple[str, ...] = tuple(_TOKENIZERS)


@lru_cache(maxsize=None)
def get_tokenizer(name: str) -> BaseTokenizer:
    """The shared tokenizer called ``name``; :class:`UsageError` for an unknown name."""
    if name not in _TOKENIZERS:
        raise UsageError(
            f'unknown tokenizer "{name}": use one of {", ".join(TOKENIZER_NAMES)}'
        )
    module_name, class_name = _TOKENIZERS[name].split(":")
    return getattr(import_module(module_name), class_name)()


__all__ = ["TOKENIZER_NAMES", "BaseTokenizer", "get_tokenizer"]
