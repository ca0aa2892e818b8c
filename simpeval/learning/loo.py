"""Leave-one-dataset-out: train on every rated dataset but one, test on the one left out, for each.

Cross-validation inside one dataset rewards learning that dataset's systems and rating protocol;
what a metric is for is ranking outputs of *other* systems rated under *other* protocols. So
models are selected, and reported, by their correlation on a dataset they never saw, judged against
the baselines on the same dataset (:meth:`Fold.row`, :mod:`simpeval.learning.verdict`). Every
trainer chooses through the one loop here, :func:`leave_one_dataset_out`. Pure numpy; no I/O.

Rated datasets share items (the same output of the same source, rated under two protocols). Given
each item's key (:func:`simpeval.itemkeys.pair_keys`), a fold never trains or chooses on an item of
the dataset it leaves out: those rows are dropped from the other datasets for that fold, and the
fold records how many (:attr:`Fold.dropped`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from simpeval.learning.verdict import Row, judge, pearson, strongest

__all__ = ["CandidateFits", "Choice", "Fold", "Rated", "Ridge", "Selection", "choose_by_others", "expand", "fit_ridge",
           "leave_one_dataset_out", "leave_one_out", "mean_r", "pearson", "ridge_candidates", "select", "single_feature_candidates",
           "unseen"]

Fit = Callable[[np.ndarray, np.ndarray], object]
Predict = Callable[[object, np.ndarray], np.ndarray]
Keys = Sequence[Hashable]


@dataclass(frozen=True)
class Fold:
    """One left-out dataset: the model's correlation there, and each baseline's."""

    left_out: str
    n: int
    r: float
    baselines: dict[str, float]
    chosen: str = ""  # the candidate this fold's r belongs to, where each fold chooses its own
    dropped: int = 0  # rows of the other datasets left out of this fold's training (or choice): items of this one

    def row(self, score: str, aspect: str = "simplicity") -> Row:
        """This fold judged (:func:`simpeval.learning.verdict.judge`): ``r`` is a prediction of the labels, so
        it is already in the learned metric's direction; the baselines count in their best orientation."""
        return judge(self.r, self.n, self.baselines, dataset=self.left_out, aspect=aspect, score=score,
                     chosen=self.chosen, dropped=self.dropped)

    @property
    def best_baseline(self) -> tuple[str, float]:
        """The strongest baseline on this dataset and its |r| (:func:`simpeval.learning.verdict.strongest`)."""
        return strongest(self.baselines)

    @property
    def beats_baselines(self) -> bool:
        """The judge's verdict is a win: signed ``r`` at least the strongest baseline's |r|."""
        return self.row("").verdict == "win"


def unseen(keys: Keys, left_out: Keys) -> np.ndarray:
    """A boolean mask over ``keys``: True where the item is not one of ``left_out``'s items."""
    held = set(left_out)
    return np.fromiter((key not in held for key in keys), dtype=bool, count=len(keys))


def leave_one_out(features: Sequence[np.ndarray], labels: Sequence[np.ndarray], names: Sequence[str],
                  fit: Fit, predict: Predict, baselines: Sequence[Mapping[str, np.ndarray]] = (),
                  keys: Sequence[Keys] = ()) -> list[Fold]:
    """For each dataset i: fit on the others' rows, correlate the prediction with dataset i's labels.

    :param features: one ``rows x k`` matrix per dataset; :param labels: per dataset, z-scored.
    :param baselines: per dataset, ``{name: per-row baseline score}`` correlated with the same labels.
    :param keys: per dataset, one key per row; rows of the other datasets whose key is among dataset
        i's are not trained on in fold i (none given: every row is).
    """
    return select({"model": (fit, predict)}, features, labels, names, baselines, keys, refit=False).tables["model"]


@dataclass(frozen=True)
class Rated:
    """The rated datasets a fit is chosen on: per dataset its z-scored labels, the baselines' scores of its
    items, and one key per item (a fold never trains or chooses on the other datasets' items that are the
    left-out one's; none: every item counts)."""

    labels: Mapping[str, np.ndarray]
    baselines: Mapping[str, Mapping[str, np.ndarray]]
    keys: Mapping[str, Sequence[Hashable]] | None = None

    @property
    def names(self) -> list[str]:
        return list(self.labels)


@dataclass(frozen=True)
class Choice:
    """What :func:`leave_one_dataset_out` kept, each dataset's row (with the candidate chosen on the others), and every
    candidate's r per dataset."""

    kept: str
    folds: list[Fold]
    table: dict[str, dict[str, float]]

    def candidates_record(self) -> dict[str, dict[str, float]]:
        """The table as a checkpoint stores it (4 decimals)."""
        return {c: {n: round(r, 4) for n, r in per.items()} for c, per in self.table.items()}


def leave_one_dataset_out(fit, rated: Rated | None, log: Callable[[str], None] = lambda _: None) -> Choice | None:
    """The one leave-one-dataset-out selection loop every trainer goes through.

    For each of the fit's starting points (``fit.starts()``: seeds, candidates) it starts a model
    (``fit.start(setting, without)``), for a fit trained on the rated datasets (``fit.fits_rated``) once per
    left-out dataset, on the others' items; runs one epoch at a time (``fit.fit_epoch()``, True when it
    stops) and scores the rated datasets after each (``fit.predict(names)``: the left-out one only, for a
    fit trained on them). Each (start, epoch) is a candidate (``fit.candidate(setting, epoch)``);
    :func:`choose_by_others` keeps the best mean left-out r and reports each dataset with the candidate
    chosen on the others; ``fit.finish(kept)`` makes the model to ship. The protocol is
    :class:`simpeval.learning.trainer.Fit`. Returns None without rated data (``fit.finish(None)``: the fit
    keeps its own choice, e.g. the epoch of lowest validation loss)."""
    names = rated.names if rated is not None else []
    if rated is not None and len(names) < 2:
        raise ValueError("leave-one-dataset-out needs at least two datasets")
    scores: dict[str, dict[str, np.ndarray]] = {}
    for setting in fit.starts():
        for without in (names if fit.fits_rated and rated is not None else [None]):
            fit.start(setting, without)
            watched = [without] if without is not None else names
            epoch, stop, r = 0, False, []
            while not stop:
                stop, epoch = fit.fit_epoch(), epoch + 1
                if watched:
                    for name, predicted in fit.predict(watched).items():
                        scores.setdefault(fit.candidate(setting, epoch), {})[name] = predicted
                if without is not None:
                    r.append(pearson(scores[fit.candidate(setting, epoch)][without], rated.labels[without]))
            if without is not None:
                fit.fold_done(setting, without, r, log)
    if rated is None:
        fit.finish(None)
        return None
    kept, folds, table = choose_by_others(scores, rated.labels, rated.baselines, rated.keys)
    fit.finish(kept)
    return Choice(kept, folds, table)


def mean_r(folds: Sequence[Fold]) -> float:
    return float(np.mean([f.r for f in folds]))


@dataclass(frozen=True)
class Selection:
    """What :func:`select` chose.

    ``chosen``: the candidate with the best mean left-out r (the one to ship); ``tables``: every
    candidate's folds; ``folds``: the row to report per dataset, each with the candidate chosen on the
    *other* datasets (:func:`choose_by_others`), since the kept candidate's own rows were read to choose
    it and so overstate how it fares on a dataset nobody looked at.
    """

    chosen: str
    tables: dict[str, list[Fold]]
    folds: list[Fold]
    model: object = None  # the chosen candidate fitted on every dataset


class CandidateFits:
    """Closed-form candidates (``name -> (fit, predict)``) as a fit of :func:`leave_one_dataset_out`: each
    candidate is a starting point fitted in one "epoch" on the other datasets' rows (without the left-out
    one's items), and the kept one is refitted on every row."""

    fits_rated = True

    def __init__(self, candidates: Mapping[str, tuple[Fit, Predict]], features: Mapping[str, np.ndarray],
                 labels: Mapping[str, np.ndarray], keys: Mapping[str, Keys] | None = None, refit: bool = True) -> None:
        self.candidates, self.features, self.labels, self.keys, self.refit = candidates, features, labels, keys, refit
        self.model: object = None
        self._predict: Predict | None = None

    def starts(self) -> list[str]:
        return list(self.candidates)

    def start(self, candidate: str, without: str | None) -> None:
        fit, self._predict = self.candidates[candidate]
        if without is None:  # every row, the arrays as given (a masked copy could change their memory order)
            self.model = fit(np.vstack(list(self.features.values())), np.concatenate(list(self.labels.values())))
            return
        rest = [n for n in self.labels if n != without]
        masks = [unseen(self.keys[n], self.keys[without]) if self.keys else np.ones(len(self.labels[n]), bool)
                 for n in rest]
        if not any(m.any() for m in masks):
            raise ValueError(f"nothing to train on without {without}: every other dataset's items are {without}'s")
        self.model = fit(np.vstack([self.features[n][m] for n, m in zip(rest, masks)]),
                         np.concatenate([self.labels[n][m] for n, m in zip(rest, masks)]))

    def fit_epoch(self) -> bool:
        return True  # fitted in start: closed form

    def predict(self, names: Sequence[str]) -> dict[str, np.ndarray]:
        return {n: self._predict(self.model, self.features[n]) for n in names}

    def candidate(self, candidate: str, epoch: int) -> str:
        return candidate

    def fold_done(self, candidate: str, without: str, r: list[float], log: Callable[[str], None]) -> None:
        pass

    def finish(self, kept: str | None) -> None:
        if kept is not None and self.refit:
            self.start(kept, None)


def select(candidates: Mapping[str, tuple[Fit, Predict]], features, labels, names,
           baselines=(), keys: Sequence[Keys] = (), refit: bool = True) -> Selection:
    """The candidate with the highest mean left-out correlation, every candidate's folds, and the rows
    chosen on the other datasets, through the one selection loop (:func:`leave_one_dataset_out`, each
    candidate fitted in one closed-form "epoch", :class:`CandidateFits`), and the kept candidate fitted on
    every dataset (``refit``). A candidate undefined on some fold (a feature constant in the training data: NaN) never
    wins."""
    fits = CandidateFits(candidates, dict(zip(names, features)), dict(zip(names, labels)),
                         dict(zip(names, keys)) if keys else None, refit)
    rated = Rated(dict(zip(names, labels)), dict(zip(names, baselines)) if baselines else {}, fits.keys)
    choice = leave_one_dataset_out(fits, rated)
    tables = {c: [replace(f, r=per[f.left_out], chosen="") for f in choice.folds] for c, per in choice.table.items()}
    return Selection(choice.kept, tables, choice.folds, fits.model)


def choose_by_others(scores: Mapping[str, Mapping[str, np.ndarray]], labels: Mapping[str, np.ndarray],
                     baselines: Mapping[str, Mapping[str, np.ndarray]] | None = None,
                     keys: Mapping[str, Keys] | None = None,
                     ) -> tuple[str, list[Fold], dict[str, dict[str, float]]]:
    """Each dataset's row with the candidate chosen on the *other* datasets, and the candidate to keep.

    For each dataset, the candidate with the best mean r on the other datasets is chosen and its r
    on the left-out one is reported, so no row's choice read that row's labels. The candidate kept
    for shipping is the one with the best mean r over all of them. Candidates trained without any
    rated data (SIERA's and SLE's epochs) score every dataset with one model; candidates fitted on
    rated data (simpq's candidates, lens-mini's seeds and epochs) score each dataset with the model
    fitted without it. Every trainer reaches it through :func:`leave_one_dataset_out`.

    :param scores: candidate -> dataset -> per-item score (aligned with ``labels[dataset]``).
    :param labels: dataset -> z-scored labels; :param baselines: dataset -> {name: per-item score}.
    :param keys: dataset -> one key per item; the choice for a left-out dataset reads the other
        datasets without the items they share with it (none given: all of them).
    :returns: ``(kept candidate, one fold per dataset, candidate -> dataset -> r)``.
    """
    names = list(labels)
    if len(names) < 2:
        raise ValueError("leave-one-dataset-out needs at least two datasets")
    if not scores:
        raise ValueError("no candidate to choose from")
    table = {c: {n: pearson(per[n], labels[n]) for n in names} for c, per in scores.items()}

    def best(r: Callable[[str, str], float], among: Sequence[str]) -> str:  # NaN-safe: undefined ranks last
        means = {c: float(np.mean([r(c, n) for n in among])) for c in table}
        return max(table, key=lambda c: means[c] if np.isfinite(means[c]) else -np.inf)

    folds = []
    for name in names:
        others = [n for n in names if n != name]
        masks = {n: unseen(keys[n], keys[name]) if keys else np.ones(len(labels[n]), bool) for n in others}
        if not any(m.any() for m in masks.values()):
            raise ValueError(f"nothing to choose on without {name}: every other dataset's items are {name}'s")
        chosen = best(lambda c, n: pearson(scores[c][n][masks[n]], labels[n][masks[n]]), others)
        base = {k: pearson(v, labels[name]) for k, v in (baselines or {}).get(name, {}).items()}
        folds.append(Fold(name, len(labels[name]), table[chosen][name], base, chosen,
                          int(sum((~m).sum() for m in masks.values()))))
    return best(lambda c, n: table[c][n], names), folds, table


@dataclass(frozen=True)
class Ridge:
    """Standardised-feature ridge regression: ``y ~ b + ((x - mu) / sigma) @ w``."""

    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    bias: float

    def predict(self, x: np.ndarray) -> np.ndarray:
        return ((np.asarray(x, float) - self.mean) / self.scale) @ self.weights + self.bias


def fit_ridge(x: np.ndarray, y: np.ndarray, alpha: float) -> Ridge:
    """Closed-form ridge on standardised features (the penalty is ``alpha`` per row, so it does not shrink with n)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    mean, scale = x.mean(0), x.std(0)
    scale = np.where(scale > 0, scale, 1.0)
    z = (x - mean) / scale
    bias = float(y.mean())
    weights = np.linalg.solve(z.T @ z + alpha * len(y) * np.eye(z.shape[1]), z.T @ (y - bias))
    return Ridge(mean, scale, weights, bias)


def ridge_candidates(alphas: Sequence[float]) -> dict[str, tuple[Fit, Predict]]:
    """One ridge candidate per penalty, named ``ridge(alpha=...)``."""
    return {f"ridge(alpha={a:g})": (lambda x, y, a=a: fit_ridge(x, y, a), lambda m, x: m.predict(x)) for a in alphas}


def expand(model: Ridge, columns: Sequence[int], width: int) -> Ridge:
    """A ridge fitted on some columns, as one over all ``width`` columns (zero weight elsewhere)."""
    mean, scale, weights = np.zeros(width), np.ones(width), np.zeros(width)
    mean[list(columns)], scale[list(columns)], weights[list(columns)] = model.mean, model.scale, model.weights
    return Ridge(mean, scale, weights, model.bias)


def single_feature_candidates(names: Sequence[str], alpha: float = 1e-3) -> dict[str, tuple[Fit, Predict]]:
    """One candidate per feature alone (sign and scale learned on the training datasets), named ``only(NAME)``.

    With datasets whose labels disagree, one robust feature can beat a fit on all of them out of
    distribution; leave-one-dataset-out decides.
    """
    return {f"only({name})": (lambda x, y, i=i: expand(fit_ridge(x[:, [i]], y, alpha), [i], x.shape[1]),
                              lambda m, x: m.predict(x)) for i, name in enumerate(names)}
