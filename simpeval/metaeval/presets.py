"""How a preset prepares a dataset's texts before its metrics see them.

Most presets only choose metric settings; some also prepare the texts as a paper's data loader did
(``lens-2023``: :func:`simpeval.lens2023.prepare_texts`). Presets are registered by plugins
(:class:`simpeval.presets.Preset`); this is where the meta-evaluation asks the registry for one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from simpeval.presets import Preset, Texts

if TYPE_CHECKING:
    from simpeval.datasets.base import Dataset
    from simpeval.registry import Registry


def prepare_inputs(
    registry: Registry,
    preset: str | None,
    dataset: Dataset,
    sources: Sequence[str],
    outputs: Sequence[str],
    references: Sequence[Sequence[str]] | None,
) -> Texts:
    """``(sources, outputs, references)`` as ``preset`` prepares them (copies, unchanged without a preset
    or for a preset that prepares nothing)."""
    found = registry.presets.get(preset) if preset else None
    return (found or Preset("", "")).prepare_texts(dataset, sources, outputs, references)
