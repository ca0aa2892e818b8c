"""``simpeval train sle`` chooses its epoch leave-one-dataset-out on rated data it never trains on."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner
from sle_testdata import ARTICLES, write_corpus

from simpeval.cli import cli
from simpeval.learning import loo
from simpeval.learning.judge import Judge
from simpeval.learning.rated import RatedSet, zscore
from simpeval_sle.model import load_checkpoint
from simpeval_sle.plugin import SleDelta
from simpeval_sle.settings import CONFIG_FILE, TrainSettings


LOOPS: list = []


def synthetic_judge(seed: int = 0) -> Judge:
    """Three made-up rated sets, each over two of the test articles (rated datasets hold different items):
    simpler versions rated higher, plus noise."""
    rng = np.random.default_rng(seed)
    sets = []
    for k, name in enumerate(("set-a", "set-b", "set-c")):
        rows = [(v[i], v[j], j - i) for v in list(ARTICLES.values())[k::3]
                for i, j in ((0, 1), (0, 2), (1, 2), (0, 0), (2, 0))]
        labels = zscore(np.array([gain + rng.normal() * 1.5 for _, _, gain in rows]))
        sets.append(RatedSet(name, tuple(r[0] for r in rows), tuple(r[1] for r in rows),
                             tuple((r[1],) for r in rows), {"simplicity": labels}))
    return Judge.of(sets)


@pytest.fixture(scope="module")
def chosen(tmp_path_factory, tiny_encoder):
    from simpeval.learning.trainer import train
    from simpeval_sle.trainer import SleTrainer

    root = tmp_path_factory.mktemp("loo")
    judge = synthetic_judge()
    settings = TrainSettings(max_epochs=4, patience=4, batch_size=4, hidden_size=8)
    with pytest.MonkeyPatch.context() as patch:  # watch the trainer go through the one selection loop
        loop = loo.leave_one_dataset_out
        patch.setattr(loo, "leave_one_dataset_out", lambda fit, rated, log: LOOPS.append(fit) or loop(fit, rated, log))
        trainer = SleTrainer.given({"data_dir": write_corpus(root / "data"), "encoder": tiny_encoder, "rated": "none"},
                                   settings=settings, judge=judge)
        record = train(trainer, root / "ckpt").config.training
    return root / "ckpt", record, judge


def test_each_epoch_is_judged_by_the_metric_it_ships(chosen):
    """The kept checkpoint's r, recomputed through the ``sle-delta`` metric itself, is the table's."""
    output, record, judge = chosen
    assert set(record["candidates"]) == {f"epoch {e}" for e in range(1, 5)}
    kept = f"epoch {record['selected_epoch']}"
    means = {c: np.mean(list(per.values())) for c, per in record["candidates"].items()}
    assert means[kept] == max(means.values())
    metric = SleDelta(checkpoint=str(output))
    for rated in judge.sets:
        delta = metric.sentence_scores(list(rated.sources), list(rated.outputs))["sle-delta"]
        r = np.corrcoef(delta, judge.labels[rated.name])[0, 1]
        assert record["candidates"][kept][rated.name] == pytest.approx(r, abs=1e-4)


def test_each_left_out_row_uses_the_epoch_chosen_on_the_others(chosen):
    output, record, judge = chosen
    table = record["candidates"]
    for fold in record["leave_one_dataset_out"]:
        others = [n for n in judge.names if n != fold["left_out"]]
        best = max(table, key=lambda c: np.mean([table[c][n] for n in others]))
        assert fold["chosen"] == best and fold["r"] == pytest.approx(table[best][fold["left_out"]], abs=1e-4)
        labels = judge.labels[fold["left_out"]]
        compression = judge.baselines[fold["left_out"]]["length-compression"]
        assert fold["baselines"]["length-compression"] == pytest.approx(np.corrcoef(compression, labels)[0, 1], abs=1e-4)
    card = (output / "MODEL_CARD.md").read_text()
    first = record["leave_one_dataset_out"][0]
    assert f"| sle-delta | set-a | 10 | 0 | {first['chosen']} | {first['r']:+.3f} |" in card
    assert json.loads((output / CONFIG_FILE).read_text())["training"]["rated_datasets"] == ["set-a", "set-b", "set-c"]


def test_the_trainer_refuses_to_choose_on_test_data(tmp_path):
    result = CliRunner().invoke(cli, ["train", "sle", "--data-dir", str(write_corpus(tmp_path / "d")), "-o",
                                      str(tmp_path / "o"), "--rated-datasets", "simplicity-da,simpeval-2022"])
    assert result.exit_code == 2 and "test data only" in result.output and not (tmp_path / "o").exists()


def test_the_trainer_chose_through_the_one_loop_and_its_checkpoint_names_its_class(chosen):
    from simpeval.learning.trainer import load_from_checkpoint, read_identity
    from simpeval_sle.trainer import SleTrainer

    output = chosen[0]
    assert [type(fit).__name__ for fit in LOOPS] == ["SleTrainer"]
    assert read_identity(output) == {"class": "simpeval_sle.trainer:SleTrainer", "trainer": "sle", "format": 1}
    import torch

    (config, head), (_, again) = load_from_checkpoint(output, [SleTrainer]), load_checkpoint(str(output))
    assert config.training["selected_epoch"] == chosen[1]["selected_epoch"]
    assert all(torch.equal(v, again.state_dict()[k]) for k, v in head.state_dict().items())
