"""simpq's features: cheap, interpretable, and each one a reason a rater might give.

Per text (memoised in the run's store, :class:`~simpeval.store.StatsStore`, so a source shared by many
outputs is analysed once): characters, words, sentences, the mean and minimum Zipf frequency of
its words (wordfreq, English), and its FKGL. Per item: the ratios and differences of those between
output and source, sentence BLEU and SARI against the references, BLEU against the source, and
the share of output words absent from the source.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from typing import TYPE_CHECKING

from simpeval.store import StatsStore, stored

if TYPE_CHECKING:
    from simpeval.run import Run

NAMES = (
    "log_char_ratio", "log_word_ratio", "sentence_gain", "zipf_mean_out", "zipf_mean_gain", "zipf_min_out",
    "zipf_min_gain", "fkgl_out", "fkgl_gain", "sari", "bleu_refs", "bleu_source", "novel_words", "identical",
)
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")
_SENTENCE_END = re.compile(r"[.!?]+(?:\s+|$)")


@lru_cache(maxsize=200_000)
def zipf(word: str) -> float:
    """wordfreq's English Zipf frequency of a lower-cased word (0 for unknown words)."""
    from wordfreq import zipf_frequency

    return zipf_frequency(word, "en")


@stored
def text_stats(text: str, *, store: StatsStore | None = None) -> tuple[float, ...]:
    """``(characters, words, sentences, mean zipf, min zipf)`` of one text."""
    words = _WORD.findall(text.lower())
    sentences = max(1, len(_SENTENCE_END.findall(text.strip())))
    freqs = [zipf(w) for w in words] or [0.0]
    return float(len(text)), float(len(words)), float(sentences), float(np.mean(freqs)), float(min(freqs))


def features(sources: Sequence[str], outputs: Sequence[str], references: Sequence[Sequence[str]] | None,
             run: Run) -> np.ndarray:
    """``items x len(NAMES)`` feature matrix; per-text statistics are kept in ``run``'s store."""
    from simpeval.metrics.bleu import SentBleu
    from simpeval.metrics.fkgl import Fkgl
    from simpeval.metrics.sari import Sari

    n = len(outputs)
    metrics = [Fkgl(), Sari(), SentBleu()]
    run.bind(metrics)
    store = run.store
    fkgl_metric, sari_metric, bleu_metric = metrics
    fkgl = fkgl_metric.sentence_scores([*sources, *outputs], [*sources, *outputs])["fkgl"]
    has_refs = references is not None and all(references)
    refs = [list(r) for r in references] if has_refs else [[s] for s in sources]
    sari = sari_metric.sentence_scores(sources, outputs, refs)["sari"] if has_refs else [0.0] * n
    bleu_refs = bleu_metric.sentence_scores(sources, outputs, refs)["sent-bleu"] if has_refs else [0.0] * n
    bleu_source = bleu_metric.sentence_scores(sources, outputs, [[s] for s in sources])["sent-bleu"]
    rows = np.empty((n, len(NAMES)))
    for i, (source, output) in enumerate(zip(sources, outputs)):
        s, o = text_stats(source, store=store), text_stats(output, store=store)
        source_words = set(_WORD.findall(source.lower()))
        out_words = _WORD.findall(output.lower())
        novel = sum(w not in source_words for w in out_words) / max(1, len(out_words))
        rows[i] = (
            math.log((o[0] + 1) / (s[0] + 1)), math.log((o[1] + 1) / (s[1] + 1)), o[2] - s[2],
            o[3], o[3] - s[3], o[4], o[4] - s[4], fkgl[n + i], fkgl[n + i] - fkgl[i],
            sari[i] / 100, bleu_refs[i] / 100, bleu_source[i] / 100, novel, float(source.strip() == output.strip()),
        )
    return rows


BASELINES = {"fkgl": ("fkgl_out",), "compression": ("log_char_ratio",), "sari": ("sari",)}
"""The simple baselines every left-out table compares against, read from the feature columns."""


def baseline_scores(matrix: np.ndarray) -> dict[str, np.ndarray]:
    """FKGL of the output, the compression ratio (characters, output over source) and SARI, per row."""
    scores = {name: matrix[:, NAMES.index(column)] for name, (column,) in BASELINES.items()}
    scores["compression"] = np.exp(scores["compression"])
    return scores
