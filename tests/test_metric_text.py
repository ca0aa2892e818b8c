"""The shared tokenisation cache and the named tokenizers."""

from __future__ import annotations

import pytest

from simpeval import UsageError
from simpeval.text import clear_caches, ngram_counts, tokenize
from simpeval.tokenizers import TOKENIZER_NAMES, get_tokenizer


def test_tokenizers_by_name() -> None:
    assert set(TOKENIZER_NAMES) == {"none", "13a", "intl", "moses", "nltk"}
    assert get_tokenizer("13a")("Hello, world.") == "Hello , world ."
    # intl also splits Unicode symbols and quotes off their neighbours
    assert get_tokenizer("intl")("Price: 5€, “ok”.") == "Price : 5 € , “ ok ” ."
    assert get_tokenizer("intl").signature() == "intl"
    # Moses without escaping keeps & and quotes as they are (the metaeval-2021 setting).
    assert get_tokenizer("moses")('He said "no" & left.') == 'He said " no " & left .'
    assert get_tokenizer("none")("  a   b ") == "a b"
    assert get_tokenizer("moses").signature() == "moses"
    assert get_tokenizer("13a") is get_tokenizer("13a")
    with pytest.raises(UsageError, match='unknown tokenizer "penn"'):
        get_tokenizer("penn")


def test_texts_are_tokenized_once() -> None:
    clear_caches()
    tokenize("The same text.", "13a", True)
    ngram_counts("The same text.", "13a", True)
    ngram_counts("The same text.", "13a", True)
    assert tokenize.cache_info().misses == 1
    assert ngram_counts.cache_info().misses == 1
    assert ngram_counts("a b a b", "none")[1] == {("a", "b"): 2, ("b", "a"): 1}
