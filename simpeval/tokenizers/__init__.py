"""Named, lazily imported word tokenizers, as in sacrebleu's ``tokenizers`` package.

A tokenizer is a callable ``text -> text`` (tokens separated by single spaces)
with a :meth:`~BaseTokenizer.signature` that goes into a metric's signature.
:func:`get_tokenizer` imports only the one it is asked for (sacremoses is slow to
import) and returns one shared instance per name and language. ``13a``, ``intl`` and
``none`` have no language rules; Moses applies the language's own (its non-breaking
prefixes) and supports the languages sacremoses has them for; ``nltk`` is English.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import import_module

from simpeval.errors import UsageError
from simpeval.languages import ENGLISH, check_supported
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


def _class(name: str) -> type[BaseTokenizer]:
    if name not in _TOKENIZERS:
        raise UsageError(
            f'unknown tokenizer "{name}": use one of {", ".join(TOKENIZER_NAMES)}'
        )
    module_name, class_name = _TOKENIZERS[name].split(":")
    return getattr(import_module(module_name), class_name)


def tokenizer_languages(name: str) -> tuple[str, ...] | None:
    """The languages tokenizer ``name`` has rules for (None: it has no language rules)."""
    return _class(name).supported_languages()


def for_language(name: str, lang: str) -> str:
    """The name :func:`get_tokenizer` takes for tokenizer ``name`` on texts in ``lang``: ``name`` itself
    for a tokenizer without language rules or for English (so English keys stay as they were, and
    ``13a`` tokens are shared by every metric whatever the language), else ``name:lang``
    (``moses:de``). :class:`UsageError` when the tokenizer has no rules for ``lang``."""
    supported = tokenizer_languages(name)
    if supported is None or lang == ENGLISH and ENGLISH in supported:
        return name
    check_supported(f'tokenizer "{name}"', lang, supported)
    return f"{name}:{lang}"


@lru_cache(maxsize=None)
def get_tokenizer(name: str) -> BaseTokenizer:
    """The shared tokenizer called ``name``, or ``name:lang`` for a language other than English
    (:func:`for_language`); :class:`UsageError` for an unknown name."""
    base, _, lang = name.partition(":")
    cls = _class(base)
    return cls(lang) if lang else cls()


__all__ = ["TOKENIZER_NAMES", "BaseTokenizer", "for_language", "get_tokenizer", "tokenizer_languages"]
