"""cefr-lr's trainer on the protocol: its ridge penalty chosen leave-one-language-out through the one selection loop."""

from __future__ import annotations

import numpy as np
import pytest

from simpeval.learning import loo
from simpeval.learning.cefr_lr import ALPHAS, LANGS, CefrLrTrainer, ridge, rows_of
from simpeval.learning.trainer import load_from_checkpoint, read_identity, train
from simpeval.metrics.cefr_lr import predict


def synthetic_readme(seed: int = 0) -> dict:
    """Per language: 7 features of 60 made-up sentences, a CEFR level linear in them plus noise, three splits."""
    rng = np.random.default_rng(seed)
    readme = {}
    for k, lang in enumerate(LANGS):
        table = rng.normal(size=(60, 7)) + k * 0.1
        target = table @ np.linspace(1, -0.5, 7) + rng.normal(scale=2.0, size=60) + 3
        table[5, 2] = np.nan  # a sentence without a feature is left out
        readme[lang] = (table, target, np.array(["train", "validation", "test"] * 20), None)
    return readme


def chosen_directly(readme: dict, langs) -> tuple[float, dict[float, float]]:
    """The penalty as ``benchmarks/cefr_lr_train.py`` chose it before the protocol: for each language, fit on the
    others' train splits, r on its validation split; the best mean."""
    means = {}
    for alpha in ALPHAS:
        rs = []
        for held in langs:
            weights = ridge(*rows_of(readme, [x for x in langs if x != held], ["train"]), alpha)
            table, target = rows_of(readme, [held], ["validation"])
            rs.append(np.corrcoef(predict(table, weights), target)[0, 1])
        means[alpha] = float(np.mean(rs))
    return max(means, key=means.get), means


def test_the_penalty_is_the_best_mean_left_out_r_and_the_shipped_fit_reads_every_language(tmp_path):
    readme = synthetic_readme()
    fits = []
    with pytest.MonkeyPatch.context() as patch:  # the one selection loop
        loop = loo.leave_one_dataset_out
        patch.setattr(loo, "leave_one_dataset_out", lambda fit, rated, log: fits.append(fit) or loop(fit, rated, log))
        trainer = train(CefrLrTrainer.given(readme=readme), tmp_path / "ckpt")
    alpha, means = chosen_directly(readme, LANGS)
    assert fits == [trainer] and trainer.alpha == alpha
    assert trainer.penalties() == pytest.approx(means, abs=1e-12)
    assert trainer.weights == ridge(*rows_of(readme, LANGS, ["train", "validation"]), alpha)
    assert read_identity(tmp_path / "ckpt")["class"] == "simpeval.learning.cefr_lr:CefrLrTrainer"
    assert load_from_checkpoint(tmp_path / "ckpt", [CefrLrTrainer]) == trainer.weights


def test_a_fold_chooses_its_penalty_on_the_other_languages_only():
    readme = synthetic_readme(1)
    trainer = CefrLrTrainer.given(readme=readme)
    fold = trainer.without("fr")
    others = [x for x in LANGS if x != "fr"]
    assert fold.langs == others and fold.alpha == chosen_directly(readme, others)[0]
    assert fold.weights == ridge(*rows_of(readme, others, ["train", "validation"]), fold.alpha)


def test_cefr_lr_is_a_registered_trainer():
    from simpeval.registry import load_registry

    assert load_registry(autoload=False).trainers["cefr-lr"] is CefrLrTrainer
