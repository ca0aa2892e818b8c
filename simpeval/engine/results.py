"""What a run returns: per-item and corpus scores of each reported sub-score, with their signatures.

:func:`corpus_scores` is the one place a corpus score is made: a corpus formula over
statistics summed in batch order, the mean of the per-item scores, or (for a corpus-level
metric without additive statistics) the metric's corpus formula over every item at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from simpeval.engine.batches import column_sums
from simpeval.metrics.base import mean_ignoring_nan

if TYPE_CHECKING:
    from simpeval.engine.metrics import MetricRequest
    from simpeval.metrics.base import Metric


@dataclass
class EvaluationResult:
    """Scores of one run: per item (when asked), per corpus, and the signature behind each sub-score."""

    n_items: int
    signatures: dict[str, str] = field(default_factory=dict)
    higher_is_better: dict[str, bool | None] = field(default_factory=dict)  # None: a feature, no direction
    sentence_scores: dict[str, list[float]] = field(default_factory=dict)
    corpus_scores: dict[str, float] = field(default_factory=dict)
    item_statistics: dict[str, list[list[float]]] = field(default_factory=dict)
    """Per sub-score of a corpus-level metric, its metric's per-item corpus statistics (one list per
    item), when the run kept them (paired tests): the same list for every sub-score of a metric."""
    undefined: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Per sub-score scored item by item: how many items it gave NaN (no value, e.g. a readability formula
    on a text without words) and the first of them (0-based), also when the scores were streamed out."""

    @property
    def score_names(self) -> list[str]:
        return list(self.signatures)



def collect_result(
    requests: Sequence[MetricRequest],
    signatures: Sequence[str],
    n_items: int,
    per_item: Sequence[dict[str, list[float]] | None] | None,
    corpus: dict[int, dict[str, float]] | None,
    item_statistics: Sequence[list[list[float]] | None] = (),
) -> EvaluationResult:
    """The reported sub-scores of each request: per item (``per_item``, by metric, when given),
    per corpus (``corpus``, by metric index, when given) and their metric's per-item statistics
    (``item_statistics``, by metric, where not None)."""
    result = EvaluationResult(n_items=n_items)
    for i, request in enumerate(requests):
        for sub in request.report:
            result.signatures[sub] = signatures[i]
            result.higher_is_better[sub] = request.metric.declared_direction(sub)
            if per_item is not None and per_item[i] is not None:
                result.sentence_scores[sub] = per_item[i][sub]
            if corpus is not None:
                result.corpus_scores[sub] = corpus[i][sub]
            if i < len(item_statistics) and item_statistics[i] is not None:
                result.item_statistics[sub] = item_statistics[i]
    return result


def corpus_scores(
    metric: Metric,
    from_statistics: bool,
    batch_statistics: list[Any],
    per_item: dict[str, list[float]] | None,
    inputs: tuple = (),
    fields: dict[str, list] | None = None,
) -> dict[str, float]:
    """A corpus-level metric's formula over statistics summed in batch order; else the mean
    of the sentence scores; a corpus-level metric without statistics scores ``inputs``
    (sources, outputs, references: every item) at once."""
    if from_statistics:
        totals = column_sums([stats for stats in batch_statistics if stats])
        return {sub: float(v) for sub, v in metric.corpus_score_from_statistics(totals).items()}
    if not metric.corpus_level and per_item is not None:
        return {sub: mean_ignoring_nan(values) for sub, values in per_item.items()}
    return metric.corpus_score(*inputs, **(fields or {}))


def format_result(result: EvaluationResult, sentence_level: bool, fmt: str, ids: Sequence[str] | None = None
                  ) -> str:
    """The result as text: per-item rows with ``--sentence-level`` (signatures go to standard
    error), else one row per sub-score with its signature. Rows of documents are keyed by
    their ``ids``, rows of lines by their index."""
    from simpeval.jsontext import dumps
    from simpeval.tables import render

    names = result.score_names
    if fmt == "json":
        payload = {"n": result.n_items, "signatures": result.signatures, "corpus": result.corpus_scores}
        if sentence_level:
            payload["sentences"] = result.sentence_scores
            if ids is not None:
                payload["ids"] = ids
        return dumps(payload, indent=2) + "\n"
    if sentence_level:
        keys = ids if ids is not None else range(result.n_items)
        rows = [[key, *(result.sentence_scores[n][i] for n in names)] for i, key in enumerate(keys)]
        return render(["id" if ids is not None else "index", *names], rows, fmt)
    rows = [[n, result.corpus_scores[n], result.signatures[n]] for n in names]
    return render(["metric", "score", "signature"], rows, fmt)
