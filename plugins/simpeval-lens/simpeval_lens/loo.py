"""lens-mini / lens-cla-mini judged on data they never saw: the rated examples, the left-out scores, and
:func:`leave_one_dataset_out`, the trainer (:mod:`simpeval_lens.trainer`) on examples already read.

Each (seed, epochs) is a candidate, judged like SIERA's and SLE's epochs through the one selection loop
(:func:`simpeval.learning.loo.leave_one_dataset_out`): a left-out dataset's row reports the candidate
chosen on the *other* datasets' left-out correlations, so no row's choice read its own labels. No split
of one dataset is ever used, and SimpEval_2022 is refused (test data). A fold does not train on, or
choose by, the other datasets' examples that are items of the dataset it leaves out (the same
lower-cased source and output, rated twice).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import torch

from simpeval.learning.loo import Fold
from simpeval.learning.rated import LABELS, RatedSet
from simpeval_lens.data import Example, make_example
from simpeval_lens.losses import max_over_references
from simpeval_lens.model import LensConfig, LensModel
from simpeval_lens.settings import TrainSettings
from simpeval_lens.trainer import candidate
from simpeval_lens.training import Epochs, Features, predict

if TYPE_CHECKING:
    from simpeval.run import Run

__all__ = ["LooResult", "candidate", "leave_one_dataset_out", "rated_examples", "scores", "train_epochs"]


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
    run = Epochs(config, train_set, settings)
    predictions: dict[str, list[np.ndarray]] = {name: [] for name in (watch or {})}
    for _ in range(epochs):
        run.step()
        for name, features in (watch or {}).items():
            predictions[name].append(scores(run.model, features))
    run.model.eval()
    return run.model, predictions


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


def leave_one_dataset_out(config: LensConfig, examples: dict[str, Sequence[Example]], settings: TrainSettings,
                          seeds: Sequence[int], baselines: dict[str, dict[str, np.ndarray]],
                          log: Callable[[str], None] = lambda _: None, run: Run | None = None) -> LooResult:
    """Choose seed and epochs by mean left-out correlation, then train on every dataset: the trainer of
    ``simpeval train lens-mini`` (:class:`~simpeval_lens.trainer.LensTrainer`) on examples already read.

    :param run: the run that keeps the encoder and the texts' embeddings (default: one for this call),
        so every fold reuses the embeddings.
    """
    from simpeval.learning.trainer import fit
    from simpeval_lens.trainer import LensTrainer

    if len(examples) < 2:
        raise ValueError("leave-one-dataset-out needs at least two datasets")
    trainer = LensTrainer(seeds=seeds, variant=config.variant, run=run)
    trainer.config, trainer.examples, trainer.baselines, trainer.settings = config, dict(examples), baselines, settings
    fit(trainer, log)
    return LooResult(trainer.curves, trainer.seed, trainer.epochs_kept, trainer.choice.folds, trainer.model,
                     trainer.seconds)
