"""``simpeval train siera`` chooses its epoch leave-one-dataset-out on rated data it never trains on."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner
from conftest import SENTENCES

from simpeval.cli import cli
from simpeval.learning import loo
from simpeval.learning.judge import Judge
from simpeval.learning.rated import RatedSet, zscore
from simpeval_siera.plugin import Siera


LOOPS: list = []


def synthetic_judge(seed: int = 0) -> Judge:
    """Three made-up rated sets, each over two of the test sentences (rated datasets hold different items):
    a simplification rated above a copy and a complication."""
    rng = np.random.default_rng(seed)
    sets = []
    for k, name in enumerate(("set-a", "set-b", "set-c")):
        rows = [row for hard, easy in SENTENCES[k::3]
                for row in ((hard, easy, 1.0), (hard, hard, 0.0), (easy, easy, 0.0), (easy, hard, -1.0))]
        labels = zscore(np.array([gain + rng.normal() for _, _, gain in rows]))
        sets.append(RatedSet(name, tuple(r[0] for r in rows), tuple(r[1] for r in rows),
                             tuple((r[1],) for r in rows), {"simplicity": labels}))
    return Judge.of(sets)


@pytest.fixture(scope="module")
def chosen(tmp_path_factory, tiny_encoder):
    from simpeval.learning.trainer import train
    from simpeval_siera.pipeline import DataSettings
    from simpeval_siera.trainer import SieraTrainer
    from simpeval_siera.training import TrainSettings

    output = tmp_path_factory.mktemp("loo") / "ckpt"
    judge = synthetic_judge()
    pairs = [(hard, easy, i) for i, (hard, easy) in enumerate(SENTENCES * 2)]
    with pytest.MonkeyPatch.context() as patch:  # watch the trainer go through the one selection loop
        loop = loo.leave_one_dataset_out
        patch.setattr(loo, "leave_one_dataset_out", lambda fit, rated, log: LOOPS.append(fit) or loop(fit, rated, log))
        trainer = SieraTrainer.given({"encoder": tiny_encoder, "rated": "none"}, pairs=pairs, judge=judge,
                                     data_settings=DataSettings(variant="base"),
                                     settings=TrainSettings(max_epochs=3, patience=3, batch_size=4, learning_rate=3e-2))
        report = train(trainer, output).train_report
    record = json.loads((output / "siera_config.json").read_text())["training"]
    return output, record, judge, report


def test_the_kept_epoch_is_judged_by_the_metric_it_ships(chosen):
    """The kept checkpoint's r is the correlation of its scores, and those are the ``siera`` metric's."""
    from simpeval_siera.features import FeatureCache
    from simpeval_siera.loo import cache_pairs, rated_pairs, two_way_scores
    from simpeval_siera.model import load_checkpoint, load_tokenizer

    output, record, judge, report = chosen
    assert set(record["candidates"]) == {"epoch 1", "epoch 2", "epoch 3"}
    kept = f"epoch {record['selected_epoch']}"
    means = {c: np.mean(list(per.values())) for c, per in record["candidates"].items()}
    assert means[kept] == max(means.values()) and report.selected_epoch == record["selected_epoch"]
    model = load_checkpoint(output)
    cache, pairs = FeatureCache(model, load_tokenizer(model.config)), rated_pairs(judge)
    cache_pairs(cache, pairs)
    scores = two_way_scores(model, cache, pairs)
    metric = Siera(checkpoint=str(output))
    for rated in judge.sets:
        r = np.corrcoef(scores[rated.name], judge.labels[rated.name])[0, 1]
        assert record["candidates"][kept][rated.name] == pytest.approx(r, abs=1e-4)
        shipped = metric.sentence_scores(list(rated.sources), list(rated.outputs))["siera"]
        assert scores[rated.name] == pytest.approx(shipped, abs=1e-4)  # the frozen states are cached in float16
    assert len(set(np.round(scores["set-a"], 5))) > 3  # the scores differ, so the correlations mean something


def test_each_left_out_row_uses_the_epoch_chosen_on_the_others(chosen):
    output, record, judge, _ = chosen
    table = record["candidates"]
    for fold in record["leave_one_dataset_out"]:
        others = [n for n in judge.names if n != fold["left_out"]]
        best = max(table, key=lambda c: np.mean([table[c][n] for n in others]))
        assert fold["chosen"] == best and fold["r"] == pytest.approx(table[best][fold["left_out"]], abs=1e-4)
        fkgl = judge.baselines[fold["left_out"]]["fkgl"]
        assert fold["baselines"]["fkgl"] == pytest.approx(np.corrcoef(fkgl, judge.labels[fold["left_out"]])[0, 1],
                                                          abs=1e-4)
    first = record["leave_one_dataset_out"][0]
    assert f"| siera | set-a | 8 | 0 | {first['chosen']} | {first['r']:+.3f} |" in (output / "MODEL_CARD.md").read_text()


def test_the_trainer_refuses_to_choose_on_test_data(sentences, tmp_path):
    (tmp_path / "orig.txt").write_text("\n".join(c for c, _ in sentences) + "\n")
    (tmp_path / "simp.txt").write_text("\n".join(s for _, s in sentences) + "\n")
    result = CliRunner().invoke(cli, ["train", "siera", "--orig", str(tmp_path / "orig.txt"), "--simp",
                                      str(tmp_path / "simp.txt"), "-o", str(tmp_path / "o"),
                                      "--rated-datasets", "simpeval-2022,simplicity-da"])
    assert result.exit_code == 2 and "test data only" in result.output and not (tmp_path / "o").exists()


def test_the_trainer_chose_through_the_one_loop_and_its_checkpoint_names_its_class(chosen):
    from simpeval.learning.trainer import load_from_checkpoint, read_identity
    from simpeval_siera.trainer import SieraTrainer

    output = chosen[0]
    assert [type(fit).__name__ for fit in LOOPS] == ["SieraTrainer"]
    assert read_identity(output) == {"class": "simpeval_siera.trainer:SieraTrainer", "trainer": "siera", "format": 1}
    import torch

    from simpeval_siera.model import load_checkpoint

    loaded, again = load_from_checkpoint(output, [SieraTrainer]), load_checkpoint(output)
    assert all(torch.equal(v, again.trained_state()[k]) for k, v in loaded.trained_state().items())
