"""How the pairs of items split into concordant, discordant and tied ones, in O(n log n), for many rows at once.

Kendall's tau-b, Deutsch et al. (2023)'s tau_23 and acc_23 are all sums over the n(n-1)/2 pairs of
items. Comparing every pair costs O(n^2) per vector, which a resampling test repeats a thousand
times per pair of metrics (a 30-minute ``meta-evaluate --correlation kendall-23 --rank`` on
2,400 items). Sorting gives the same integers in O(n log n) (Knight 1966, the algorithm behind
scipy's ``kendalltau``):

- pairs tied in a vector: the sum of g(g-1)/2 over its groups of equal values (runs once sorted);
- pairs tied in both: the same over groups equal in both vectors;
- discordant pairs: the strict inversions of the metric in the order of (human, metric), counted
  by a bottom-up merge sort.

Every step runs on a whole matrix of rows at once (one row per resample), so a test's thousand
resamples cost a few numpy calls per merge level, not a thousand Python loops; the human ranks
are computed once when every row shares the human vector (a permutation test). Values must be
finite: callers drop missing items first.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

_FIRST_BLOCK = 32
"""Blocks of up to this many values count their inversions by comparing every pair inside them
(cheaper than merge levels of tiny blocks); merging starts from there."""


@dataclass(frozen=True)
class PairClasses:
    """Per row: the pairs tied in the human scores (``tied_human``, those tied in both included),
    tied in the metric (``tied_metric``, idem), tied in both, and discordant (neither tied, opposite
    order). ``pairs`` is n(n-1)/2."""

    pairs: int
    tied_human: np.ndarray
    tied_metric: np.ndarray
    tied_both: np.ndarray
    discordant: np.ndarray

    @property
    def concordant(self) -> np.ndarray:
        return self.pairs - self.tied_human - self.tied_metric + self.tied_both - self.discordant


def _rank_dtype(n: int) -> type:
    """The smallest integer type that holds ranks up to ``n`` (numpy radix-sorts 16-bit keys)."""
    return np.int16 if n < 1 << 15 else np.int32 if n < 1 << 31 else np.int64


def dense_ranks(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each row's dense ranks (0, 1, 2... ties sharing one), its sorting order, and its tied pairs."""
    rows = np.atleast_2d(rows)
    order = np.argsort(rows, axis=1)
    ordered = np.take_along_axis(rows, order, axis=1)
    new = _run_starts(ordered)
    ranks = np.empty(rows.shape, dtype=_rank_dtype(rows.shape[1]))
    np.put_along_axis(ranks, order, np.cumsum(new, axis=1) - 1, axis=1)
    return ranks, order, _tied_pairs(new)


def _run_starts(ordered: np.ndarray) -> np.ndarray:
    """Where a sorted row's value differs from the one before it (always at the first position)."""
    new = np.ones(ordered.shape, dtype=bool)
    new[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    return new


def _tied_pairs(new: np.ndarray) -> np.ndarray:
    """Pairs of equal values per row, from the run starts of the sorted row: each value ties with
    the values of its run before it."""
    position = np.broadcast_to(np.arange(new.shape[1]), new.shape)
    start = np.maximum.accumulate(np.where(new, position, 0), axis=1)
    return (position - start).sum(axis=1)


def inversions(rows: np.ndarray) -> np.ndarray:
    """Per row, the pairs i < j with ``row[i] > row[j]`` (ties are no inversion).

    :param rows: integers from 0 to the row length - 1 (ranks).

    Blocks of :data:`_FIRST_BLOCK` values count their own inversions pair by pair; then a bottom-up
    merge sort: at each level adjacent sorted blocks of ``width`` values merge, and each value of
    the right block passes the values of the left block greater than it. A stable argsort puts
    equal values left-first, so a right value at merged position p with index q in its block has
    p - q left values at most it and ``width - p + q`` greater: summed over the right block,
    ``width**2 + width (width - 1) / 2`` minus the right values' merged positions. Padding with
    the row length (greater than every rank) at the end forms no inversion.
    """
    rows = np.atleast_2d(rows)
    n_rows, n = rows.shape
    size = 1 << max(0, (n - 1).bit_length())
    values = np.full((n_rows, size), n, dtype=_rank_dtype(n))
    values[:, :n] = rows
    first = min(_FIRST_BLOCK, size)
    blocks = values.reshape(n_rows, size // first, first)
    total = np.zeros(n_rows, dtype=np.int64)
    for i in range(first - 1):
        total += np.count_nonzero(blocks[..., i:i + 1] > blocks[..., i + 1:], axis=(1, 2))
    values = np.sort(blocks, axis=-1).reshape(n_rows, size)
    width = first
    while width < size:
        blocks = values.reshape(n_rows, size // (2 * width), 2 * width)
        order = np.argsort(blocks, axis=-1, kind="stable")
        positions = np.where(order >= width, np.arange(2 * width, dtype=np.int64), 0).sum(axis=(1, 2))
        total += blocks.shape[1] * (width * width + width * (width - 1) // 2) - positions
        values = np.take_along_axis(blocks, order, axis=-1).reshape(n_rows, size)
        width *= 2
    return total


def pair_classes(human: np.ndarray, metric: np.ndarray) -> PairClasses:
    """The pair classes of each row of ``metric`` against ``human`` (a vector every row shares, or a
    matrix of the same shape: a bootstrap resamples both)."""
    metric = np.atleast_2d(np.asarray(metric, dtype=float))
    human = np.asarray(human, dtype=float)
    n_rows, n = metric.shape
    if human.shape[-1] != n:
        raise ValueError(f"vectors differ in length: {human.shape[-1]} and {n}")
    if n < 2:
        none = np.zeros(n_rows, dtype=np.int64)
        return PairClasses(0, none, none, none, none)
    h_ranks, _, tied_human = dense_ranks(human)  # once for a shared human vector
    m_ranks, m_order, tied_metric = dense_ranks(metric)
    if human.ndim == 1:
        h_ranks, tied_human = np.broadcast_to(h_ranks, metric.shape), np.broadcast_to(tied_human, n_rows)
    # the items in the order of (human, metric): the metric's order, stably sorted by human rank
    h_by_metric = np.take_along_axis(h_ranks, m_order, axis=1)
    by_human = np.argsort(h_by_metric, axis=1, kind="stable")
    order = np.take_along_axis(m_order, by_human, axis=1)
    h_sorted = np.take_along_axis(h_ranks, order, axis=1)
    m_sorted = np.take_along_axis(m_ranks, order, axis=1)
    new = _run_starts(h_sorted) | _run_starts(m_sorted)
    return PairClasses(
        pairs=n * (n - 1) // 2,
        tied_human=np.asarray(tied_human),
        tied_metric=tied_metric,
        tied_both=_tied_pairs(new),
        discordant=inversions(m_sorted),
    )
