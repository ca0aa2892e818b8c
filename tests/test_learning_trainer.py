"""The trainer protocol (:mod:`simpeval.learning.trainer`): one selection loop for every trainer, checkpoints that
name their trainer class and load only through a registered one, and the four learned plugins on it."""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import simpeval
from simpeval.learning import loo
from simpeval.learning.trainer import (
    FORMAT_VERSION,
    IDENTITY_FILE,
    Trainer,
    class_id,
    load_from_checkpoint,
    read_identity,
    train,
)

PLUGINS = Path(simpeval.__file__).parents[1] / "plugins"
LEARNED = ("simpeval-lens", "simpeval-siera", "simpeval-sle", "simpeval-simpq")


class Slope(Trainer):
    """A toy trainer fitted on the rated datasets: ``y ~ w x`` by gradient steps; a start is a learning rate."""

    name = "toy-slope"
    checkpoint_files = ("slope.json",)
    fits_rated = True

    def __init__(self, data_dir=None, rates=(0.1, 0.5), epochs=3) -> None:
        super().__init__(data_dir)
        self.rates, self.epochs, self.started = rates, epochs, []

    def data(self, log) -> None:
        rng = np.random.default_rng(0)
        self.x = {n: rng.normal(size=30) for n in ("a", "b", "c")}
        self.y = {n: loo.pearson(x, x) * x + rng.normal(size=30) for n, x in self.x.items()}

    def rated(self):
        return loo.Rated(self.y, {n: {"x": x} for n, x in self.x.items()})

    def starts(self):
        return self.rates

    def start(self, rate, without):
        self.started.append((rate, without))
        names = [n for n in self.x if n != without]
        self.train_x = np.concatenate([self.x[n] for n in names])
        self.train_y = np.concatenate([self.y[n] for n in names])
        self.rate, self.w, self.epoch = rate, -1.0, 0

    def fit_epoch(self):
        self.w += self.rate * float(np.mean((self.train_y - self.w * self.train_x) * self.train_x))
        self.epoch += 1
        return self.epoch >= self.epochs

    def predict(self, names):
        return {n: self.w * self.x[n] for n in names}

    def candidate(self, rate, epoch):
        return f"rate {rate}, {epoch} epochs"

    def finish(self, kept):
        rate, epochs = kept.split(", ")
        self.start(float(rate.split()[1]), None)
        for _ in range(int(epochs.split()[0])):
            self.fit_epoch()

    def save(self, directory):
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "slope.json").write_text(json.dumps({"w": self.w}))

    @classmethod
    def load(cls, directory):
        return json.loads((Path(directory) / "slope.json").read_text())["w"]


def test_the_loop_trains_each_start_without_each_dataset_and_keeps_the_best_mean(tmp_path):
    trainer = train(Slope(), tmp_path / "ckpt")
    assert trainer.started[:6] == [(r, n) for r in (0.1, 0.5) for n in ("a", "b", "c")]
    assert trainer.started[6][1] is None  # the kept candidate refitted on every dataset
    table = trainer.choice.table
    assert set(table) == {f"rate {r}, {e} epochs" for r in (0.1, 0.5) for e in (1, 2, 3)}
    assert trainer.choice.kept == max(table, key=lambda c: np.mean(list(table[c].values())))
    for fold in trainer.choice.folds:  # each row: the candidate chosen on the other datasets
        others = [n for n in "abc" if n != fold.left_out]
        assert fold.chosen == max(table, key=lambda c: np.mean([table[c][n] for n in others]))
        assert fold.r == table[fold.chosen][fold.left_out]


def test_a_checkpoint_names_its_class_and_format_and_loads_through_it(tmp_path):
    trainer = train(Slope(), tmp_path / "ckpt")
    identity = read_identity(tmp_path / "ckpt")
    assert identity == {"class": class_id(Slope), "trainer": "toy-slope", "format": FORMAT_VERSION}
    assert identity["class"] == f"{__name__}:Slope"
    assert load_from_checkpoint(tmp_path / "ckpt", [Slope]) == pytest.approx(trainer.w)


def test_a_checkpoint_naming_an_unknown_class_is_refused_in_one_line_and_imports_nothing(tmp_path):
    (tmp_path / IDENTITY_FILE).write_text(json.dumps({"class": "evil_module_x:Payload", "trainer": "x", "format": 1}))
    with pytest.raises(simpeval.UsageError) as refused:
        load_from_checkpoint(tmp_path, [Slope])
    message = str(refused.value)
    assert "\n" not in message and "'evil_module_x:Payload'" in message and "no installed plugin registers" in message
    assert "evil_module_x" not in sys.modules


def test_a_newer_format_or_a_broken_identity_is_refused(tmp_path):
    (tmp_path / IDENTITY_FILE).write_text(json.dumps({"class": class_id(Slope), "format": FORMAT_VERSION + 1}))
    with pytest.raises(simpeval.UsageError, match="newer than this simpeval reads"):
        load_from_checkpoint(tmp_path, [Slope])
    (tmp_path / IDENTITY_FILE).write_text("{not json")
    with pytest.raises(simpeval.UsageError, match="is broken"):
        load_from_checkpoint(tmp_path, [Slope])


def test_a_checkpoint_from_before_the_identity_file_is_read_by_the_trainer_whose_files_it_holds(tmp_path):
    (tmp_path / "slope.json").write_text(json.dumps({"w": 0.25}))
    assert load_from_checkpoint(tmp_path, [Slope]) == 0.25
    with pytest.raises(simpeval.UsageError, match="is not a checkpoint of any installed trainer"):
        load_from_checkpoint(tmp_path / "missing")  # among every registered trainer
    with pytest.raises(FileNotFoundError):  # among the trainers given: the first refuses it in its words
        load_from_checkpoint(tmp_path / "missing", [Slope])


def test_every_learned_plugin_registers_its_trainers():
    from simpeval.registry import load_registry

    trainers = load_registry().trainers
    assert {"lens-mini", "lens-cla-mini", "siera", "sle", "simpq"} <= set(trainers)
    assert all(issubclass(trainers[n], Trainer) for n in ("lens-mini", "lens-cla-mini", "siera", "sle", "simpq"))


def test_the_shipped_checkpoints_written_before_the_identity_file_still_load():
    from simpeval_lens.model import LensModel
    from simpeval_lens.plugin import CHECKPOINTS
    from simpeval_simpq.plugin import CHECKPOINT
    from simpeval_sle.plugin import SHIPPED_DIR

    from simpeval.registry import load_registry

    trainers = list(load_registry().trainers.values())
    assert isinstance(load_from_checkpoint(CHECKPOINTS / "lens", trainers), LensModel)
    config, _ = load_from_checkpoint(SHIPPED_DIR, trainers)
    assert config.levels == ["Advanced", "Intermediate", "Elementary"]
    assert set(load_from_checkpoint(CHECKPOINT, trainers)) == {"base", "base+cescore", "base+embeddings",
                                                             "base+cescore+embeddings"}


def _calls(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            names.add(func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", ""))
    return names


def test_no_learned_plugin_carries_a_selection_loop_or_a_train_command_of_its_own():
    """Every trainer chooses through :func:`simpeval.learning.loo.leave_one_dataset_out` (the plugins' own tests
    watch each one go through it); none calls the choice underneath it or adds a click command."""
    for plugin in LEARNED:
        for path in (PLUGINS / plugin).glob("simpeval_*/*.py"):
            calls = _calls(path)
            assert not calls & {"choose_by_others", "choose", "left_out_predictions"}, path
            assert "add_command" not in calls and "import click" not in path.read_text(encoding="utf-8"), path
