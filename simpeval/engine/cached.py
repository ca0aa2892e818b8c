"""Cache lookup and save for the engine: what is stored under which key, and the check that
every value read back (or about to be written) has the shape its metric gives.

Three kinds of entries: a batch's ``sentence`` scores, a batch's summed ``statistics``
(corpus formulas such as BLEU's), and a whole input's ``corpus`` scores. A value that
fails its check is never written, so every entry on disk is one the code can read back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from simpeval.cache import Check, check_corpus_scores, check_sentence_scores, check_statistics, input_key, metric_key

if TYPE_CHECKING:
    from simpeval.cache import ScoreCache
    from simpeval.metrics.base import Metric

SENTENCE, STATISTICS, CORPUS = "sentence", "statistics", "corpus"


def check_for(metric: Metric, kind: str, n_items: int = 0) -> Check:
    """The check of a ``kind`` entry of ``metric`` on ``n_items`` items."""
    if kind == SENTENCE:
        return lambda value: check_sentence_scores(value, metric.score_names(), n_items)
    if kind == CORPUS:
        return lambda value: check_corpus_scores(value, metric.score_names())
    return check_statistics


def entry_key(metric: Metric, signature: str, kind: str, inputs: Sequence[Any]) -> str:
    """The cache key of ``metric``'s ``kind`` entry for ``inputs`` (sources, outputs, references[, fields]):
    its signature, formula version and code fingerprint (:func:`simpeval.cache.metric_key`), the
    kind of entry and every input."""
    return input_key(metric_key(metric, signature), kind, *inputs)


def lookup(cache: ScoreCache | None, metric: Metric, signature: str, kind: str, inputs: Sequence[Any],
           n_items: int = 0) -> Any:
    """The stored value if there is one and it passes its check, else None."""
    if cache is None:
        return None
    return cache.get(entry_key(metric, signature, kind, inputs), check_for(metric, kind, n_items))


def save(cache: ScoreCache | None, metric: Metric, signature: str, kind: str, inputs: Sequence[Any], value: Any,
         n_items: int = 0) -> None:
    """Store ``value`` if it passes its check, so every entry written can be read back."""
    if cache is not None and check_for(metric, kind, n_items)(value) is None:
        cache.put(entry_key(metric, signature, kind, inputs), value)
