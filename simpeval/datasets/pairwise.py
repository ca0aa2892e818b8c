"""Pairwise datasets: two outputs of the same input and which one humans (or a construction) prefer.

Why a kind of its own: a pairwise judgement has no score per output to correlate with, only an
order. A :class:`PairwiseDataset` is still a :class:`~simpeval.datasets.base.Dataset` (its items are
the outputs, two per pair, so metrics score them through the same runner and cache), and it adds
:attr:`PairwiseDataset.pairs`: the two items of each pair and whether the second is preferred.
The statistics over pairs (agreement, ties, intervals) are in :mod:`simpeval.metaeval.pairwise`.

The items' human "score" is 1 for the preferred output of its pair and 0 for the other, so that
the base class's bookkeeping holds; correlating it is not meaningful and ``meta-evaluate``
reports pair agreement for these datasets instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from simpeval.datasets.base import Dataset, Item, Judgements


@dataclass(frozen=True)
class Pairs:
    """``first[k]`` and ``second[k]`` index the items of pair ``k``; ``second_preferred[k]`` its judgement."""

    first: np.ndarray
    second: np.ndarray
    second_preferred: np.ndarray

    def __len__(self) -> int:
        return len(self.first)


def pair_judgements(outputs: list[tuple[Item, Item]], second_preferred: list[bool], aspect: str) -> tuple[
        Judgements, Pairs]:
    """The items (first and second output of each pair, in turn) and the pairs over them."""
    items = [item for pair in outputs for item in pair]
    preferred = np.array(second_preferred, dtype=bool)
    score = np.column_stack([~preferred, preferred]).ravel().astype(float)
    pairs = Pairs(np.arange(0, len(items), 2), np.arange(1, len(items), 2), preferred)
    return Judgements(items=items, raw={aspect: score}), pairs


class PairwiseDataset(Dataset):
    """A dataset of pairs; subclasses' :meth:`read_pairs` returns the judgements and the pairs."""

    kind: ClassVar[str] = "pairwise"
    key_columns = ("pair", "side")

    def read(self, *paths):  # noqa: ANN002, ANN201 - the base class's signature
        judgements, self.pairs = self.read_pairs(*paths)
        return judgements

    def read_pairs(self, *paths) -> tuple[Judgements, Pairs]:  # noqa: ANN002
        raise NotImplementedError
