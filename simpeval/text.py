"""Per-text tokenisation, n-gram counts and sentence splits, computed once per process.

Every metric in one process shares these caches, so a text that BLEU, SARI,
iBLEU and FKGL all need is tokenised and counted once. Keys are the text and the
settings that change the result (tokenizer name, lowercasing, n-gram order).

Public for plugins (``__all__``, documented in docs/plugin-authors.md): :func:`split_sentences`,
:func:`tokenize`, :func:`ngram_counts`, :func:`shared_cache` and :func:`clear_caches`. A plugin
that splits sentences with :func:`split_sentences` shares the cache and agrees with the core.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection
from functools import lru_cache
from typing import TypeVar

from simpeval.tokenizers import get_tokenizer

__all__ = ["clear_caches", "ngram_counts", "shared_cache", "split_sentences", "tokenize"]

CACHE_SIZE = 1 << 18

NgramCounts = tuple[dict[tuple[str, ...], int], ...]

_F = TypeVar("_F", bound=Callable)
_CACHES: list = []


def shared_cache(func: _F) -> _F:
    """``functools.lru_cache`` that :func:`clear_caches` also clears.

    Metric modules decorate their per-item statistics with it (BLEU, SARI and
    FKGL counts), so composite metrics reuse them instead of recounting.
    """
    cached = lru_cache(maxsize=CACHE_SIZE)(func)
    _CACHES.append(cached)
    return cached  # type: ignore[return-value]


@shared_cache
def tokenize(text: str, tokenizer: str, lowercase: bool = False) -> tuple[str, ...]:
    """The tokens of ``text`` after optional lowercasing and the named tokenizer."""
    if lowercase:
        text = text.lower()
    return tuple(get_tokenizer(tokenizer)(text).split())


@shared_cache
def ngram_counts(
    text: str, tokenizer: str, lowercase: bool = False, max_order: int = 4
) -> NgramCounts:
    """Counts of the n-grams of ``text``, one dict per order 1..``max_order``.

    N-grams are tuples of tokens. Callers must not modify the returned dicts.
    """
    tokens = tokenize(text, tokenizer, lowercase)
    # zip over shifted copies yields the n-grams as tuples, faster than slicing
    return tuple(
        Counter(zip(*(tokens[i:] for i in range(n)))) for n in range(1, max_order + 1)
    )


@shared_cache
def split_sentences(text: str) -> tuple[str, ...]:
    """English Punkt sentence splitting (identical to NLTK's ``english.pickle``)."""
    return tuple(_punkt_english().tokenize(text))


@lru_cache(maxsize=1)
def _punkt_english():  # noqa: ANN202 - the type lives in the lazily imported package
    import punkt

    return punkt.PunktSentenceTokenizer(punkt.load_model("english"))


def clear_caches(keep: Collection[Callable] = ()) -> None:
    """Forget every cached text and statistic, except the caches of the functions in ``keep``.

    Benchmarks use it to time a cold start (``keep=()``) and the cost of recomputing
    statistics from texts already tokenised (``keep=(tokenize, ngram_counts, split_sentences)``).
    """
    for cached in _CACHES:
        if cached not in keep:
            cached.cache_clear()
