"""The simpeval metric classes of the CEScore family.

- ``cescore``: CEScore (primary) with SScore, MScore and GScore as sub-scores.
- ``cescore-tss``: the Text Simplicity Score of the output alone, with its ASF and
  SLS building blocks (the simplicity of a text, with no source needed).
- ``cescore-semimatch``: SemiMatch precision of the whole output against its source.

All take multi-sentence texts (documents): TSS uses the hardest sentence, GScore the
worst one. Corpus scores are the means of the item scores, as in the authors' CLI.
"""

from __future__ import annotations

from collections.abc import Sequence

from simpeval import Metric, Option, UsageError
from simpeval_cescore import __version__
from simpeval_cescore.combine import cescore
from simpeval_cescore.grammar import GSCORE_ORDERS, semimatch, source_index
from simpeval_cescore.simplicity import (
    average_familiarity,
    sentence_length_score,
    text_simplicity,
)
from simpeval_cescore.text import analyse, whitespace_tokens


class CEScoreMetric(Metric):
    """CEScore and its SScore, MScore and GScore, from the source and the output alone."""

    name = "cescore"
    sub_scores = ("cescore", "cescore-s", "cescore-m", "cescore-g")
    description = "CEScore overall quality, with S (simplicity), M (meaning), G (grammar) sub-scores"
    requires_references = False
    level = "document"
    version = __version__
    options = {
        "ignore_zero_sentences": Option(
            bool, False,
            "GScore skips output sentences scoring 0 (paper, Algorithm 7); "
            "no = authors' package, which produced the paper's tables",
            short="g0",
        ),
    }

    def _score_items(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
    ) -> dict[str, list[float]]:
        scores = [cescore(src, out, self.ignore_zero_sentences, self.store) for src, out in zip(sources, outputs)]
        return {
            "cescore": [s.ce for s in scores],
            "cescore-s": [s.s for s in scores],
            "cescore-m": [s.m for s in scores],
            "cescore-g": [s.g for s in scores],
        }


class TextSimplicityMetric(Metric):
    """TSS of the output (higher = simpler), with its ASF and SLS of the whole output."""

    name = "cescore-tss"
    sub_scores = ("cescore-tss", "cescore-asf", "cescore-sls")
    description = "CEScore's Text Simplicity Score of the output, with ASF and SLS (higher = simpler)"
    requires_references = False
    level = "document"
    version = __version__

    def _score_items(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
    ) -> dict[str, list[float]]:
        units = [analyse(out, store=self.store).units for out in outputs]
        return {
            "cescore-tss": [text_simplicity(out, store=self.store) for out in outputs],
            "cescore-asf": [average_familiarity(u) for u in units],
            "cescore-sls": [sentence_length_score(len(u)) for u in units],
        }


class SemiMatchMetric(Metric):
    """Mean SemiMatch precision of the output's n-grams against its source, n = min_n..max_n."""

    name = "cescore-semimatch"
    sub_scores = ("cescore-semimatch",)
    description = "CEScore's SemiMatch: n-gram precision of the output against its source, partial matches counted"
    requires_references = False
    level = "document"
    version = __version__
    options = {
        "min_n": Option(int, GSCORE_ORDERS[0], "smallest n-gram order (at least 2)"),
        "max_n": Option(int, GSCORE_ORDERS[-1], "largest n-gram order"),
    }

    def __init__(self, **settings: object) -> None:
        super().__init__(**settings)
        if not 2 <= self.min_n <= self.max_n:
            raise UsageError(
                f"cescore-semimatch: need 2 <= min_n <= max_n, got {self.min_n}..{self.max_n}: "
                "pass min_n=N,max_n=M with 2 <= N <= M"
            )

    def _score_items(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
    ) -> dict[str, list[float]]:
        orders = range(self.min_n, self.max_n + 1)
        scores = []
        for src, out in zip(sources, outputs):
            tokens = whitespace_tokens(out)
            indexes = [source_index(src, n, store=self.store) for n in orders]
            scores.append(sum(semimatch(index, tokens, n) for index, n in zip(indexes, orders)) / len(orders))
        return {self.name: scores}
