"""Which rated datasets share items with a learned metric's training data, measured from the items.

A metric's ``trained_on`` names the datasets its weights saw. Naming is not enough to keep
training-set numbers off the leaderboard: WIKI-DA is Simplicity-DA minus some originals, so a
metric trained on Simplicity-DA has seen every WIKI-DA item without naming it. Here each item is
reduced to a digest of its ``(source, output)`` pair, letters and digits case folded
(:mod:`simpeval.itemkeys`, as the leave-one-dataset-out folds key it), and a column dataset *overlaps* a training dataset when
some of its items' digests are among the training dataset's.
Hashing keeps this cheap (a few thousand digests per dataset, set lookups).

A training dataset is read as a registered rated dataset (its items) or as a named test set
(each source with each of its references: the pairs a trainer on ``asset_valid`` sees). A name
that is neither (a corpus such as OneStopEnglish, read by its own trainer) cannot be checked and
is reported as such.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from simpeval.errors import UsageError
from simpeval.itemkeys import digest, pair_keys

if TYPE_CHECKING:
    from simpeval.registry import Registry


@dataclass(frozen=True)
class Overlap:
    """How many of ``dataset``'s items (and distinct sources) are also items of ``training``."""

    dataset: str
    training: str
    shared: int
    items: int
    shared_sources: int
    sources: int

    def describe(self) -> str:
        return (f"{self.dataset}: {self.shared}/{self.items} items also in {self.training} "
                f"({self.shared_sources}/{self.sources} of its sources)")


@dataclass(frozen=True)
class Items:
    """A dataset reduced to digests: one per item's (source, output) pair, and its distinct sources."""

    pairs: tuple[bytes, ...]
    sources: frozenset[bytes]

    @classmethod
    def of(cls, sources: Sequence[str], outputs: Sequence[str]) -> Items:
        return cls(pair_keys(sources, outputs), frozenset(digest(s) for s in sources))


def measure(name: str, items: Items, training: str, seen: Items) -> Overlap:
    """The share of ``items`` (a column dataset's) that ``seen`` (a training dataset's) holds."""
    pairs = set(seen.pairs)
    return Overlap(name, training, sum(p in pairs for p in items.pairs), len(items.pairs),
                   len(items.sources & seen.sources), len(items.sources))


def training_items(registry: Registry, data_dir: Path, name: str) -> Items | None:
    """The items a trainer on ``name`` saw: a rated dataset's items, or a test set's (source,
    reference) pairs (``asset-valid`` and ``asset_valid`` both name the test set); None when
    ``name`` is neither or its files are missing."""
    from simpeval.datasets.testsets import TEST_SETS, load_test_set

    try:
        if name in registry.datasets:
            dataset = registry.dataset_class(name)(data_dir)
            return Items.of(dataset.sources, dataset.outputs)
        test_set = name.replace("-", "_")
        if test_set in TEST_SETS:
            loaded = load_test_set(data_dir, test_set)
            pairs = [(s, r) for s, refs in zip(loaded.sources, loaded.references) for r in refs]
            return Items.of([s for s, _ in pairs], [r for _, r in pairs])
    except UsageError:
        return None
    return None


def overlaps(registry: Registry, data_dir: Path, columns: dict[str, Items],
             training: Iterable[str]) -> tuple[list[Overlap], list[str]]:
    """Every (column dataset, training dataset) pair that shares items, and the training names
    that could not be read (so their overlap is unknown)."""
    found, unchecked = [], []
    for name in sorted(set(training)):
        seen = columns.get(name) or training_items(registry, data_dir, name)
        if seen is None:
            unchecked.append(name)
            continue
        for column, items in sorted(columns.items()):
            overlap = measure(column, items, name, seen)
            if overlap.shared:
                found.append(overlap)
    return found, unchecked
