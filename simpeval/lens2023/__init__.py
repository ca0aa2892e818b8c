"""LENS's meta-evaluation setup (Maddela et al. 2023) as a built-in plugin module: the ``lens-2023``
preset, the metrics it computes (:mod:`simpeval.lens2023.metrics`) and Kwak et al. (2024)'s Table 1
(:mod:`simpeval.lens2023.kwak_2024`), all registered through the plugin hooks.

Why a plugin module of its own: the preset is one paper's setup, not a property of the core
metrics; the core knows it only through :class:`~simpeval.presets.Preset`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import simpeval
from simpeval.presets import Preset, Texts

if TYPE_CHECKING:
    from simpeval.datasets.base import Dataset
    from simpeval.metrics.base import Metric
    from simpeval.reproduce.paper import Paper

PRESET = "lens-2023"


def prepare_texts(dataset: Dataset, sources: Sequence[str], outputs: Sequence[str],
                  references: Sequence[Sequence[str]] | None) -> Texts:
    """The texts as the data loaders of LENS's meta-evaluation code prepared them: originals and
    references lower-cased, and outputs lower-cased after
    :func:`~simpeval.lens2023.formulas.remove_tokenization_artifacts` where the dataset declares
    that its outputs carry such artefacts (SimpEval; LENS's Simplicity-DA loader only lower-cases)."""
    from simpeval.lens2023.formulas import remove_tokenization_artifacts

    lowered = [s.lower() for s in sources]
    if dataset.output_artifacts:
        cleaned = [remove_tokenization_artifacts(o, s).lower() for o, s in zip(outputs, lowered)]
    else:
        cleaned = [o.lower() for o in outputs]
    refs = None if references is None else [[r.lower() for r in item] for item in references]
    return lowered, cleaned, refs


LENS_2023 = Preset(
    PRESET, "LENS's meta-evaluation (Maddela et al. 2023): textstat 0.7.3 FKGL, NLTK GLEU as BLEU, LENS's SARI, "
            "lower-cased texts",
    metrics={"bleu": "gleu-nltk", "sari": "sari-lens", "fkgl": "fkgl-textstat"}, prepare=prepare_texts)


@simpeval.hookimpl
def simpeval_register_metrics() -> list[type[Metric]]:
    from simpeval.lens2023.metrics import FkglTextstat, GleuNltk, SariLens

    return [FkglTextstat, GleuNltk, SariLens]


@simpeval.hookimpl
def simpeval_register_presets() -> list[Preset]:
    return [LENS_2023]


@simpeval.hookimpl
def simpeval_register_papers() -> list[Paper]:
    from simpeval.lens2023.kwak_2024 import PAPER_NAME, TABLES, TITLE
    from simpeval.reproduce.tables import CorrelationPaper

    return [CorrelationPaper(PAPER_NAME, TITLE, TABLES)]
