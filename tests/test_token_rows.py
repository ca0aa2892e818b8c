"""BLEU and SARI on one batch share the rows of its texts (simpeval.token_rows), and the sharing
changes no count: the statistics equal those each metric computes alone."""

from __future__ import annotations

from simpeval.metrics.bleu import bleu_stats
from simpeval.metrics.sari import sari_stats
from simpeval.store import StatsStore
from simpeval.token_rows import _batch_rows

SOURCES = ["The Cat sat on the MAT .", "Über & <b> Straße", "It costs 3.50 , not 4,000 ."]
OUTPUTS = ["The cat sat .", "über & straße", "It costs 3.50 ."]
REFERENCES = [("the cat sat on the mat .", "The CAT sat ."), ("Über Straße", "uber &amp; strasse"), ("It is 3.50 .",)]


def bleu_items(lowercase: bool) -> list[tuple]:
    return [(output, refs, "13a", lowercase) for output, refs in zip(OUTPUTS, REFERENCES)]


def sari_items() -> list[tuple]:
    return [(src, out, refs, "13a", True, None) for src, out, refs in zip(SOURCES, OUTPUTS, REFERENCES)]


def test_bleu_and_sari_share_the_batch_rows_and_count_as_alone() -> None:
    for first_bleu in (True, False):
        store = StatsStore()
        if first_bleu:
            bleu, sari = bleu_stats(bleu_items(False), store=store), sari_stats(sari_items(), store=store)
        else:
            sari, bleu = sari_stats(sari_items(), store=store), bleu_stats(bleu_items(False), store=store)
        assert store.count(_batch_rows) == 1
        assert bleu == bleu_stats(bleu_items(False), store=None)
        assert sari == sari_stats(sari_items(), store=None)
        # lower-cased BLEU on the same rows (the table lower-cases the shared cased rows)
        assert bleu_stats(bleu_items(True), store=store) == bleu_stats(bleu_items(True), store=None)
        assert store.count(_batch_rows) == 1


def test_a_text_holding_a_lone_nul_keeps_its_tokens() -> None:
    """The rows of a batch are cut where each text's tokens end; a token "\\x00" of a text's own (the
    whitespace tokenizer keeps one) counts as a token, as the oracle's per-text n-grams count it."""
    items = [("a \x00 b", ("a \x00 b", "a b"), "none", False), ("x", ("x \x00",), "none", False)]
    store = StatsStore()
    assert bleu_stats(items, store=store) == [bleu_stats([item], store=None)[0] for item in items]
    stats = bleu_stats(items, store=None)
    assert (stats[0].hyp_len, stats[0].correct[:2]) == (3, (3, 2))


def test_flat_tokens_are_the_tokenized_strings_split() -> None:
    """The tokenizer's own list (texts new to the store) and the stored strings split give the same
    tokens, a lone NUL after each text's, whether or not a text holds a NUL of its own."""
    from simpeval.text import flat_tokens, tokenized, tokenized_many
    from simpeval.tokenizers import get_tokenizer

    for texts in ([*SOURCES, *OUTPUTS, ""], ["a\x00b.", "1.5,c", ""], []):
        for tokenizer in ("13a", "none"):
            expected = " \x00 ".join([*(get_tokenizer(tokenizer)(text) for text in texts), ""]).split()
            joined, flat = get_tokenizer(tokenizer).joined_and_flat(texts)
            assert (joined, flat) == (tokenized_many(texts, tokenizer, store=None), expected)
            store = StatsStore()
            assert flat_tokens(texts, tokenizer, store=store) == expected  # tokenized here
            # the strings are kept as tokenized() keeps them, each counted as computed once
            assert (len(store), store.misses) == (len(texts), len(texts))
            assert [tokenized(text, tokenizer, False, store=store) for text in texts] == joined
            assert flat_tokens(texts, tokenizer, store=store) == expected  # from the store
            assert store.misses == len(texts)
            assert flat_tokens(texts, tokenizer, True, store=store) == " \x00 ".join(
                [*tokenized_many(texts, tokenizer, True, store=None), ""]).split()
