"""Per-text tokens, n-gram counts and sentence splits, memoised in a run's store.

Every metric of a run passes the run's :class:`~simpeval.store.StatsStore`
(``store=self.store``), so a text that BLEU, SARI, iBLEU and FKGL all need is
tokenised and counted once while it is in the store. Keys are the text and the
settings that change the result (tokenizer name, lowercasing, n-gram order).
Without a store (``store=None``, e.g. a plugin calling :func:`split_sentences`)
the result is computed and not kept.

Public for plugins (``__all__``, documented in docs/plugin-authors.md): :func:`split_sentences`,
:func:`tokenize` and :func:`ngram_counts`; a plugin's own statistics go in the run's store
with :func:`simpeval.store.stored`. A plugin that splits sentences with :func:`split_sentences`
agrees with the core.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import compress, repeat
from operator import contains, itemgetter
from typing import TYPE_CHECKING

from simpeval.languages import ENGLISH
from simpeval.sentences import sentence_spans
from simpeval.store import stored
from simpeval.tokenizers import get_tokenizer

if TYPE_CHECKING:
    from simpeval.store import StatsStore

__all__ = ["ngram_counts", "split_sentences", "tokenize"]

NgramCounts = tuple[dict[tuple[str, ...], int], ...]


@stored
def tokenized(
    text: str, tokenizer: str, lowercase: bool = False, *, store: StatsStore | None = None
) -> str:
    """The tokens of ``text`` after optional lowercasing and the named tokenizer, joined by single
    spaces: what the run's store keeps per text (one string, which Python's cyclic garbage collector
    never walks, where it walks every token of a tuple). :func:`tokenize` splits it.

    Lower-cased 13a tokens are the cased tokens lower-cased when that is provably the same
    (:func:`lowercased_13a_is_cased_lowered`). Metrics that need both (BLEU cased, SARI lower-cased)
    then run the tokenizer once per text.
    """
    if lowercase:
        if tokenizer == "13a" and lowercased_13a_is_cased_lowered(text):
            return tokenized(text, tokenizer, False, store=store).lower()
        text = text.lower()
    return " ".join(get_tokenizer(tokenizer)(text).split())


def tokenize(
    text: str, tokenizer: str, lowercase: bool = False, *, store: StatsStore | None = None
) -> tuple[str, ...]:
    """The tokens of ``text`` after optional lowercasing and the named tokenizer (``moses:de`` for
    a tokenizer's rules of a language other than English: :func:`simpeval.tokenizers.for_language`),
    the text tokenized once while the run's store holds it (:func:`tokenized`)."""
    return tuple(tokenized(text, tokenizer, lowercase, store=store).split())


def lowercased_13a_is_cased_lowered(text: str) -> bool:
    """Whether the 13a tokens of ``text`` lower-cased are its cased 13a tokens, each lower-cased
    (:func:`tokenize`): text with no ``&``, ``<`` or capital sigma.

    13a's rules read ASCII symbols, digits, periods, commas, dashes and whitespace, and the letters of
    entities and of ``<skipped>`` (which lower-casing could create: hence no ``&`` or ``<``). Lower-casing
    maps a character to letters and combining marks only (``İ`` to ``i̇``), each character on its own
    but for the capital sigma, whose lower case depends on what follows it, which 13a may change
    (``ΑΣ.Β``); ``tests/test_metric_text.py`` checks every character Python lower-cases."""
    return "&" not in text and "<" not in text and "\u03a3" not in text


def lowercased_13a_are_cased_lowered(texts: Sequence[str]) -> list[bool]:
    """:func:`lowercased_13a_is_cased_lowered` of each text; one check of them all joined when all are."""
    if lowercased_13a_is_cased_lowered("".join(texts)):
        return [True] * len(texts)
    return [not (amp or lt or sigma) for amp, lt, sigma in zip(
        map(contains, texts, repeat("&")), map(contains, texts, repeat("<")), map(contains, texts, repeat("\u03a3")))]


def tokenized_many(
    texts: Sequence[str], tokenizer: str, lowercase: bool = False, *, store: StatsStore | None = None
) -> list[str]:
    """:func:`tokenized` of each text, in the store under the same keys, the texts not there tokenized
    in one batch (:meth:`~simpeval.tokenizers.base.BaseTokenizer.joined_many`)."""
    args = list(zip(texts, repeat(tokenizer), repeat(lowercase)))
    if store is None:
        return _tokenize_batch(args, store=None)
    return store.get_many(tokenized.__wrapped__, args, compute=_tokenize_batch)  # type: ignore[attr-defined]


def flat_tokens(
    texts: Sequence[str], tokenizer: str, lowercase: bool = False, *, store: StatsStore | None = None
) -> list[str]:
    """Every token of ``texts`` in one list, each text's followed by a lone NUL (``"\x00"``; a text's own
    NUL token stays in the list): :func:`tokenized_many`'s strings, split, for interning
    (:mod:`simpeval.token_rows`). When none of the texts is in the store and they are distinct and
    not lower-cased (a batch's references, the first time), this is the list the tokenizer split its
    batch into (:meth:`~simpeval.tokenizers.base.BaseTokenizer.joined_and_flat`), not the strings
    split again: 500,000 tokens for ASSET's references, made once instead of twice."""
    whole: list[list[str]] = []

    def compute(args: list[tuple[str, str, bool]], *, store: StatsStore | None) -> list[str]:
        if lowercase or len(args) != len(texts):  # not the texts as given: their strings only
            return _tokenize_batch(args, store=store)
        joined, tokens = get_tokenizer(tokenizer).joined_and_flat(texts)
        whole.append(tokens)
        return joined

    args = list(zip(texts, repeat(tokenizer), repeat(lowercase)))
    joined = compute(args, store=None) if store is None else store.get_many(
        tokenized.__wrapped__, args, compute=compute)  # type: ignore[attr-defined]
    return whole[0] if whole else " \x00 ".join([*joined, ""]).split()


def tokenize_many(
    texts: Sequence[str], tokenizer: str, lowercase: bool = False, *, store: StatsStore | None = None
) -> list[tuple[str, ...]]:
    """:func:`tokenize` of each text: :func:`tokenized_many`, split."""
    return [tuple(joined.split()) for joined in tokenized_many(texts, tokenizer, lowercase, store=store)]


def _tokenize_batch(args: list[tuple[str, str, bool]], *, store: StatsStore | None) -> list[str]:
    """:func:`tokenized` of each ``(text, tokenizer, lowercase)``, as it finds them one by one."""
    if not args:
        return []
    settings = set(map(itemgetter(1, 2), args))
    if len(settings) > 1:  # one batch per setting
        found: list[str] = [""] * len(args)
        for tokenizer, lowercase in settings:
            positions = [position for position, arg in enumerate(args) if arg[1:] == (tokenizer, lowercase)]
            for position, joined in zip(positions, _tokenize_batch([args[p] for p in positions], store=store)):
                found[position] = joined
        return found
    (tokenizer, lowercase), = settings
    texts = list(map(itemgetter(0), args))
    if not lowercase:
        return get_tokenizer(tokenizer).joined_many(texts)
    if tokenizer == "13a":  # the cased tokens lower-cased where that is equal (see tokenized)
        easy = lowercased_13a_are_cased_lowered(texts)
        lowered = map(str.lower, tokenized_many(list(compress(texts, easy)), tokenizer, False, store=store))
        hard = iter(get_tokenizer(tokenizer).joined_many([text.lower() for text, e in zip(texts, easy) if not e]))
        return [next(lowered) if e else next(hard) for e in easy]
    return get_tokenizer(tokenizer).joined_many([text.lower() for text in texts])


@stored
def ngram_counts(
    text: str,
    tokenizer: str,
    lowercase: bool = False,
    max_order: int = 4,
    *,
    store: StatsStore | None = None,
) -> NgramCounts:
    """Counts of the n-grams of ``text``, one dict per order 1..``max_order``.

    N-grams are tuples of tokens. Callers must not modify the returned dicts.
    """
    tokens = tokenize(text, tokenizer, lowercase, store=store)
    # zip over shifted copies yields the n-grams as tuples, faster than slicing
    return tuple(
        Counter(zip(*(tokens[i:] for i in range(n)))) for n in range(1, max_order + 1)
    )


@stored
def split_sentences(text: str, lang: str = ENGLISH, *, store: StatsStore | None = None) -> tuple[str, ...]:
    """Punkt sentence splitting: the sentences NLTK's Punkt model of language ``lang`` (ISO 639-1) finds
    (:mod:`simpeval.sentences`; a spaced ellipsis ``. . .`` is three sentence ends, as in NLTK and EASSE)."""
    return tuple(text[start:end] for start, end in sentence_spans(text, lang))
