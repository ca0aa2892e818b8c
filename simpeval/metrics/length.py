"""Length and compression statistics of the outputs (EASSE's quality-estimation features).

Sub-scores, per item:

- ``length``: tokens in the output;
- ``length-sentences``: sentences in the output (NLTK's Punkt model of the language, or pysbd's rules);
- ``length-compression``: characters of the output / characters of the source
  (EASSE's compression ratio);
- ``length-token-ratio``: tokens of the output / tokens of the source;
- ``length-splits``: sentences of the output / sentences of the source
  (EASSE's "sentence splits"; above 1 means the output split the sentence).

Characters and sentences are counted, as EASSE counts them, on the tokenised text (tokens
joined by spaces; ``normalize=no`` counts them on the raw text), so the two EASSE-named
ratios equal ``qe-compression`` and ``qe-splits`` of ``easse evaluate -q``.

These describe outputs rather than judge them; the declared directions are a
convention (shorter, fewer characters and more splits read as simpler). A ratio
over an empty source is NaN (left out of corpus means); an empty output has
length 0.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import simpeval
from simpeval.metrics.base import Metric, Option
from simpeval.sentences import SENTENCE_LANGUAGES
from simpeval.text import split_sentences, tokenize
from simpeval.tokenizers import TOKENIZER_NAMES


def _ratio(numerator: int, denominator: int) -> float:
    return numerator / denominator if denominator else math.nan


class Length(Metric):
    """Output length in tokens and sentences, and its ratios to the source."""

    name = "length"
    formula_version = "2"  # 2: sentences split exactly as NLTK's Punkt (a 13a '. . .' ends sentences)
    languages = SENTENCE_LANGUAGES  # those simpeval splits sentences of
    sub_scores = (
        "length",
        "length-sentences",
        "length-compression",
        "length-token-ratio",
        "length-splits",
    )
    description = "output tokens and sentences, compression and split ratios to the source"
    requires_references = False
    level = "document"  # splits texts into sentences itself
    higher_is_better = False
    output_only = frozenset({"length", "length-sentences"})
    lower_is_better = frozenset({"length", "length-compression", "length-token-ratio"})
    options = {
        "tokenizer": Option(str, "13a", "word tokenizer", choices=TOKENIZER_NAMES, short="tok"),
        "normalize": Option(bool, True, "count characters and sentences on the tokenised text (EASSE)", short="norm"),
    }

    def _count(self, text: str) -> tuple[int, int, int]:
        """Characters, tokens and sentences of ``text`` (tokenised first when ``normalize``)."""
        tokens = tokenize(text, self.text_tokenizer, store=self.store)
        measured = " ".join(tokens) if self.normalize else text.strip()
        sentences = len(split_sentences(measured, self.lang, store=self.store)) if measured else 0
        return len(measured), len(tokens), sentences

    def _score_items(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
    ) -> dict[str, list[float]]:
        scores: dict[str, list[float]] = {key: [] for key in self.sub_scores}
        for source, output in zip(sources, outputs):
            src_chars, src_tokens, src_sents = self._count(source)
            out_chars, out_tokens, out_sents = self._count(output)
            scores["length"].append(float(out_tokens))
            scores["length-sentences"].append(float(out_sents))
            scores["length-compression"].append(_ratio(out_chars, src_chars))
            scores["length-token-ratio"].append(_ratio(out_tokens, src_tokens))
            scores["length-splits"].append(_ratio(out_sents, src_sents))
        return scores


@simpeval.hookimpl
def simpeval_register_metrics() -> list[type[Metric]]:
    return [Length]
