"""Metrics built from BLEU, SARI and FKGL: iBLEU, FKBLEU and BLEU-SARI means.

They share one base, :class:`~simpeval.metrics.composite.Composite`, and never recount: each
combines its component metrics' per-item scores, computed from the statistics that the run's
store (:mod:`simpeval.store`) memoises, so scoring ``bleu``, ``sari``, ``ibleu`` and ``fkbleu``
together tokenizes and counts every text once.

- ``ibleu`` (Sun and Zhou 2012): ``alpha * BLEU(out, refs) - (1 - alpha) * BLEU(out, src)``,
  rewarding closeness to the references and penalising copying.
- ``fkbleu`` (Xu et al. 2016): ``iBLEU * sigmoid(FKGL(out) - FKGL(src))``, as computed
  for the metaeval-2021 scores.
- ``bleu-sari-amean`` / ``bleu-sari-gmean``: arithmetic / geometric mean of sentence
  BLEU and SARI (Alva-Manchego et al. 2021).

Options of a component appear under a prefix (``source_smooth``, ``fkgl_tokenizer``,
``bleu_tok``, ``sari_del``) so every setting is in the signature. Corpus scores are
the means of the sentence scores.
"""

from __future__ import annotations

import abc
import math
from collections.abc import Sequence
from typing import Any

import simpeval
from simpeval.errors import UsageError
from simpeval.metrics.base import Metric, Option
from simpeval.metrics.bleu import SENTENCE_OPTIONS, Bleu, BleuSource, resolve_smooth_value
from simpeval.metrics.composite import Composite, component_settings, prefixed_options
from simpeval.metrics.fkgl import Fkgl
from simpeval.metrics.sari import Sari

_SMOOTHING_KEYS = ("smooth", "smooth_value", "effective_order", "zero_if_no_match")


class IBleu(Composite):
    """iBLEU: BLEU against the references, penalised by BLEU against the source."""

    name = "ibleu"
    formula_version = "1"
    languages = None  # no language rules of its own: its tokenizer's (Metric.supported_languages)
    sub_scores = ("ibleu",)
    description = "iBLEU = alpha*BLEU(out, refs) - (1-alpha)*BLEU(out, src)"
    requires_references = True
    options: dict[str, Option] = {
        "alpha": Option(float, 0.9, "weight of BLEU against the references"),
        **SENTENCE_OPTIONS,
        **prefixed_options({k: SENTENCE_OPTIONS[k] for k in _SMOOTHING_KEYS}, "source_"),
    }

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        if not 0.0 <= self.alpha <= 1.0:
            # alpha is a weight: outside [0, 1] iBLEU would reward copying the source
            raise UsageError(f'option "alpha" of {self.name} must be between 0 and 1, got {self.alpha}')
        resolve_smooth_value(self)
        resolve_smooth_value(self, "source_")
        text = {"tokenizer": self.tokenizer, "lowercase": self.lowercase}
        self._bleu = Bleu(**text, **{k: self.settings[k] for k in _SMOOTHING_KEYS}, lang=self.lang)
        self._source_bleu = BleuSource(**text, **component_settings(self.settings, "source_"), lang=self.lang)

    def _combine(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None,
    ) -> list[float]:
        to_refs = self._component_scores(self._bleu, sources, outputs, references)
        to_source = self._component_scores(self._source_bleu, sources, outputs)
        return [self.alpha * r - (1 - self.alpha) * s for r, s in zip(to_refs, to_source)]


class FkBleu(IBleu):
    """FKBLEU: iBLEU times sigmoid(FKGL(output) - FKGL(source))."""

    name = "fkbleu"
    formula_version = "2"  # 2: sentences split exactly as NLTK's Punkt (a 13a '. . .' ends sentences)
    languages = Fkgl.languages
    sub_scores = ("fkbleu",)
    description = "FKBLEU = iBLEU * sigmoid(FKGL(out) - FKGL(src))"
    options = {**IBleu.options, **prefixed_options(Fkgl.options, "fkgl_")}

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        self._fkgl = Fkgl(**component_settings(self.settings, "fkgl_"), lang=self.lang)

    def _combine(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None,
    ) -> list[float]:
        ibleu = super()._combine(sources, outputs, references)
        out_grades = self._component_scores(self._fkgl, sources, outputs)
        src_grades = self._component_scores(self._fkgl, sources, sources)  # FKGL of the sources
        return [value * _sigmoid(out - src) for value, out, src in zip(ibleu, out_grades, src_grades)]


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    z = math.exp(x)
    return z / (1.0 + z)


class BleuSariMean(Composite):
    """Base of the means of sentence BLEU and SARI; subclasses choose the mean."""

    requires_references = True
    languages = None  # its components' (they refuse a language their tokenizers have no rules for)
    options = {**prefixed_options(SENTENCE_OPTIONS, "bleu_"), **prefixed_options(Sari.options, "sari_")}

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        resolve_smooth_value(self, "bleu_")
        self._bleu = Bleu(**component_settings(self.settings, "bleu_"), lang=self.lang)
        self._sari = Sari(**component_settings(self.settings, "sari_"), lang=self.lang)

    @staticmethod
    @abc.abstractmethod
    def mean(bleu: float, sari: float) -> float:
        """The mean of one item's sentence BLEU and SARI."""

    def _combine(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None,
    ) -> list[float]:
        bleu = self._component_scores(self._bleu, sources, outputs, references)
        sari = self._component_scores(self._sari, sources, outputs, references)
        return [self.mean(b, s) for b, s in zip(bleu, sari)]


class BleuSariAmean(BleuSariMean):
    """Arithmetic mean of sentence BLEU and SARI."""

    name = "bleu-sari-amean"
    formula_version = "1"
    sub_scores = ("bleu-sari-amean",)
    description = "(BLEU + SARI) / 2"

    @staticmethod
    def mean(bleu: float, sari: float) -> float:
        return (bleu + sari) / 2


class BleuSariGmean(BleuSariMean):
    """Geometric mean of sentence BLEU and SARI."""

    name = "bleu-sari-gmean"
    formula_version = "1"
    sub_scores = ("bleu-sari-gmean",)
    description = "sqrt(BLEU * SARI)"

    @staticmethod
    def mean(bleu: float, sari: float) -> float:
        return math.sqrt(bleu * sari)


@simpeval.hookimpl
def simpeval_register_metrics() -> list[type[Metric]]:
    return [IBleu, FkBleu, BleuSariAmean, BleuSariGmean]
