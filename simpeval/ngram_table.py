"""N-gram statistics of many items at once, on integer arrays: the cold path of BLEU and SARI.

Counting every text's n-grams into Python dicts costs a tuple and a dict entry per n-gram, and with
ten references per item that is most of the time BLEU and SARI take when nothing is cached. Here
the texts of a batch become one array of token ids, every n-gram one integer code (equal n-grams
get equal codes within a table), and the per-item statistics are sums over sorted arrays of
``item * codes + code`` keys, in numpy. Every count is an exact integer, so the statistics equal
the per-text formulas they replace; the EASSE-parity tests and the sacrebleu oracle tests guard
that. Large temporaries are updated in place where that reads as plainly (``+=``, ``sort()``): an
array of every position is 4.5 MB for ASSET, which the C heap hands back to the system once freed,
so each one not made is also 1,100 page faults the kernel does not serve.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain, count

import numpy as np

__all__ = ["NgramTable", "clipped_matches", "lowered_ids", "sari_counts"]


# n-gram codes are kept below this, so ``owner * size + code`` keys fit in 64 bits for up to 2^22 owners
_CODE_SPACE = 1 << 40


class NgramTable:
    """Token ids of some texts, concatenated, and an integer code per n-gram position and order.

    The code of the n-gram at position ``p`` is (code of the (n-1)-gram at ``p``) * ``base`` +
    (id of token ``p + n - 1``), so two n-grams share a code exactly when their tokens are equal;
    when codes would outgrow ``_CODE_SPACE`` they are replaced by their ranks (still exact, and
    dense). ``sizes[n - 1]`` bounds the order-``n`` codes. Positions whose n-gram would cross into
    the next text get a code too; :meth:`grams` never returns them.
    """

    def __init__(
        self, token_lists: Sequence[Sequence[str]], max_order: int, lowered: Sequence[bool] | None = None
    ) -> None:
        """``lowered[i]``: the tokens of text ``i`` count lower-cased (the table then holds the cased
        tokens that 13a and BLEU share, and lower-cases the distinct ones instead of every text)."""
        vocabulary: dict[str, int] = {}
        flat = list(chain.from_iterable(token_lists))
        # a token's id is the position where it first occurs: unique, and below len(flat)
        ids = np.fromiter(map(vocabulary.setdefault, flat, count()), dtype=np.int64, count=len(flat))
        lengths = np.fromiter(map(len, token_lists), dtype=np.int64, count=len(token_lists))
        base = len(flat) + 1
        if lowered is not None and any(lowered):
            ids, base = lowered_ids(vocabulary, ids, np.repeat(np.asarray(lowered, dtype=bool), lengths), base)
        self._build(ids, lengths, base, max_order)

    @classmethod
    def of_ids(cls, ids: np.ndarray, lengths: np.ndarray, base: int, max_order: int) -> NgramTable:
        """The table of texts given as token ids below ``base`` (concatenated) and their lengths."""
        table = cls.__new__(cls)
        table._build(ids, lengths, base, max_order)
        return table

    def _build(self, ids: np.ndarray, lengths: np.ndarray, base: int, max_order: int) -> None:
        if max_order > 1:
            ids, base = _dense(ids, base)
        self.lengths = lengths
        self.starts = np.cumsum(self.lengths) - self.lengths
        self.codes = [ids]
        self.sizes = [base]
        codes, size = ids, base
        for n in range(2, max_order + 1):
            if size * base >= 1 << 62:  # rank first, so that the product below fits in int64
                codes, size = _ranks(codes, size)
            codes = codes[:-1] * base
            codes += ids[n - 1:]  # in place: one array of every position fewer
            size *= base
            if size > _CODE_SPACE:
                codes, size = _ranks(codes, size)
            self.codes.append(codes)
            self.sizes.append(size)

    def grams(self, rows: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
        """The order-``n`` codes of the texts ``rows``, concatenated, and for each code the
        index into ``rows`` of the text it comes from."""
        counts = np.maximum(self.lengths[rows] - n + 1, 0)
        owner = np.repeat(np.arange(len(rows)), counts)
        # each n-gram's index among the rows' n-grams, shifted by its row's start less the n-grams of the
        # rows before it: one shift per row, gathered once (two arrays of the references' 470,000 fewer)
        positions = np.arange(len(owner))
        positions += (self.starts[rows] - (np.cumsum(counts) - counts))[owner]
        return self.codes[n - 1][positions], owner


def lowered_ids(vocabulary: dict[str, int], ids: np.ndarray, lower: np.ndarray, base: int) -> tuple[np.ndarray, int]:
    """``ids`` (of the tokens of ``vocabulary``, each below ``base``) with the ids where ``lower`` is set
    replaced by the id of the token lower-cased (a new id, from ``base`` up, for a form not in the
    vocabulary), and the new bound. ``vocabulary`` is left as it is."""
    strings, first = list(vocabulary), np.fromiter(vocabulary.values(), dtype=np.int64, count=len(vocabulary))
    lowered = np.arange(base, dtype=np.int64)
    # a form not in the vocabulary takes the count's value at its string: below base + len(strings)
    lowered[first] = np.fromiter(map(dict(vocabulary).setdefault, map(str.lower, strings), count(base)),
                                 dtype=np.int64, count=len(strings))
    return np.where(lower, lowered[ids], ids), base + len(strings)


def _dense(ids: np.ndarray, base: int) -> tuple[np.ndarray, int]:
    """``ids`` (each below ``base``) renumbered 0, 1, ... in the order of their values, and their number.

    Token ids are positions (a token's first one: :class:`~simpeval.token_rows.TextRows` interns at C
    speed that way), so ``base`` is about the number of tokens; renumbered, it is the number of
    distinct tokens, and the trigram codes stay small enough for :func:`_ranks` to sort them packed
    (ASSET's 18,000 distinct tokens among 570,000 cube to 43 bits, where the positions cube to 58).
    """
    present = np.zeros(base, dtype=bool)
    present[ids] = True
    renumbered = np.cumsum(present) - 1
    return renumbered[ids], max(int(renumbered[-1]) + 1 if base else 0, 1)


def _ranks(codes: np.ndarray, size: int) -> tuple[np.ndarray, int]:
    """Each code (below ``size``) replaced by its rank among the distinct codes, and their number.

    When a code and its position fit in 63 bits together, the ranks come from sorting the codes with
    their positions packed below them (a plain sort, which numpy vectorises, where ``np.unique``'s
    inverse needs an ``argsort``: 4.4 instead of 10.8 ms on ASSET's 517,000 trigram codes)."""
    shift = max(len(codes) - 1, 1).bit_length()
    if (size - 1).bit_length() + shift > 63:
        distinct, ranks = np.unique(codes, return_inverse=True)
        return ranks, max(len(distinct), 1)
    packed = codes << shift
    packed |= np.arange(len(codes))
    packed.sort()  # in place, as are the steps around it: each an array of every position fewer
    starts = _starts(packed >> shift)
    packed &= (1 << shift) - 1
    ranks = np.empty(len(codes), dtype=np.int64)
    ranks[packed] = np.cumsum(starts) - 1
    return ranks, max(int(starts.sum()), 1)


def _distinct_counts(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(values, return_counts=True)`` of an array the caller made for it, which is sorted in
    place: a plain sort and one comparison pass, which on the 300,000 to 400,000 keys of ASSET's
    references takes two thirds of ``np.unique``'s time."""
    values.sort()
    first = np.flatnonzero(_starts(values))
    return values[first], np.diff(first, append=len(values))


def _starts(ordered: np.ndarray) -> np.ndarray:
    """Where each value of the sorted ``ordered`` differs from the one before (at 0 always)."""
    starts = np.empty(len(ordered), dtype=bool)
    starts[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=starts[1:])
    return starts


def _keyed_counts(owners: np.ndarray, codes: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Distinct ``owner * size + code`` keys, sorted, and how often each occurs (``owners`` ascending)."""
    if len(owners) and int(owners[-1]) >= (1 << 63) // size - 1:
        raise ValueError(f"{int(owners[-1]) + 1} items are too many for one batch's 64-bit n-gram keys: "
                         "pass a smaller --batch-size")
    keys = owners * size
    keys += codes
    return _distinct_counts(keys)


def _positions(sorted_keys: np.ndarray, queries: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each query: whether it is in ``sorted_keys``, and its index there (0 where absent)."""
    if len(sorted_keys) == 0:
        return np.zeros(len(queries), dtype=bool), np.zeros(len(queries), dtype=np.int64)
    index = np.searchsorted(sorted_keys, queries)
    index[index == len(sorted_keys)] = 0
    return sorted_keys[index] == queries, index


def _lookup(sorted_keys: np.ndarray, values: np.ndarray, queries: np.ndarray) -> np.ndarray:
    """The value of each query's key in ``sorted_keys``, 0 where the key is absent."""
    found, index = _positions(sorted_keys, queries)
    return np.where(found, values[index], 0) if len(values) else np.zeros(len(queries), dtype=np.int64)


def _contains(sorted_keys: np.ndarray, queries: np.ndarray) -> np.ndarray:
    return _positions(sorted_keys, queries)[0]


def _per_item(keys: np.ndarray, size: int, n_items: int, weights: np.ndarray | None = None) -> np.ndarray:
    """Sum of ``weights`` (or the number of keys) per item, as exact integers."""
    totals = np.bincount(keys // size, weights=weights, minlength=n_items)
    return np.rint(totals).astype(np.int64) if weights is not None else totals


def clipped_matches(
    table: NgramTable, outputs: np.ndarray, ref_items: np.ndarray, ref_rows: np.ndarray, max_order: int
) -> tuple[np.ndarray, np.ndarray]:
    """BLEU's counts: per item and order, the output's n-grams matched by the references (each
    clipped to its highest count in any one reference) and the output's number of n-grams.

    ``outputs`` holds each item's row; ``ref_items``/``ref_rows`` list (item, reference row) pairs.
    Both results have shape (items, ``max_order``).
    """
    n_items = len(outputs)
    correct = np.zeros((n_items, max_order), dtype=np.int64)
    total = np.zeros((n_items, max_order), dtype=np.int64)
    ref_lengths = table.lengths[ref_rows]
    found = np.zeros(0, dtype=bool)  # per reference n-gram of the order before: among its item's output's
    for n in range(1, max_order + 1):
        size = table.sizes[n - 1]
        codes, owner = table.grams(outputs, n)
        out_keys, out_counts = _keyed_counts(owner, codes, size)
        total[:, n - 1] = np.bincount(owner, minlength=n_items)
        # each reference n-gram keyed by its item, looked up among the output's n-grams; only those whose
        # two (n-1)-grams were found can be (the n-gram at p holds the (n-1)-grams at p and p + 1)
        codes, pair = table.grams(ref_rows, n)
        if n == 1:
            looked = np.arange(len(codes))
            looked_pairs, looked_codes = pair, codes
        else:
            # a reference with an n-gram has one (n-1)-gram more: shift each position by the references
            # before its own that have (n-1)-grams
            has_before = ref_lengths >= n - 1
            before = (np.cumsum(has_before) - has_before)[pair]
            before += np.arange(len(codes))
            looked = np.flatnonzero(found[before] & found[1:][before])  # found[1:][p] is found[p + 1]
            looked_pairs, looked_codes = pair[looked], codes[looked]
        hit, index = _positions(out_keys, ref_items[looked_pairs] * size + looked_codes)
        found = np.zeros(len(codes), dtype=bool)
        found[looked[hit]] = True
        # the most times one reference has each of the output's n-grams clips its count
        per_reference, times = _distinct_counts(pair[looked[hit]] * len(out_keys) + index[hit])
        best = np.zeros(len(out_keys), dtype=np.int64)
        np.maximum.at(best, per_reference % max(len(out_keys), 1), times)
        matched = np.minimum(out_counts, best)
        correct[:, n - 1] = _per_item(out_keys, size, n_items, matched)
    return correct, total


def sari_counts(
    table: NgramTable,
    sources: np.ndarray,
    outputs: np.ndarray,
    ref_items: np.ndarray,
    ref_rows: np.ndarray,
    max_order: int,
) -> np.ndarray:
    """SARI's counts per item, operation (add, keep, delete), order and kind (correct, output
    total, reference total): an array of shape (items, 3, ``max_order``, 3).

    Add counts distinct n-grams (the output's not in the source, the references' not in the
    source); keep and delete weigh the source's counts by the number of references r against
    r times the output's counts and the references' summed counts, as :mod:`simpeval.metrics.sari`
    describes.
    """
    n_items = len(outputs)
    n_refs = np.bincount(ref_items, minlength=n_items)
    result = np.zeros((n_items, 3, max_order, 3), dtype=np.int64)
    for n in range(1, max_order + 1):
        size = table.sizes[n - 1]
        codes, item = table.grams(sources, n)
        src_keys, src_counts = _keyed_counts(item, codes, size)
        codes, item = table.grams(outputs, n)
        out_keys, out_counts = _keyed_counts(item, codes, size)
        codes, pair = table.grams(ref_rows, n)
        # the distinct reference n-grams of each item (sorted) and how often its references have them
        ref_keys, ref_counts = _keyed_counts(ref_items[pair], codes, size)
        # each source n-gram looked up among the references' (the fewer keys searched in the more)
        in_ref_keys, at = _positions(ref_keys, src_keys)
        in_refs = np.where(in_ref_keys, ref_counts[at] if len(ref_keys) else 0, 0)  # R: summed over the references
        novel = np.delete(ref_keys, at[in_ref_keys])  # the distinct n-grams the references add

        added = out_keys[~_contains(src_keys, out_keys)]
        result[:, 0, n - 1] = np.stack([
            _per_item(added[_contains(novel, added)], size, n_items),
            _per_item(added, size, n_items),
            _per_item(novel, size, n_items),
        ], axis=1)

        r = n_refs[src_keys // size]
        in_src = src_counts * r
        kept_out = np.minimum(_lookup(out_keys, out_counts, src_keys) * r, in_src)
        kept_ref = np.minimum(in_refs, in_src)
        keep_correct, keep_out, keep_ref, keep_either, source_total = (
            _per_item(src_keys, size, n_items, weights)
            for weights in (np.minimum(kept_out, kept_ref), kept_out, kept_ref, np.maximum(kept_out, kept_ref), in_src)
        )
        result[:, 1, n - 1] = np.stack([keep_correct, keep_out, keep_ref], axis=1)
        # deleted = r*I - kept, so min(r*I - kept_out, r*I - kept_ref) = r*I - max(kept_out, kept_ref)
        result[:, 2, n - 1] = np.stack(
            [source_total - keep_either, source_total - keep_out, source_total - keep_ref], axis=1)
    return result
