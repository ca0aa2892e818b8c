"""The rated datasets a trainer without rated training data is judged, and chooses, on.

SIERA learns from edit-augmented parallel pairs and SLE from reading levels: neither sees a
human rating in training. What they do choose (an epoch, a seed, a setting) is chosen here, by
leave-one-dataset-out over the rated datasets (:func:`simpeval.learning.loo.leave_one_dataset_out`),
next to the registry baselines on the same items (:mod:`simpeval.learning.baselines`, computed when
first read), so their report is judged as the rated trainers' is (:mod:`simpeval.learning.verdict`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path

import numpy as np

from simpeval.learning import DEFAULT_DATASETS
from simpeval.learning.loo import Rated
from simpeval.learning.rated import RatedSet, aspect_sets, load_rated

__all__ = ["DEFAULT_DATASETS", "Judge", "judge_for", "load_judge"]


@dataclass(frozen=True)
class Judge:
    """Per dataset: its outputs, the aspect's z-scored labels, and the baselines' scores."""

    sets: tuple[RatedSet, ...]
    labels: dict[str, np.ndarray]
    aspect: str = "simplicity"

    @classmethod
    def of(cls, sets: Sequence[RatedSet], aspect: str = "simplicity") -> Judge:
        """A judge over ``sets``, each holding (z-scored) labels of ``aspect``."""
        return cls(tuple(sets), {s.name: s.labels[aspect] for s in sets}, aspect)

    @cached_property
    def baselines(self) -> dict[str, dict[str, np.ndarray]]:
        """Per dataset, every registry baseline on its items (scored when first read, through the score cache)."""
        from simpeval.learning.baselines import baseline_scores

        return {s.name: baseline_scores(s.sources, s.outputs, s.references) for s in self.sets}

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.sets]

    def rated(self) -> Rated:
        """These datasets as :func:`~simpeval.learning.loo.leave_one_dataset_out` chooses on them (each fold's
        choice never reads the items the other datasets share with the one it leaves out)."""
        return Rated(self.labels, self.baselines, {s.name: s.keys for s in self.sets})


def load_judge(data_dir: Path, names: Sequence[str] = DEFAULT_DATASETS, aspect: str = "simplicity") -> Judge:
    """The named rated datasets (SimpEval_2022 refused) with their ``aspect`` labels and the baselines."""
    pairs = aspect_sets(load_rated(data_dir, names), aspect)
    if len(pairs) < 2:
        from simpeval.errors import UsageError

        raise UsageError(f"leave-one-dataset-out needs at least two datasets rating {aspect}: give more --datasets")
    return Judge.of([replace(s, labels={aspect: labels}) for s, labels in pairs], aspect)


def judge_for(data_dir: Path, names: Sequence[str], option: str = "--rated-datasets") -> Judge | None:
    """The judge over the rated datasets an option names (test data refused in the option's words); None for none."""
    if not names:
        return None
    from simpeval.learning.rated import check_trainable

    check_trainable(names, option)
    return load_judge(data_dir, names)
