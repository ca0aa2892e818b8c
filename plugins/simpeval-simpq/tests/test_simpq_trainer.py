"""simpq's trainer on the protocol: every (variant, aspect) model chosen by the one selection loop, and a checkpoint
that names its class and loads through it."""

import numpy as np
import pytest

from simpeval.learning import loo
from simpeval.learning.rated import RatedSet, zscore
from simpeval.learning.trainer import load_from_checkpoint, read_identity, save_checkpoint
from simpeval.run import Run
from simpeval_simpq.features import features
from simpeval_simpq.training import train
from simpeval_simpq.trainer import SimpqTrainer

SOURCE = "The municipality subsequently constructed an enormous bridge over the river."


def test_each_aspect_is_chosen_by_the_loop_and_the_checkpoint_round_trips(tmp_path):
    def rated(name, start):
        outputs = [SOURCE[: start + 5 * i] for i in range(12)]
        labels = zscore(np.arange(12.0))
        return RatedSet(name, (SOURCE,) * 12, tuple(outputs), ((SOURCE,),) * 12,
                        {"simplicity": labels, "meaning": labels, "fluency": labels, "grammaticality": labels})

    sets = [rated("simplicity-da", 20), rated("structural-simplicity", 22)]
    matrices = {s.name: features(s.sources, s.outputs, s.references, Run()) for s in sets}
    fits = []
    with pytest.MonkeyPatch.context() as patch:
        loop = loo.leave_one_dataset_out
        patch.setattr(loo, "leave_one_dataset_out", lambda fit, rated, log=None: fits.append(fit) or loop(fit, rated))
        results = train(sets, matrices, alphas=(0.01, 100.0), groups=("base",))
    assert [type(f).__name__ for f in fits] == ["CandidateFits"] * 3  # one per aspect of the one variant
    trainer = SimpqTrainer()
    trainer.results = results
    save_checkpoint(trainer, tmp_path / "ckpt")
    assert read_identity(tmp_path / "ckpt") == {"class": "simpeval_simpq.trainer:SimpqTrainer", "trainer": "simpq",
                                                "format": 1}
    loaded = load_from_checkpoint(tmp_path / "ckpt", [SimpqTrainer])
    assert set(loaded) == {"base"} and set(loaded["base"]) == {"simplicity", "meaning", "fluency"}
    for aspect, model in loaded["base"].items():
        assert model.weights == pytest.approx(results["base"][aspect].model.weights)
        assert model.bias == pytest.approx(results["base"][aspect].model.bias)
