"""The array n-gram engine against the definitions, counted the slow way with dicts.

The oracle here is written from the formulas (BLEU's clipped matches, SARI's add/keep/delete
counts), not from the engine; random token sequences from a small vocabulary make repeated
n-grams, shared references, empty texts and items with one or many references common.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np

from simpeval.metrics.bleu import bleu_stats
from simpeval.metrics.sari import sari_stats
from simpeval import ngram_table
from simpeval.ngram_table import NgramTable, _ranks, clipped_matches, sari_counts
from simpeval.store import StatsStore, stored_many

ORDER = 4


def grams(tokens: list[str], n: int) -> Counter:
    return Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))


def oracle_bleu(output: list[str], refs: list[list[str]], n: int) -> tuple[int, int]:
    hyp = grams(output, n)
    best: Counter = Counter()
    for ref in refs:
        best |= grams(ref, n)  # union of Counters keeps the highest count
    return sum(min(c, best[g]) for g, c in hyp.items()), sum(hyp.values())


def oracle_sari(source: list[str], output: list[str], refs: list[list[str]], n: int) -> list[tuple[int, int, int]]:
    r = len(refs)
    src, out = grams(source, n), grams(output, n)
    summed = sum((grams(ref, n) for ref in refs), Counter())
    added = set(out) - set(src)
    add = (len(added & set(summed)), len(added), len(set(summed) - set(src)))
    keep_out = {g: min(c * r, out[g] * r) for g, c in src.items()}
    keep_ref = {g: min(c * r, summed[g]) for g, c in src.items()}
    keep = (sum(min(keep_out[g], keep_ref[g]) for g in src), sum(keep_out.values()), sum(keep_ref.values()))
    del_out = {g: c * r - keep_out[g] for g, c in src.items()}
    del_ref = {g: c * r - keep_ref[g] for g, c in src.items()}
    delete = (sum(min(del_out[g], del_ref[g]) for g in src), sum(del_out.values()), sum(del_ref.values()))
    return [add, keep, delete]


def random_items(seed: int, n_items: int = 60) -> tuple[list[list[str]], list[tuple[int, int, list[int]]]]:
    rng = random.Random(seed)
    texts = [[rng.choice("abcde") for _ in range(rng.randint(0, 9))] for _ in range(40)]
    items = [(rng.randrange(40), rng.randrange(40), [rng.randrange(40) for _ in range(rng.randint(0, 4))])
             for _ in range(n_items)]
    return texts, items


def arrays(items):
    sources = np.array([s for s, _, _ in items])
    outputs = np.array([o for _, o, _ in items])
    ref_items = np.array([i for i, (_, _, refs) in enumerate(items) for _ in refs], dtype=np.int64)
    ref_rows = np.array([ref for _, _, refs in items for ref in refs], dtype=np.int64)
    return sources, outputs, ref_items, ref_rows


def test_clipped_matches_equal_the_definition() -> None:
    for seed in range(5):
        texts, items = random_items(seed)
        _, outputs, ref_items, ref_rows = arrays(items)
        correct, total = clipped_matches(NgramTable(texts, ORDER), outputs, ref_items, ref_rows, ORDER)
        for i, (_, out, refs) in enumerate(items):
            for n in range(1, ORDER + 1):
                assert (correct[i, n - 1], total[i, n - 1]) == oracle_bleu(texts[out], [texts[r] for r in refs], n)


def test_sari_counts_equal_the_definition() -> None:
    for seed in range(5):
        texts, items = random_items(seed)
        counts = sari_counts(NgramTable(texts, ORDER), *arrays(items), ORDER)
        for i, (src, out, refs) in enumerate(items):
            for n in range(1, ORDER + 1):
                expected = oracle_sari(texts[src], texts[out], [texts[r] for r in refs], n)
                assert [tuple(counts[i, op, n - 1]) for op in range(3)] == expected


def test_a_table_lowering_cased_rows_counts_as_the_lowered_tokens() -> None:
    """``lowered`` rows keep their cased tokens and count lower-cased (SARI's table shares BLEU's cased
    tokens): the counts equal those of a table of the lower-cased tokens, beside rows taken as they are."""
    for seed in range(5):
        rng = random.Random(seed)
        texts = [[rng.choice(["a", "A", "b", "B", "c", "ab", "AB", "Ab"]) for _ in range(rng.randint(0, 9))]
                 for _ in range(40)]
        lowered = [rng.random() < 0.7 for _ in texts]
        as_counted = [[t.lower() for t in text] if low else text for text, low in zip(texts, lowered)]
        items = random_items(seed)[1]
        assert np.array_equal(sari_counts(NgramTable(texts, ORDER, lowered), *arrays(items), ORDER),
                              sari_counts(NgramTable(as_counted, ORDER), *arrays(items), ORDER))
        _, outputs, ref_items, ref_rows = arrays(items)
        for got, expected in zip(clipped_matches(NgramTable(texts, ORDER, lowered), outputs, ref_items, ref_rows, ORDER),
                                 clipped_matches(NgramTable(as_counted, ORDER), outputs, ref_items, ref_rows, ORDER)):
            assert np.array_equal(got, expected)


def test_references_without_ngrams_of_an_order() -> None:
    """A batch whose references have no n-gram of an order (or none at all) counts as the definition."""
    texts = [["a", "b", "c", "d"], ["a", "b"], ["x"], []]
    for items in ([(0, 1, [2])], [(0, 1, [3])], [(0, 1, [])], [(0, 1, [2, 3]), (1, 0, [1])]):
        counts = sari_counts(NgramTable(texts, ORDER), *arrays(items), ORDER)
        for i, (src, out, refs) in enumerate(items):
            for n in range(1, ORDER + 1):
                expected = oracle_sari(texts[src], texts[out], [texts[r] for r in refs], n)
                assert [tuple(counts[i, op, n - 1]) for op in range(3)] == expected


def test_ranked_codes_count_as_the_codes(monkeypatch) -> None:
    """Codes ranked at every order (a code space of 8) give the counts of the definition."""
    monkeypatch.setattr(ngram_table, "_CODE_SPACE", 8)
    test_clipped_matches_equal_the_definition()
    test_sari_counts_equal_the_definition()


def test_ranks_number_the_distinct_codes_in_order() -> None:
    """Sorted packed with their positions (codes of up to 53 bits here) or by ``np.unique`` (wider)."""
    rng = np.random.default_rng(0)
    for size in (50, 1 << 40, 1 << 53, 1 << 54, 1 << 62):
        codes = rng.integers(0, size, 1000, dtype=np.int64)[rng.integers(0, 1000, 1000)]  # with repeats
        distinct, expected = np.unique(codes, return_inverse=True)
        ranks, number = _ranks(codes, size)
        assert np.array_equal(ranks, expected) and number == len(distinct)
    ranks, number = _ranks(np.zeros(0, dtype=np.int64), 10)
    assert len(ranks) == 0 and number == 1


def test_batch_statistics_are_kept_per_item_and_computed_once() -> None:
    store = StatsStore()
    items = [("a b c .", ("a b .", "a c ."), "none", False), ("x y", ("x",), "none", False)]
    first = bleu_stats(items, store=store)
    assert store.count(bleu_stats) == 2
    misses = store.misses
    again = bleu_stats([items[1], items[0], items[1]], store=store)
    assert store.misses == misses and again == [first[1], first[0], first[1]]
    assert first[0].correct == (4, 2, 0, 0) and first[0].total == (4, 3, 2, 1)
    assert bleu_stats([], store=store) == [] and sari_stats([], store=store) == []


def test_stored_many_passes_only_missing_distinct_arguments() -> None:
    calls = []

    @stored_many
    def double(args_list, *, store=None):
        calls.append(list(args_list))
        return [2 * x for (x,) in args_list]

    store = StatsStore(max_entries=3)
    assert double([(1,), (2,), (1,)], store=store) == [2, 4, 2]
    assert double([(2,), (3,)], store=store) == [4, 6]
    assert calls == [[(1,), (2,)], [(3,)]]
    assert double([(4,), (5,), (6,), (7,)], store=store) == [8, 10, 12, 14]  # more than the bound
    assert len(store) == 3 and store.peak == 3
