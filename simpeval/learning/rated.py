"""Human-rated datasets as training material for one aspect, ratings normalised per dataset.

Rating protocols differ (0-100 direct assessment z-scored per rater, -2..2 expert Likert, 0-100
overall quality), so each dataset's labels are z-scored on their own before datasets are pooled:
a learned metric should rank outputs within a dataset, not learn which dataset an output came from.

Which label stands for an aspect is stated, not guessed: :data:`LABELS` names, per aspect, each
dataset's column. SimpEval_2022 is test data (Kwak et al. 2024's Table 1): asking for it is an error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simpeval.errors import UsageError

__all__ = ["EXCLUDED_SYSTEMS", "LABELS", "LABEL_NOTES", "TEST_ONLY", "RatedSet", "aspect_sets", "check_trainable",
           "load_rated", "zscore"]

TEST_ONLY = ("simpeval-2022",)
"""Datasets no trainer may train or select on."""

LABELS: dict[str, dict[str, str]] = {
    "simplicity": {"simplicity-da": "simplicity", "structural-simplicity": "simplicity", "simpeval-past": "simplicity"},
    "meaning": {"simplicity-da": "meaning", "structural-simplicity": "meaning"},
    "fluency": {"simplicity-da": "fluency", "structural-simplicity": "grammaticality"},
}
"""aspect -> {dataset: its column measuring that aspect}. SimpEval_past has one overall rating, which
its loader calls ``simplicity``; the model cards show how it correlates with the other labels."""

LABEL_NOTES = {
    ("simpeval-past", "simplicity"): "overall rating (0-100, mean of 5 rater z-scores)",
    ("simplicity-da", "simplicity"): "crowd simplicity (0-100 DA, rater z-scores)",
    ("structural-simplicity", "simplicity"): "expert simplicity (-2..2, mean of 3)",
}

# SimpEval_past outputs that are ASSET test references themselves (they would score against themselves)
EXCLUDED_SYSTEMS = {"simpeval-past": ("asset.test.simp", "new_asset.test.simp.second")}


@dataclass(frozen=True)
class RatedSet:
    """One dataset's outputs with their references and labels (z-scored within the dataset)."""

    name: str
    sources: tuple[str, ...]
    outputs: tuple[str, ...]
    references: tuple[tuple[str, ...], ...]
    labels: dict[str, np.ndarray]  # column -> z-scored labels, aligned with the outputs

    def __len__(self) -> int:
        return len(self.outputs)

    @property
    def keys(self) -> tuple[bytes, ...]:
        """Each item's identity across datasets (:func:`simpeval.itemkeys.pair_keys`): which items another
        dataset shares with this one, so a fold leaving this one out does not train on them."""
        from simpeval.itemkeys import pair_keys

        return pair_keys(self.sources, self.outputs)


def zscore(values: np.ndarray) -> np.ndarray:
    """``(x - mean) / std`` of one dataset's labels (all zero when they do not vary)."""
    values = np.asarray(values, dtype=float)
    spread = values.std()
    return (values - values.mean()) / spread if spread > 0 else np.zeros_like(values)


def check_trainable(names: Sequence[str], option: str = "--datasets") -> None:
    """:class:`UsageError` when a test-only dataset is asked for as training or selection data."""
    for name in names:
        if name in TEST_ONLY:
            raise UsageError(f'"{name}" is test data only (never trained or selected on): leave it out of {option}')


def load_rated(data_dir: Path, names: Sequence[str]) -> list[RatedSet]:
    """The named datasets with every label column any aspect uses, z-scored per dataset."""
    from simpeval.datasets.lens import SimpEvalPast
    from simpeval.datasets.metaeval import SimplicityDA, StructuralSimplicity

    check_trainable(names)
    known = {cls.name: cls for cls in (SimplicityDA, StructuralSimplicity, SimpEvalPast)}
    sets = []
    for name in names:
        if name not in known:
            raise UsageError(f'no ratings to train on in "{name}": choose from {", ".join(known)}')
        dataset = known[name](data_dir)
        keep = [i for i, item in enumerate(dataset.items) if item.system not in EXCLUDED_SYSTEMS.get(name, ())]
        references = dataset.references()
        columns = sorted({column for labels in LABELS.values() for ds, column in labels.items() if ds == name})
        labels = {column: zscore(np.asarray(dataset.human_scores(column), dtype=float)[keep]) for column in columns}
        sets.append(RatedSet(name, tuple(dataset.items[i].source for i in keep),
                             tuple(dataset.items[i].output for i in keep),
                             tuple(tuple(references[i]) for i in keep), labels))
    return sets


def aspect_sets(sets: Sequence[RatedSet], aspect: str) -> list[tuple[RatedSet, np.ndarray]]:
    """``(dataset, its labels for aspect)`` for every dataset that rates ``aspect``."""
    if aspect not in LABELS:
        raise UsageError(f'unknown aspect "{aspect}": choose one of {", ".join(LABELS)}')
    return [(s, s.labels[LABELS[aspect][s.name]]) for s in sets if s.name in LABELS[aspect]]
