"""A preset: the settings of a published setup, registered by a plugin through
:func:`~simpeval.hookspecs.simpeval_register_presets`.

Why presets are registered and not written into the core: each one belongs to a paper (LENS's
``lens-2023``, Alva-Manchego et al.'s ``metaeval-2021``, DEplain's ``deplain-2023``), and a plugin
that reproduces a paper brings that paper's settings with it. A preset can

- give metrics options (:attr:`Preset.settings`, on top of which ``-m name:option=value`` applies;
  a metric class may also declare its own settings under a preset's name in ``Metric.presets``);
- compute another formula under a metric's name (:attr:`Preset.metrics`: ``bleu`` under
  ``lens-2023`` is NLTK's GLEU, so the score is named ``gleu-nltk``);
- prepare a dataset's texts before any metric sees them (:attr:`Preset.prepare`), as a paper's
  data loader did.

A run's settings line names its preset, or says that none was used (:func:`metric_settings`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from simpeval.datasets.base import Dataset

Texts = tuple[list[str], list[str], "list[list[str]] | None"]
Prepare = Callable[["Dataset", Sequence[str], Sequence[str], "Sequence[Sequence[str]] | None"], Texts]


@dataclass(frozen=True)
class Preset:
    """One published setup's settings (see the module docstring)."""

    name: str
    description: str
    settings: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # metric -> options
    metrics: Mapping[str, str] = field(default_factory=dict)  # metric name -> the metric computing it here
    prepare: Prepare | None = None

    def prepare_texts(self, dataset: Dataset, sources: Sequence[str], outputs: Sequence[str],
                      references: Sequence[Sequence[str]] | None) -> Texts:
        """``(sources, outputs, references)`` as this preset prepares ``dataset``'s texts (copies)."""
        if self.prepare is not None:
            return self.prepare(dataset, sources, outputs, references)
        return list(sources), list(outputs), None if references is None else [list(r) for r in references]


def metric_settings(preset: str | None) -> str:
    """How a run's metrics were configured, for its settings line: the preset, or none and :func:`metric_defaults`."""
    return f"preset={preset}" if preset else f"preset=none ({metric_defaults()})"


def metric_defaults() -> str:
    """What the metrics compute without a preset: today's EASSE defaults, with the installed sacrebleu."""
    from importlib.metadata import version

    return f"today's EASSE defaults, sacrebleu {version('sacrebleu')}"
