"""``cefr-lr``: a learned multilingual readability score, a linear model of language-independent features.

SLE's idea (a reading level learned from rated texts) beyond English, without an encoder: no
multilingual encoder installs offline from a package (the card says what the package lists hold), so the
model reads seven features every language with
sentences and word frequencies has, on scales that mean the same across languages:

- log of the number of words, letters per word, the share of long words (more than six letters),
  log of the words per sentence (the counts of :func:`simpeval.metrics.readability.text_counts`);
- the mean Zipf frequency of the words in wordfreq's list of the language, the share of rare words
  (Zipf below 3: about once per million words) and the Zipf frequency of the rarest word.

A ridge regression of ReadMe++'s CEFR levels (1-6) on the standardised features, trained by
``benchmarks/cefr_lr_train.py`` on the train and validation splits of ReadMe++'s five languages (the
ridge penalty chosen by leave-one-language-out), gives the score: the estimated CEFR level, higher =
harder. The weights are the generated module :mod:`simpeval.metrics.cefr_lr_weights`; the page
``docs/benchmarks/cefr-lr.md`` (its model card) and its judged record beside it report it, by the one
judge (:mod:`simpeval.learning.verdict`), on each language held out of training and on TextComplexityDE
beside the strongest non-learned score.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np

import simpeval
from simpeval.metrics.base import Metric
from simpeval.metrics.readability import text_counts, words

#: the languages with sentences (simpeval.sentences) and a wordfreq list that the model was built for
LANGUAGES = ("ar", "de", "en", "fr", "hi", "ru")
FEATURES = ("log-words", "letters-per-word", "long-words", "log-words-per-sentence", "mean-zipf", "rare-words",
            "min-zipf")
RARE_ZIPF = 3.0


@lru_cache(maxsize=1 << 17)
def zipf(word: str, lang: str) -> float:
    """wordfreq's Zipf frequency of lower-cased ``word`` in ``lang`` (0 for a word it does not list)."""
    from wordfreq import zipf_frequency

    return zipf_frequency(word.lower(), lang)


def features(text: str, lang: str, store=None) -> np.ndarray:  # noqa: ANN001 - the run's StatsStore
    """The :data:`FEATURES` of ``text`` (NaN for a text without words)."""
    counts = text_counts(text, lang, False, store=store)
    if counts.words == 0 or counts.sentences == 0:
        return np.full(len(FEATURES), np.nan)
    freqs = [zipf(word, lang) for word in words(text)]
    return np.array([math.log1p(counts.words), counts.letters / counts.words, counts.long_words / counts.words,
                     math.log1p(counts.words / counts.sentences), sum(freqs) / len(freqs),
                     sum(f < RARE_ZIPF for f in freqs) / len(freqs), min(freqs)])


def predict(table: np.ndarray, weights: dict) -> np.ndarray:
    """The model's CEFR estimate of each row of a feature ``table`` (``weights``: mean, scale, coef, intercept)."""
    standard = (table - np.asarray(weights["mean"])) / np.asarray(weights["scale"])
    return standard @ np.asarray(weights["coef"]) + weights["intercept"]


class CefrLr(Metric):
    """The estimated CEFR level (1-6, higher = harder) of the output, from language-independent features."""

    name = "cefr-lr"
    description = "learned CEFR level of the output (ridge on 7 language-independent features; higher = harder)"
    requires_references = False
    higher_is_better = False
    languages = LANGUAGES
    output_only = frozenset({name})
    trained_on = ("readmepp-ar", "readmepp-en", "readmepp-fr", "readmepp-hi", "readmepp-ru")  # train + validation
    #: the model card (and, beside it, the judged record ``cefr-lr.judged.json`` that ``simpeval metrics show``
    #: prints) live in the source tree's docs, written by ``benchmarks/cefr_lr_train.py``
    model_card = str(Path(__file__).resolve().parents[2] / "docs" / "benchmarks" / "cefr-lr.md")

    def _score_items(self, sources: Sequence[str], outputs: Sequence[str],
                     references: Sequence[Sequence[str]] | None = None) -> dict[str, list[float]]:
        from simpeval.metrics.cefr_lr_weights import WEIGHTS

        if not outputs:
            return {self.name: []}
        table = np.array([features(text, self.lang, self.store) for text in outputs])
        return {self.name: [float(v) for v in predict(table, WEIGHTS)]}


@simpeval.hookimpl
def simpeval_register_metrics() -> list[type[Metric]]:
    return [CefrLr]
