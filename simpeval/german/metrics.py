"""``fre-textstat``: Flesch Reading Ease as textstat 0.7.3 computes it, English or German (Amstad).

Why a metric of its own beside the language-aware ``fre``: DEplain (Stodden et al. 2023) reported
textstat's FRE through EASSE-de, on spaCy tokens, with textstat's roundings
(:mod:`simpeval.metrics.textstat073`), and its sentence-level tables average per-sentence scores
while its document-level tables score all outputs as one text; ``aggregate`` names which.
"""

from __future__ import annotations

import statistics

from simpeval.metrics.base import Metric, Option
from simpeval.metrics.textstat073 import FRE_CONSTANTS, fre
from simpeval.tokenizers import TOKENIZER_NAMES, get_tokenizer


class FreTextstat(Metric):
    """textstat 0.7.3's ``flesch_reading_ease`` after ``set_lang(lang)`` (higher = easier)."""

    name = "fre-textstat"
    output_only = frozenset({name})
    formula_version = "1"
    description = "textstat 0.7.3's Flesch Reading Ease (German: Amstad 1978), as EASSE-de reported it"
    requires_references = False
    level = "document"  # finds sentences itself
    corpus_level = True
    languages = tuple(FRE_CONSTANTS)  # the language (--lang) chooses the constants and syllables
    options = {
        "tokenizer": Option(str, "none", "word tokenizer applied first (EASSE-de: spaCy's)", choices=TOKENIZER_NAMES,
                            short="tok"),
        "aggregate": Option(str, "joined", "corpus score: FRE of all outputs as one text (joined) or the mean of "
                                           "each output's (mean)", choices=("joined", "mean"), short="agg"),
    }

    def _texts(self, outputs):  # noqa: ANN001, ANN202
        tokenize = get_tokenizer(self.text_tokenizer)
        return [tokenize(text) for text in outputs]

    def _score_items(self, sources, outputs, references=None):  # noqa: ANN001, ANN201
        return {self.name: [fre(text, self.lang) for text in self._texts(outputs)]}

    def _score_corpus(self, sources, outputs, references=None):  # noqa: ANN001, ANN201
        """EASSE-de's ``corpus_fre`` (joined) or ``corpus_averaged_sentence_fre`` (mean)."""
        texts = self._texts(outputs)
        if self.aggregate == "mean":
            return {self.name: statistics.fmean(fre(text, self.lang) for text in texts)}
        return {self.name: fre(" ".join(texts), self.lang)}
