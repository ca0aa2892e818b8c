"""A plugin's exception is one line naming the plugin (exit status 1), serially and under --jobs;
a metric that cannot reach worker processes, or a worker that dies, is one line too."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PLUGIN = '''
import os
import simpeval


def make(stage):
    class Raiser(simpeval.Metric):
        name = f"raise-{stage}"

        def __init__(self, **settings):
            if stage == "init":
                raise RuntimeError("init broken")
            super().__init__(**settings)
            if stage == "unpicklable":
                self.hook = lambda: None

        def signature(self):
            if stage == "signature":
                raise RuntimeError("signature broken")
            return super().signature()

        def check_inputs(self, sources, outputs, references=None):
            if stage == "check":
                raise RuntimeError("check broken")

        def _score_items(self, sources, outputs, references=None):
            if stage == "sentences":
                raise RuntimeError("sentences broken")
            if stage == "dies":
                os._exit(9)
            return {self.name: [1.0 for _ in outputs]}

    if stage == "corpus":
        def _score_corpus(self, sources, outputs, references=None):
            raise RuntimeError("corpus broken")

        Raiser._score_corpus = _score_corpus
        Raiser.corpus_level = True
    return Raiser


class Mutator(simpeval.Metric):
    """Writes into every input list it is given."""
    name = "mutator"
    requires_references = False

    def _score_items(self, sources, outputs, references=None):
        for texts in (sources, outputs):
            texts[:] = ["" for _ in texts]
        return {self.name: [1.0 for _ in outputs]}


class FortyTwo(simpeval.Metric):
    name = 42

    def _score_items(self, sources, outputs, references=None):
        return {42: [1.0 for _ in outputs]}


CLASSES = []
for stage in ("init", "signature", "check", "sentences", "corpus", "unpicklable", "dies"):
    cls = make(stage)
    cls.__name__ = cls.__qualname__ = f"Raiser_{stage}"  # module-level, so worker processes can unpickle it
    globals()[cls.__name__] = cls
    CLASSES.append(cls)


@simpeval.hookimpl
def simpeval_register_metrics():
    return [*CLASSES, Mutator, FortyTwo]


@simpeval.hookimpl
def simpeval_register_commands(cli, train):
    @train.command("raiser")
    def raiser():
        raise RuntimeError("train broken")
'''

REMEDY = "report it to the authors of raisers or switch it off with -p no:raisers"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("raisers")
    (root / "raisers").mkdir()
    (root / "raisers" / "__init__.py").write_text(PLUGIN)
    info = root / "raisers-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: raisers\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[simpeval]\nraisers = raisers\n")
    (root / "orig.txt").write_text("the cat sat on the mat .\nit was a sunny day .\n")
    (root / "sys.txt").write_text("the cat sat .\nit was sunny .\n")
    (root / "long.txt").write_text("the international committee considered the extraordinary circumstances very "
                                   "carefully .\nit was a sunny day .\n")
    return root


def simpeval(site: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *sys.path])}
    for name in ("SIMPEVAL_DISABLE_PLUGIN_AUTOLOAD", "SIMPEVAL_DISABLE_PLUGINS"):
        env.pop(name, None)
    return subprocess.run([sys.executable, "-m", "simpeval", *args], env=env, cwd=site, capture_output=True,
                          text=True, timeout=180)


def one_line(done: subprocess.CompletedProcess) -> str:
    lines = [line for line in done.stderr.splitlines() if not line.startswith("warning: ")]
    assert len(lines) == 1, done.stderr
    return lines[0]


@pytest.mark.parametrize("stage, jobs", [
    *((stage, "1") for stage in ("init", "signature", "check", "sentences", "corpus")),
    ("sentences", "2"),  # raised in a worker process: the worker names the plugin
    ("corpus", "2"),
])
def test_a_raising_metric_is_one_line_naming_its_plugin(site, stage, jobs):
    done = simpeval(site, "evaluate", "--orig", "orig.txt", "--sys", "sys.txt", "-m", f"raise-{stage}", "--no-cache",
                    "--jobs", jobs)
    assert done.returncode == 1
    assert one_line(done) == (f'Error: plugin "raisers" (raisers 1.0) failed (RuntimeError: {stage} broken): {REMEDY}')
    assert done.stdout == ""


def test_a_raising_train_command_is_one_line(site):
    done = simpeval(site, "train", "raiser")
    assert done.returncode == 1
    assert one_line(done) == f'Error: plugin "raisers" (raisers 1.0) failed (RuntimeError: train broken): {REMEDY}'


def test_an_unpicklable_metric_under_jobs_is_one_line(site):
    done = simpeval(site, "evaluate", "--orig", "orig.txt", "--sys", "sys.txt", "-m", "raise-unpicklable",
                    "--no-cache", "--jobs", "2")
    assert done.returncode == 2
    line = one_line(done)
    assert line.startswith("Error: a metric cannot be sent to worker processes (") and line.endswith(
        "): run it without --jobs")


def test_a_dying_worker_is_one_line(site):
    done = simpeval(site, "evaluate", "--orig", "orig.txt", "--sys", "sys.txt", "-m", "raise-dies", "--no-cache",
                    "--jobs", "2")
    assert done.returncode == 2
    assert one_line(done) == ("Error: a worker process died while scoring batch 0 (items 1-2) (killed, or out of "
                              "memory): run again with fewer --jobs, or without --jobs")


def test_a_metric_named_by_a_number_is_the_plugins_error_and_the_listing_works(site):
    done = simpeval(site, "metrics", "list")
    assert done.returncode == 0, done.stderr
    assert ('plugin "raisers" (raisers 1.0): Error registering simpeval plugin "raisers": metric class FortyTwo has '
            "the name 42, not a string: name it in quotes") in done.stdout


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_metric_that_edits_its_inputs_changes_no_other_metrics_numbers(site, jobs):
    alone = simpeval(site, "evaluate", "--orig", "orig.txt", "--sys", "long.txt", "-m", "fkgl", "--no-cache",
                     "--format", "json")
    assert alone.returncode == 0, alone.stderr
    expected = json.loads(alone.stdout)["corpus"]["fkgl"]
    assert expected > 10
    for metrics in ("mutator,fkgl", "fkgl,mutator"):
        done = simpeval(site, "evaluate", "--orig", "orig.txt", "--sys", "long.txt", "-m", metrics, "--no-cache",
                        "--format", "json", "--jobs", jobs)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["corpus"]["fkgl"] == expected, metrics
