"""lens-mini's trainer: each left-out r is that of a head trained without the left-out dataset (its items
rated again by another dataset included)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from simpeval.learning.report import loo_table


def train_epochs(config, train_set, settings, epochs: int, watch=None):
    """Train ``epochs`` epochs from ``settings.seed``; each watched set's predictions after every epoch."""
    from simpeval_lens.training import Epochs, scores

    run = Epochs(config, train_set, settings)
    predictions = {name: [] for name in (watch or {})}
    for _ in range(epochs):
        run.train_epoch()
        for name, features in (watch or {}).items():
            predictions[name].append(scores(run.model, features))
    run.model.eval()
    return run.model, predictions


@pytest.fixture()
def datasets(examples):
    """The hand-written examples as two made-up rated datasets (one per half of the originals); set-b rates
    one of set-a's outputs again (a shared item, as real rated datasets have)."""
    return {"set-a": examples[:6], "set-b": [*examples[6:], replace(examples[0], target=0.7)]}


def test_each_fold_is_a_head_trained_on_the_other_datasets(tiny_encoder, datasets):
    import torch

    from simpeval import models
    from simpeval.run import Run
    from simpeval_lens.loo import leave_one_dataset_out
    from simpeval_lens.model import LensConfig
    from simpeval_lens.settings import TrainSettings
    from simpeval_lens.trainer import candidate
    from simpeval_lens.training import featurize, scores

    config = LensConfig(**models.encoder_reference(tiny_encoder, "LENS"), layers=3, hidden=32, head_hidden=16)
    settings = TrainSettings(learning_rate=1e-2, batch_size=4, max_epochs=3)
    baselines = {n: {"compression": np.array([len(e.output) / len(e.source) for e in ex])} for n, ex in datasets.items()}
    grid = {candidate(s, e): (s, e) for s in (0, 1) for e in (1, 2, 3)}

    def unshared(name, other):
        pairs = {(e.source, e.output) for e in datasets[other]}
        return [e for e in datasets[name] if (e.source, e.output) not in pairs]

    with Run() as run:
        result = leave_one_dataset_out(config, datasets, settings, [0, 1], baselines, run=run)
        means = {(s, e): np.mean([c[e] for c in result.curves[s].values()]) for s in (0, 1) for e in range(3)}
        assert means[result.seed, result.epochs_kept - 1] == max(means.values())
        for fold in result.choice.folds:
            (other,) = [n for n in datasets if n != fold.left_out]
            training = unshared(other, fold.left_out)  # set-b rates one of set-a's outputs again: never trained on
            assert fold.dropped == 1 and len(training) == len(datasets[other]) - 1
            # chosen on the other dataset's own items, read from the heads trained without it
            reads = {}
            for seed in (0, 1):
                _, predicted = train_epochs(config, featurize(tiny_encoder, unshared(fold.left_out, other), run=run),
                                            replace(settings, seed=seed), 3, {"read": featurize(tiny_encoder, training,
                                                                                               run=run)})
                reads.update({candidate(seed, e + 1): p for e, p in enumerate(predicted["read"])})
            target = [e.target for e in training]
            assert fold.chosen == max(grid, key=lambda c: np.corrcoef(reads[c], target)[0, 1])
            torch.manual_seed(123)  # train_epochs seeds itself: the same head whatever came before
            seed, epochs = grid[fold.chosen]
            model, _ = train_epochs(config, featurize(tiny_encoder, training, run=run), replace(settings, seed=seed),
                                    epochs)
            held = featurize(tiny_encoder, datasets[fold.left_out], run=run)
            r = np.corrcoef(scores(model, held), [e.target for e in datasets[fold.left_out]])[0, 1]
            assert fold.r == pytest.approx(r, abs=1e-5) and fold.n == len(datasets[fold.left_out])
            compression = baselines[fold.left_out]["compression"]
            assert fold.baselines["compression"] == pytest.approx(np.corrcoef(compression, held.target.numpy())[0, 1])
    row = loo_table([("lens-mini", result.choice.folds)])[2]
    assert row.startswith(f"| lens-mini | set-a | 6 | 1 | {result.choice.folds[0].chosen} | {result.choice.folds[0].r:+.3f} |")
