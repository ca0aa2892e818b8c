"""Training simpq: features of every rated dataset once, one linear model per variant and aspect, chosen by
leave-one-dataset-out.

Each aspect learns only from labels that measure it (:data:`ASPECT_LABELS`). Simplicity is the
raters' simplicity judgement *net of their meaning and fluency judgements of the same output*:
crowd simplicity ratings move with meaning and fluency (a quality halo, r 0.76-0.77 on
Simplicity-DA), and simpq reports meaning and fluency as sub-scores of their own, so its
simplicity is the part those do not explain. SimpEval_past's single overall rating measures none
of the three and is not trained on. Candidates: a ridge on every feature of the variant per
penalty, and each feature alone; the one with the best mean correlation on the dataset left out
is refitted on every dataset (a fold never fits on the items the other dataset shares with the one
it leaves out). Each left-out dataset's reported row is the candidate chosen on the other dataset
(:class:`simpeval.learning.loo.Selection`). Nothing reads SimpEval_2022.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simpeval.learning import loo
from simpeval.learning.rated import RatedSet, zscore
from simpeval.learning.report import folds_record
from simpeval.run import Run
from simpeval_simpq.features import GROUPS, cescore_available, columns, matrix
from simpeval_simpq.model import ASPECTS, VARIANTS, AspectModel, variant_key

ALPHAS = (0.001, 0.01, 0.1, 1.0, 10.0)
DATASETS = ("simplicity-da", "structural-simplicity")
"""The rated datasets with labels for simpq's aspects (SimpEval_past has an overall rating only)."""

ASPECT_LABELS: dict[str, dict[str, tuple[str, tuple[str, ...]]]] = {
    "simplicity": {"simplicity-da": ("simplicity", ("meaning", "fluency")),
                   "structural-simplicity": ("simplicity", ("meaning", "grammaticality"))},
    "meaning": {"simplicity-da": ("meaning", ()), "structural-simplicity": ("meaning", ())},
    "fluency": {"simplicity-da": ("fluency", ()), "structural-simplicity": ("grammaticality", ())},
}
"""aspect -> {dataset: (its column for the aspect, the columns whose linear part is removed from it)}."""


def label_text(aspect: str, dataset: str) -> str:
    column, net_of = ASPECT_LABELS[aspect][dataset]
    return f"{column} net of {' and '.join(net_of)}" if net_of else column


def net_of(label: np.ndarray, others: Sequence[np.ndarray]) -> np.ndarray:
    """``label`` minus its least-squares fit on ``others`` (with an intercept), z-scored: what they do not explain."""
    if not others:
        return zscore(label)
    x = np.column_stack([np.ones(len(label)), *others])
    coefficients, *_ = np.linalg.lstsq(x, label, rcond=None)
    return zscore(label - x @ coefficients)


def aspect_labels(sets: Sequence[RatedSet], aspect: str) -> list[tuple[RatedSet, np.ndarray]]:
    """``(dataset, its labels for aspect)`` for every dataset :data:`ASPECT_LABELS` names for ``aspect``."""
    pairs = []
    for rated in sets:
        if rated.name in ASPECT_LABELS[aspect]:
            column, others = ASPECT_LABELS[aspect][rated.name]
            pairs.append((rated, net_of(rated.labels[column], [rated.labels[o] for o in others])))
    return pairs


@dataclass
class AspectResult:
    aspect: str
    selection: loo.Selection
    model: AspectModel

    @property
    def chosen(self) -> str:
        """The candidate shipped: the best mean left-out r."""
        return self.selection.chosen

    @property
    def tables(self) -> dict[str, list[loo.Fold]]:
        return self.selection.tables

    @property
    def folds(self) -> list[loo.Fold]:
        """The rows to report: each left-out dataset with the candidate chosen on the other one."""
        return self.selection.folds

    @property
    def kept_folds(self) -> list[loo.Fold]:
        """The shipped candidate's own left-out rows (their mean is what the selection maximised)."""
        return self.tables[self.chosen]


def available_groups() -> tuple[str, ...]:
    return tuple(g for g in GROUPS if g != "cescore" or cescore_available())


def featurize(sets: Sequence[RatedSet], cache: Path | None = None, groups: Sequence[str] | None = None,
              log: Callable[[str], None] = lambda _: None) -> dict[str, np.ndarray]:
    """Each dataset's matrix of ``groups`` (default: every available group), read from ``cache`` (an .npz)
    when it holds that dataset with those columns."""
    groups = tuple(groups or available_groups())
    width = len(columns(groups))
    stored = dict(np.load(cache)) if cache is not None and cache.is_file() else {}
    matrices = {}
    with Run() as run:
        for rated in sets:
            key = f"{rated.name}:{variant_key(groups)}"
            if key not in stored or stored[key].shape != (len(rated), width):
                log(f"features of {rated.name} ({len(rated)} outputs; {variant_key(groups)})")
                stored[key] = matrix(rated.sources, rated.outputs, rated.references, run, groups)
            matrices[rated.name] = stored[key]
    if cache is not None:
        np.savez(cache, **stored)
    return matrices


def train_aspect(aspect: str, sets: Sequence[RatedSet], matrices: dict[str, np.ndarray],
                 variant: tuple[str, ...], groups: tuple[str, ...], alphas: Sequence[float] = ALPHAS,
                 baselines: dict[str, dict[str, np.ndarray]] | None = None) -> AspectResult:
    """The variant's model for ``aspect``; ``matrices`` hold the columns of ``groups`` (a superset of the variant);
    ``baselines``: dataset -> the registry baselines of its items (:func:`rated_baselines`), beside each fold."""
    pairs = aspect_labels(sets, aspect)
    names = [s.name for s, _ in pairs]
    all_columns, used = columns(groups), columns(variant)
    picked = [all_columns.index(c) for c in used]
    x = [matrices[n][:, picked] for n in names]
    y = [labels for _, labels in pairs]
    base = [baselines[n] for n in names] if baselines is not None else ()
    candidates = {**loo.ridge_candidates(alphas), **loo.single_feature_candidates(used)}
    selection = loo.select(candidates, x, y, names, base, [s.keys for s, _ in pairs])  # the one selection loop
    fitted = selection.model  # the kept candidate refitted on every dataset
    return AspectResult(aspect, selection, AspectModel(fitted.mean, fitted.scale, fitted.weights, fitted.bias))


def train(sets: Sequence[RatedSet], matrices: dict[str, np.ndarray], alphas: Sequence[float] = ALPHAS,
          aspects: Sequence[str] = ASPECTS, groups: Sequence[str] | None = None) -> dict[str, dict[str, AspectResult]]:
    """variant key -> aspect -> result, for every variant whose groups ``matrices`` hold (default: all available)."""
    groups = tuple(groups or available_groups())
    baselines = rated_baselines(sets)
    results: dict[str, dict[str, AspectResult]] = {}
    for variant in VARIANTS:
        if not set(variant) <= set(groups):
            continue
        results[variant_key(variant)] = {
            aspect: train_aspect(aspect, sets, matrices, variant, groups, alphas, baselines) for aspect in aspects
            if len(aspect_labels(sets, aspect)) >= 2}
    return {key: value for key, value in results.items() if value}


def rated_baselines(sets: Sequence[RatedSet]) -> dict[str, dict[str, np.ndarray]]:
    """Per dataset, every non-learned registry metric on its items (:mod:`simpeval.learning.baselines`): what the
    judge compares each fold with."""
    from simpeval.learning.baselines import baseline_scores

    return {s.name: baseline_scores(s.sources, s.outputs, s.references) for s in sets}


def training_record(results: dict[str, dict[str, AspectResult]]) -> dict:
    """What the checkpoint records about its training, per variant: labels, the choice, the left-out table."""
    return {
        key: {
            aspect: {
                "labels": {f.left_out: label_text(aspect, f.left_out) for f in r.folds},
                "selected": r.chosen,
                "leave_one_dataset_out": folds_record(r.folds),
            } for aspect, r in variant.items()
        } for key, variant in results.items()
    }
