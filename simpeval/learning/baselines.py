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
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from simpeval.registry import Registry

__all__ = ["baseline_metrics", "baseline_scores"]


def baseline_metrics(registry: Registry, references: bool = True) -> list[str]:
    """The registry's metrics that need no model and can score rated items: no ``trained_on``, not neural,
    no per-item field beyond the texts (SLEdoc's target level), rules for English (the rated data's
    language), references only if ``references``."""
    names = []
    for name, cls in sorted(registry.metrics.items()):
        if cls.trained_on or cls.neural or cls.item_fields or (cls.languages is not None and "en" not in cls.languages):
            continue
        if cls.requires_references and not references:
            continue
        names.append(name)
    return names


def baseline_scores(sources: Sequence[str], outputs: Sequence[str], references: Sequence[Sequence[str]] | None,
                    registry: Registry | None = None) -> dict[str, np.ndarray]:
    """Per item, every sub-score of every baseline metric (:func:`baseline_metrics`), through the score cache.

    Without references for every item, the reference-based metrics are left out.
    """
    from simpeval.cache import ScoreCache
    from simpeval.registry import load_registry
    from simpeval.runner import evaluate, resolve_metrics

    registry = registry or load_registry()
    with_references = references is not None and len(references) == len(outputs) and all(references)
    requests = resolve_metrics(registry, baseline_metrics(registry, with_references))
    result = evaluate(requests, list(sources), list(outputs), [list(r) for r in references] if with_references else None,
                      corpus_level=False, cache=ScoreCache())
    return {name: np.asarray(values, float) for name, values in sorted(result.sentence_scores.items())}
