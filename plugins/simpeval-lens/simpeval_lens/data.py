"""Training examples: a rated dataset's (:func:`rated_examples`, leave-one-dataset-out's), SimpEval_past's with
ASSET's references, and the validation split.

Rules (LENS, Maddela et al. 2023; Kwak et al. 2024): the target is the mean of the item's rating
z-scores; the references are ASSET's ten for the original, without any that is the output itself;
the two SimpEval_past "systems" that are ASSET references are not used as outputs. Texts are
lower-cased, as LENS scores them. The validation split holds out whole originals.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from simpeval import UsageError
from simpeval.learning.rated import LABELS, RatedSet

# SimpEval_past's outputs that are ASSET test references themselves
ASSET_REFERENCE_SYSTEMS = ("asset.test.simp", "new_asset.test.simp.second")


@dataclass(frozen=True)
class Example:
    """One rated output with its references; ``group`` is its original's id."""

    source: str
    output: str
    references: tuple[str, ...]
    target: float
    group: str


def _normal(text: str) -> str:
    return " ".join(text.lower().split())


def make_example(source: str, output: str, references: Sequence[str], target: float, group: str) -> Example:
    """Lower-cased texts, minus the references identical to the output (LENS's training data)."""
    kept = tuple(ref.lower() for ref in references if _normal(ref) != _normal(output))
    return Example(source.lower(), output.lower(), kept, float(target), group)


def rated_examples(rated: RatedSet, aspect: str = "simplicity") -> list[Example]:
    """A dataset's outputs as LENS examples (lower-cased, references equal to the output dropped)."""
    labels = rated.labels[LABELS[aspect][rated.name]]
    examples = [make_example(s, o, refs, float(z), f"{rated.name}\x00{s}")
                for s, o, refs, z in zip(rated.sources, rated.outputs, rated.references, labels)]
    return [e for e in examples if e.references]


def simpeval_past_examples(data_dir: Path) -> list[Example]:
    """Every SimpEval_past output that is not an ASSET reference, with ASSET's references."""
    from simpeval.datasets.lens import SimpEvalPast

    dataset = SimpEvalPast(data_dir)
    references = dataset.references("asset")
    targets = dataset.human_scores("simplicity")
    examples = [
        make_example(item.source, item.output, refs, target, item.key[0])
        for item, refs, target in zip(dataset.items, references, targets)
        if item.system not in ASSET_REFERENCE_SYSTEMS
    ]
    empty = [e for e in examples if not e.references]
    if empty:
        raise UsageError(f"{len(empty)} SimpEval_past outputs have no reference left: check references/asset/")
    return examples


def grouped_split(examples: Sequence[Example], valid_fraction: float = 0.2,
                  seed: int = 0) -> tuple[list[Example], list[Example]]:
    """Hold out about ``valid_fraction`` of the originals (all their outputs) for validation."""
    groups = sorted({e.group for e in examples})
    random.Random(seed).shuffle(groups)
    held_out = set(groups[: round(len(groups) * valid_fraction)])
    if not held_out or len(held_out) == len(groups):
        raise UsageError(f"{len(groups)} originals cannot be split {1 - valid_fraction:.0%}/{valid_fraction:.0%}: "
                         "give more training data")
    return [e for e in examples if e.group not in held_out], [e for e in examples if e.group in held_out]
