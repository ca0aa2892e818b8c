"""Training lens-mini / lens-cla-mini judged on data they never saw: leave-one-dataset-out.

Each rated dataset (:func:`simpeval.learning.rated.load_rated`: labels z-scored per dataset) gives
examples with its own references. For every dataset left out, a head is trained on the others for
``max_epochs`` epochs and its predictions on the left-out dataset are kept after each epoch. Each
(seed, epochs) is a candidate, judged like SIERA's and SLE's epochs
(:func:`simpeval.learning.loo.choose_by_others`): a left-out dataset's row reports the candidate
chosen on the *other* datasets' left-out correlations, so no row's choice read its own labels; the
shipped head is trained on every dataset with the candidate of the best mean over all of them. No
split of one dataset is ever used, and SimpEval_2022 is refused (test data). A fold does not train
on, or choose by, the other datasets' examples that are items of the dataset it leaves out (the
same lower-cased source and output, rated twice).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np
import torch

from simpeval.itemkeys import pair_keys
from simpeval.learning.loo import Fold, choose_by_others, pearson, unseen
from simpeval.learning.rated import LABELS, RatedSet
from simpeval_lens.data import Example, make_example
from simpeval_lens.losses import max_over_references
from simpeval_lens.model import LensConfig, LensModel
from simpeval_lens.settings import TrainSettings
from simpeval_lens.training import Features, batch_loss, featurize, predict

if TYPE_CHECKING:
    from simpeval.run import Run


def rated_examples(rated: RatedSet, aspect: str = "simplicity") -> list[Example]:
    """A dataset's outputs as LENS examples (lower-cased, references equal to the output dropped)."""
    labels = rated.labels[LABELS[aspect][rated.name]]
    examples = [make_example(s, o, refs, float(z), f"{rated.name}\x00{s}")
                for s, o, refs, z in zip(rated.sources, rated.outputs, rated.references, labels)]
    return [e for e in examples if e.references]


def scores(model: LensModel, features: Features) -> np.ndarray:
    """The best-over-references prediction per item, without dropout."""
    model.eval()
    with torch.no_grad():
        grid, mask, _ = predict(model, features)
        best = max_over_references(grid, mask).numpy()
    model.train()
    return best


def train_epochs(config: LensConfig, train_set: Features, settings: TrainSettings, epochs: int,
                 watch: dict[str, Features] | None = None) -> tuple[LensModel, dict[str, list[np.ndarray]]]:
    """Train ``epochs`` epochs from ``settings.seed``; each watched set's predictions after every epoch."""
    torch.manual_seed(settings.seed)
    model = LensModel(config)
    optimizer = torch.optim.AdamW(model.parameters(), lr=settings.learning_rate)
    generator = torch.Generator().manual_seed(settings.seed)
    predictions: dict[str, list[np.ndarray]] = {name: [] for name in (watch or {})}
    model.train()
    for _ in range(epochs):
        order = torch.randperm(len(train_set), generator=generator)
        for begin in range(0, len(order), settings.batch_size):
            optimizer.zero_grad()
            batch_loss(model, train_set, order[begin : begin + settings.batch_size]).backward()
            optimizer.step()
        for name, features in (watch or {}).items():
            predictions[name].append(scores(model, features))
    model.eval()
    return model, predictions


@dataclass
class LooResult:
    """The left-out curves per seed, the kept (seed, epochs), the folds (each with the candidate chosen on the
    other datasets), and the final model."""

    curves: dict[int, dict[str, list[float]]]
    seed: int
    epochs: int
    folds: list[Fold]
    model: LensModel
    seconds: float


def candidate(seed: int, epochs: int) -> str:
    """A (seed, epochs) candidate's name in the folds and the training record."""
    return f"seed {seed}, {epochs} epochs"


def leave_one_dataset_out(config: LensConfig, examples: dict[str, Sequence[Example]], settings: TrainSettings,
                          seeds: Sequence[int], baselines: dict[str, dict[str, np.ndarray]],
                          log: Callable[[str], None] = lambda _: None, run: Run | None = None) -> LooResult:
    """Choose seed and epochs by mean left-out correlation, then train on every dataset.

    :param run: the run that keeps the encoder and the texts' embeddings (default: one for this call),
        so every fold reuses the embeddings.
    """
    from simpeval.run import using

    if len(examples) < 2:
        raise ValueError("leave-one-dataset-out needs at least two datasets")
    with using(run) as run:
        return _leave_one_dataset_out(config, examples, settings, seeds, baselines, log, run)


def _leave_one_dataset_out(config, examples, settings, seeds, baselines, log, run) -> LooResult:
    start = time.perf_counter()
    names = list(examples)
    features = {name: featurize(config.encoder, examples[name], run=run) for name in names}
    keys = {name: pair_keys([e.source for e in examples[name]], [e.output for e in examples[name]]) for name in names}
    training = {held: [e for n in names if n != held for e, new in zip(examples[n], unseen(keys[n], keys[held])) if new]
                for held in names}
    labels = {name: features[name].target.numpy() for name in names}
    curves: dict[int, dict[str, list[float]]] = {}
    left_out: dict[str, dict[str, np.ndarray]] = {}  # candidate -> dataset -> predictions of the head trained without it
    for seed in seeds:
        curves[seed] = {}
        for held in names:
            train_set = featurize(config.encoder, training[held], run=run)
            _, predictions = train_epochs(config, train_set, replace(settings, seed=seed), settings.max_epochs,
                                          {held: features[held]})
            for epoch, predicted in enumerate(predictions[held], start=1):
                left_out.setdefault(candidate(seed, epoch), {})[held] = predicted
            curves[seed][held] = [pearson(p, labels[held]) for p in predictions[held]]
            log(f"seed {seed}, {held} left out: r by epoch " + " ".join(f"{r:+.3f}" for r in curves[seed][held]))
    # a fold's choice leaves out the same shared rows as its training (Fold.dropped counts them)
    kept, folds, _ = choose_by_others(left_out, labels, baselines, keys)
    seed, epochs = {candidate(s, e): (s, e) for s in seeds for e in range(1, settings.max_epochs + 1)}[kept]
    everything = featurize(config.encoder, [e for n in names for e in examples[n]], run=run)
    model, _ = train_epochs(config, everything, replace(settings, seed=seed), epochs)
    return LooResult(curves, seed, epochs, folds, model, time.perf_counter() - start)
