"""``fkgl-textstat``, ``gleu-nltk`` and ``sari-lens``: LENS's formulas (:mod:`simpeval.lens2023.formulas`) as metrics.

Why metrics of their own: LENS reported them as "FKGL", "BLEU" and "SARI", but each computes
something else than simpeval's metric of that name; ``--preset lens-2023`` maps ``fkgl``, ``bleu``
and ``sari`` to them (:attr:`simpeval.presets.Preset.metrics`), so a score's name always says what it
computes.
"""

from __future__ import annotations

from simpeval.metrics.base import AdditiveMetric, Metric
from simpeval.lens2023.formulas import gleu_from_stats, gleu_stats, lens_sari
from simpeval.metrics.textstat073 import fkgl as textstat_fkgl


class FkglTextstat(Metric):
    """textstat 0.7.3's Flesch-Kincaid grade, as LENS computed "FKGL" (lower is simpler)."""

    name = "fkgl-textstat"
    output_only = frozenset({name})
    formula_version = "1"
    description = "textstat 0.7.3's Flesch-Kincaid Grade Level (LENS's FKGL; lower = simpler)"
    level = "document"  # finds sentences itself
    higher_is_better = False
    corpus_level = True

    def _score_items(self, sources, outputs, references=None):  # noqa: ANN001, ANN201
        return {self.name: [textstat_fkgl(text) for text in outputs]}

    def _score_corpus(self, sources, outputs, references=None):  # noqa: ANN001, ANN201
        """textstat's grade of all outputs as one text (its counts do not add up: they are rounded)."""
        return {self.name: textstat_fkgl(" ".join(outputs))}


class GleuNltk(AdditiveMetric):
    """NLTK's GLEU on lower-cased NLTK tokens, as LENS computed "BLEU" (0-1); the corpus score pools
    the counts of the best reference of each item (NLTK's ``corpus_gleu``)."""

    name = "gleu-nltk"
    formula_version = "1"
    description = "NLTK's sentence GLEU on lower-cased NLTK tokens (LENS's \"BLEU\")"
    requires_references = True

    def _item_statistics(self, sources, outputs, references=None):  # noqa: ANN001, ANN201
        return [gleu_stats(output, refs, store=self.store) for output, refs in zip(outputs, references)]

    def _score_from_totals(self, totals):  # noqa: ANN001, ANN201
        return {self.name: gleu_from_stats(*totals)}


class SariLens(Metric):
    """Wei Xu's SARI script as LENS ships it (deletion precision, LENS's addition rule); LENS reports
    sentence scores only, so the corpus score is their mean."""

    name = "sari-lens"
    formula_version = "1"
    sub_scores = ("sari-lens", "sari-lens-add", "sari-lens-keep", "sari-lens-del")
    description = "SARI as LENS's copy of Wei Xu's script computes it (lower-cased NLTK tokens)"
    requires_references = True

    def _score_items(self, sources, outputs, references=None):  # noqa: ANN001, ANN201
        values = [lens_sari(s, o, refs, store=self.store) for s, o, refs in zip(sources, outputs, references)]
        return {key: [v[k] for v in values] for k, key in enumerate(self.sub_scores)}

