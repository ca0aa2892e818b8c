"""Training simpq: features of every rated dataset once, one ridge per aspect chosen by leave-one-dataset-out.

Each aspect learns only from the labels :data:`simpeval.learning.rated.LABELS` assigns to it.
Candidates: a ridge on every feature per penalty, and each feature alone; the one with the best
mean correlation on the dataset left out is refitted on every dataset. Nothing reads SimpEval_2022.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simpeval.learning import loo
from simpeval.learning.rated import LABELS, RatedSet, aspect_sets
from simpeval.run import Run
from simpeval_simpq.features import NAMES, baseline_scores, features
from simpeval_simpq.model import ASPECTS, AspectModel

ALPHAS = (0.001, 0.01, 0.1, 1.0, 10.0)


@dataclass
class AspectResult:
    aspect: str
    chosen: str
    tables: dict[str, list[loo.Fold]]
    model: AspectModel

    @property
    def folds(self) -> list[loo.Fold]:
        return self.tables[self.chosen]


def featurize(sets: Sequence[RatedSet], cache: Path | None = None,
              log: Callable[[str], None] = lambda _: None) -> dict[str, np.ndarray]:
    """Each dataset's feature matrix, read from ``cache`` (an .npz) when it holds that dataset."""
    stored = dict(np.load(cache)) if cache is not None and cache.is_file() else {}
    matrices = {}
    with Run() as run:
        for rated in sets:
            if rated.name not in stored or len(stored[rated.name]) != len(rated):
                log(f"features of {rated.name} ({len(rated)} outputs)")
                stored[rated.name] = features(rated.sources, rated.outputs, rated.references, run)
            matrices[rated.name] = stored[rated.name]
    if cache is not None:
        np.savez(cache, **stored)
    return matrices


def train_aspect(aspect: str, sets: Sequence[RatedSet], matrices: dict[str, np.ndarray],
                 alphas: Sequence[float] = ALPHAS) -> AspectResult:
    pairs = aspect_sets(sets, aspect)
    names = [s.name for s, _ in pairs]
    x = [matrices[n] for n in names]
    y = [labels for _, labels in pairs]
    base = [baseline_scores(m) for m in x]
    candidates = {**loo.ridge_candidates(alphas), **loo.single_feature_candidates(NAMES)}
    chosen, tables = loo.select(candidates, x, y, names, base)
    fitted = candidates[chosen][0](np.vstack(x), np.concatenate(y))
    return AspectResult(aspect, chosen, tables, AspectModel(fitted.mean, fitted.scale, fitted.weights, fitted.bias))


def train(sets: Sequence[RatedSet], matrices: dict[str, np.ndarray], alphas: Sequence[float] = ALPHAS,
          aspects: Sequence[str] = ASPECTS) -> dict[str, AspectResult]:
    return {aspect: train_aspect(aspect, sets, matrices, alphas) for aspect in aspects
            if len(aspect_sets(sets, aspect)) >= 2}


def training_record(results: dict[str, AspectResult]) -> dict:
    """What the checkpoint records about its training: labels, penalty, the left-out table."""
    return {
        aspect: {
            "labels": {ds: LABELS[aspect][ds] for ds in [f.left_out for f in r.folds]},
            "selected": r.chosen,
            "leave_one_dataset_out": [{"left_out": f.left_out, "n": f.n, "r": round(f.r, 4),
                                       "baselines": {k: round(v, 4) for k, v in f.baselines.items()}} for f in r.folds],
        } for aspect, r in results.items()
    }
