"""The base of metrics computed from other metrics' item scores (iBLEU, FKBLEU, the BLEU-SARI means).

Why one base: a composite must check its inputs once (its own :meth:`~simpeval.Metric.sentence_scores`
does), reach its components' item scores without a second round of checks, and share the run's
statistics store with them (:meth:`~simpeval.Metric.bind_run` binds every component held as an
attribute), so that scoring ``bleu``, ``sari``, ``ibleu`` and ``fkbleu`` together counts every
text once. A component's options appear under a prefix (``bleu_tok``, ``sari_del``, ``fkgl_clip``)
so that every setting is in the composite's signature.
"""

from __future__ import annotations

import abc
import dataclasses
from collections.abc import Sequence
from typing import Any

from simpeval.metrics.base import Metric, Option

__all__ = ["Composite", "component_settings", "prefixed_options", "prefixed_settings"]


class Composite(Metric):
    """A metric whose item score combines the item scores of component metrics (its attributes).

    Subclasses build their components in ``__init__`` (e.g. from :func:`component_settings`) and
    implement :meth:`_combine`; the corpus score is the mean of the item scores.
    """

    def _component_scores(
        self,
        component: Metric,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
    ) -> list[float]:
        """``component``'s primary item scores: its protected step, because this metric's template
        checked the inputs already."""
        return component._score_items(sources, outputs, references)[component.name]

    @abc.abstractmethod
    def _combine(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None,
    ) -> list[float]:
        """This metric's item scores, from its components' (:meth:`_component_scores`)."""

    def _score_items(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
    ) -> dict[str, list[float]]:
        return {self.name: self._combine(sources, outputs, references)}


def prefixed_options(options: dict[str, Option], prefix: str) -> dict[str, Option]:
    """A component's ``options`` renamed ``{prefix}{name}``, signature keys included."""
    return {
        prefix + name: dataclasses.replace(option, short=prefix + (option.short or name))
        for name, option in options.items()
    }


def prefixed_settings(settings: dict[str, Any], prefix: str) -> dict[str, Any]:
    """A component's ``settings`` (a preset's, say) under the composite's prefixed option names."""
    return {prefix + name: value for name, value in settings.items()}


def component_settings(settings: dict[str, Any], prefix: str) -> dict[str, Any]:
    """The composite's settings under ``prefix``, with the prefix removed: the component's own."""
    return {name[len(prefix):]: value for name, value in settings.items() if name.startswith(prefix)}
