"""The baselines every learned metric is judged against: every metric in the registry that needs no model.

A learned metric earns its cost only where it beats what needs no training on data it never saw.
Which hand-made score is strongest differs by dataset (BLEU-SARI on Simplicity-DA, the
compression ratio on Structural Simplicity, BLEU against the source on SimpEval_2022: see
``docs/leaderboard.md``), so the judge (:mod:`simpeval.learning.verdict`) compares with all of
them, each sub-score on its own: every installed metric without ``trained_on`` that is not neural
(no weights to load: BERTScore and LLM judges are compared with learned metrics on the
leaderboard, not here), reference-based ones only where the items have references. They are
scored through the runner and its score cache (the key names each metric's signature, code and
inputs, as the leaderboard's scorings do), so a second judge over the same items reads them back.

Rated texts in another language (``lang``) are compared with the metrics that have rules for it; a
dataset of single rated texts (``Dataset.kind`` ``"text"``: readability) only with the scores that
read the output alone, the ones ``simpeval meta-evaluate`` and the languages leaderboard correlate
with it (:func:`simpeval.metaeval.compute.default_metric_specs`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from simpeval.languages import ENGLISH

if TYPE_CHECKING:
    from simpeval.registry import Registry

__all__ = ["baseline_metrics", "baseline_scores", "baseline_specs"]


def baseline_metrics(registry: Registry, references: bool = True, lang: str = ENGLISH,
                     level: str = "sentence") -> list[str]:
    """The registry's metrics that need no model and can score rated items: no ``trained_on``, not neural,
    no per-item field beyond the texts (SLEdoc's target level), rules for ``lang`` (the rated data's
    language), references only if ``references``; below ``level`` ``"document"``, none made for documents
    only (``Metric.documents_only``: the aggregates, D-SARI), the rule the sentence leaderboard follows."""
    names = []
    for name, cls in sorted(registry.metrics.items()):
        if cls.trained_on or cls.neural or cls.item_fields or not registry.supports(name, lang):
            continue
        if level != "document" and cls.documents_only:
            continue
        if cls.requires_references and not references:
            continue
        names.append(name)
    return names


def baseline_specs(registry: Registry, references: bool = True, lang: str = ENGLISH, texts: bool = False) -> list[str]:
    """The ``-m`` specs the baselines are scored with: every :func:`baseline_metrics` metric (all its
    sub-scores); with ``texts`` (single rated texts), only their sub-scores that read the output alone."""
    names = baseline_metrics(registry, references and not texts, lang)
    if not texts:
        return names
    from simpeval.metaeval.compute import default_metric_specs

    return [spec for spec in default_metric_specs(registry, False, lang, kind="text")
            if registry.metric_class(spec).name in names]


def baseline_scores(sources: Sequence[str], outputs: Sequence[str], references: Sequence[Sequence[str]] | None,
                    registry: Registry | None = None, lang: str = ENGLISH, texts: bool = False) -> dict[str, np.ndarray]:
    """Per item, every sub-score of every baseline (:func:`baseline_specs`) on texts in ``lang``, through the
    score cache.

    Without references for every item, the reference-based metrics are left out; with ``texts`` (single rated
    texts, each its own source), so is every sub-score that compares an output with its source.
    """
    from simpeval.cache import ScoreCache
    from simpeval.registry import load_registry
    from simpeval.runner import evaluate, resolve_metrics

    registry = registry or load_registry()
    with_references = (not texts and references is not None and len(references) == len(outputs)
                       and all(references))
    specs = baseline_specs(registry, with_references, lang, texts)
    result = evaluate(resolve_metrics(registry, specs, lang=lang), list(sources), list(outputs),
                      [list(r) for r in references] if with_references else None, corpus_level=False, cache=ScoreCache())
    # a metric's name as a spec reports all its sub-scores (``length``): of single texts, only the ones asked
    return {name: np.asarray(values, float) for name, values in sorted(result.sentence_scores.items())
            if not texts or name in specs}
