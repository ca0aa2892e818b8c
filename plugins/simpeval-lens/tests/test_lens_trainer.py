"""lens-mini's and lens-cla-mini's trainers on the protocol: the one selection loop, a checkpoint that names its class."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from simpeval.learning import loo
from simpeval.learning.trainer import load_from_checkpoint, read_identity, train


@pytest.mark.parametrize("variant", ["lens", "E+R"])
def test_the_trainer_goes_through_the_loop_and_round_trips_its_checkpoint(tiny_encoder, examples, tmp_path, variant):
    import torch

    from simpeval_lens.model import LensModel
    from simpeval_lens.trainer import LensClaTrainer, LensTrainer

    cls = LensTrainer if variant == "lens" else LensClaTrainer
    trainer = cls(**({} if variant == "lens" else {"variant": variant}), encoder=tiny_encoder, seeds=[0, 1],
                  max_epochs=2, batch_size=4, learning_rate=1e-2)
    trainer.examples = {"simplicity-da": examples[:6], "structural-simplicity": [*examples[6:], replace(examples[0], target=0.7)]}
    trainer.baselines = {n: {"compression": np.array([len(e.output) / len(e.source) for e in ex])}
                         for n, ex in trainer.examples.items()}
    fits = []
    with pytest.MonkeyPatch.context() as patch:
        loop = loo.leave_one_dataset_out
        patch.setattr(loo, "leave_one_dataset_out", lambda fit, rated, log: fits.append(fit) or loop(fit, rated, log))
        train(trainer, tmp_path / "ckpt")
    assert fits == [trainer] and trainer.choice.kept == f"seed {trainer.seed}, {trainer.epochs_kept} epochs"
    assert read_identity(tmp_path / "ckpt") == {"class": f"simpeval_lens.trainer:{cls.__name__}", "trainer": cls.name,
                                                "format": 1}
    loaded = load_from_checkpoint(tmp_path / "ckpt", [LensTrainer, LensClaTrainer])
    assert isinstance(loaded, LensModel) and loaded.config.variant == variant
    saved = trainer.model.state_dict()
    assert all(torch.equal(v, saved[k]) for k, v in loaded.state_dict().items())


def test_the_validation_split_trainer_keeps_the_seed_of_the_lowest_validation_loss(tiny_encoder, examples, tmp_path):
    """``simpeval train lens-split`` (Kwak et al.'s recipe, ``benchmarks/reproduce_kwak_2024.py``): one head per seed,
    early stopping on the validation split; the kept seed's head is saved with its record and class id."""
    from simpeval import models
    from simpeval_lens.model import LensConfig
    from simpeval_lens.settings import TrainSettings
    from simpeval_lens.trainer import LensSplitTrainer, LensTrainer

    config = LensConfig(**models.encoder_reference(tiny_encoder, "LENS"), layers=3, hidden=32, head_hidden=16)
    trainer = LensSplitTrainer.given({"seeds": [0, 1], "valid_fraction": 0.25}, config=config, examples=examples,
                                     settings=TrainSettings(learning_rate=1e-2, batch_size=4, max_epochs=3))
    with pytest.MonkeyPatch.context() as patch:
        loop, fits = loo.leave_one_dataset_out, []
        patch.setattr(loo, "leave_one_dataset_out", lambda fit, rated, log: fits.append(fit) or loop(fit, rated, log))
        train(trainer, tmp_path / "ckpt")
    assert fits == [trainer] and set(trainer.reports) == {0, 1}
    assert trainer.best_seed == min((0, 1), key=lambda s: trainer.reports[s].best_value)
    record = trainer.model.config.training
    assert record["selected_seed"] == trainer.best_seed and record["train_outputs"] + record["valid_outputs"] == 10
    assert record["seeds"]["0"]["valid_loss"] == round(trainer.reports[0].best_value, 5)
    assert read_identity(tmp_path / "ckpt")["class"] == "simpeval_lens.trainer:LensSplitTrainer"
    loaded = load_from_checkpoint(tmp_path / "ckpt", [LensTrainer, LensSplitTrainer])
    assert all(np.array_equal(v, trainer.model.state_dict()[k]) for k, v in loaded.state_dict().items())
