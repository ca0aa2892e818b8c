"""How a preset prepares a dataset's texts before its metrics see them.

Most presets only choose metric settings (each metric's ``presets``). ``lens-2023`` also
prepares the texts as the data loaders of LENS's meta-evaluation code did (Maddela et al. 2023):
originals and references lower-cased, and outputs lower-cased after
:func:`~simpeval.metrics.lens2023.remove_tokenization_artifacts` where the dataset declares
that its outputs carry such artefacts (SimpEval; LENS's Simplicity-DA loader only lower-cases).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from simpeval.datasets.base import Dataset

Texts = tuple[list[str], list[str], list[list[str]] | None]


def prepare_inputs(
    preset: str | None,
    dataset: Dataset,
    sources: Sequence[str],
    outputs: Sequence[str],
    references: Sequence[Sequence[str]] | None,
) -> Texts:
    """``(sources, outputs, references)`` as ``preset`` prepares them (unchanged for other presets)."""
    if preset != "lens-2023":
        return list(sources), list(outputs), None if references is None else [list(r) for r in references]
    from simpeval.metrics.lens2023 import remove_tokenization_artifacts

    lowered = [s.lower() for s in sources]
    if dataset.output_artifacts:
        cleaned = [remove_tokenization_artifacts(o, s).lower() for o, s in zip(outputs, lowered)]
    else:
        cleaned = [o.lower() for o in outputs]
    refs = None if references is None else [[r.lower() for r in refs] for refs in references]
    return lowered, cleaned, refs
