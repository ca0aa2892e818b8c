"""A plugin's exception is one line naming the plugin (exit status 1), serially and under --jobs;
a metric that cannot reach worker processes, or a worker that dies, is one line too."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

PLUGIN = '''
import os
import sys
import threading
import time

import simpeval


def make(stage):
    class Raiser(simpeval.Metric):
        name = f"raise-{stage}"

        def __init__(self, **settings):
            if stage == "init":
                raise RuntimeError("init broken")
            super().__init__(**settings)
            if stage == "unpicklable":
                self.lock = threading.Lock()

        def signature(self):
            if stage == "signature":
                raise RuntimeError("signature broken")
            if stage == "newline":
                return super().signature() + "|note:two\\nlines\\u2028here"
            return super().signature()

        def check_inputs(self, sources, outputs, references=None):
            if stage == "check":
                raise RuntimeError("check broken")

        def _score_items(self, sources, outputs, references=None):
            if stage == "sentences":
                raise RuntimeError("sentences broken")
            if stage == "dies":
                os._exit(9)
            if stage == "exits":
                sys.exit(0)
            if stage == "interrupts":
                raise KeyboardInterrupt
            if stage == "huge":
                return {self.name: [10**400 for _ in outputs]}
            if stage == "near-max":
                return {self.name: [1e308 for _ in outputs]}
            if stage == "sleeps":  # a worker that is busy when its client is killed
                with open(f"worker-{os.getpid()}.pid", "w"):
                    pass
                time.sleep(120)
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
for stage in ("init", "signature", "check", "sentences", "corpus", "unpicklable", "dies", "sleeps", "exits", "interrupts", "huge",
              "near-max", "newline"):
    cls = make(stage)
    cls.__name__ = cls.__qualname__ = f"Raiser_{stage}".replace("-", "_")  # module-level, so worker processes can unpickle it
    globals()[cls.__name__] = cls
    CLASSES.append(cls)


@simpeval.hookimpl
def simpeval_register_metrics():
    return [*CLASSES, Mutator, FortyTwo]


class DatasetFortyTwo:
    name = 42


@simpeval.hookimpl
def simpeval_register_datasets():
    return [DatasetFortyTwo]


@simpeval.hookimpl
def simpeval_register_commands(cli, train):
    @train.command("raiser")
    def raiser():
        raise RuntimeError("train broken")

    @train.command("full-disk")
    def full_disk():
        import errno
        raise OSError(errno.ENOSPC, "No space left on device", "ckpt/model.bin")
'''

TWIN = '''
import simpeval


class Twin(simpeval.Metric):
    name = "raise-TWIN"

    def _score_items(self, sources, outputs, references=None):
        raise RuntimeError("TWIN broken")


@simpeval.hookimpl
def simpeval_register_metrics():
    return [Twin]
'''
"""Two plugins (entry points) of one distribution, ``twins``: each metric raises."""

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
    twins = root / "twins"
    twins.mkdir()
    (twins / "__init__.py").write_text("")
    for twin in ("first", "second"):
        (twins / f"{twin}.py").write_text(TWIN.replace("TWIN", twin))
    info = root / "twins-2.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: twins\nVersion: 2.0\n")
    (info / "entry_points.txt").write_text("[simpeval]\nfirst = twins.first\nsecond = twins.second\n")
    (root / "orig.txt").write_text("the cat sat on the mat .\nit was a sunny day .\n")
    (root / "sys.txt").write_text("the cat sat .\nit was sunny .\n")
    (root / "long.txt").write_text("the international committee considered the extraordinary circumstances very "
                                   "carefully .\nit was a sunny day .\n")
    return root


def simpeval(site: Path, *args: str, timeout: float = 180) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *sys.path])}
    for name in ("SIMPEVAL_DISABLE_PLUGIN_AUTOLOAD", "SIMPEVAL_DISABLE_PLUGINS"):
        env.pop(name, None)
    return subprocess.run([sys.executable, "-m", "simpeval", *args], env=env, cwd=site, capture_output=True,
                          text=True, timeout=timeout)


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


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("stage, fault", [("exits", "SystemExit: 0"), ("interrupts", "KeyboardInterrupt")])
def test_a_metrics_own_exit_or_interrupt_is_its_fault_not_a_silent_end(site, stage, fault, jobs):
    done = simpeval(site, "evaluate", "--orig", "orig.txt", "--sys", "sys.txt", "-m", f"raise-{stage}", "--no-cache",
                    "--jobs", jobs, "-o", "out.txt")
    assert done.returncode == 1
    assert one_line(done) == f'Error: plugin "raisers" (raisers 1.0) failed ({fault}): {REMEDY}'
    assert done.stdout == "" and not (site / "out.txt").exists()


def test_a_score_too_large_for_a_float_is_the_metrics_one_line_error(site):
    done = simpeval(site, "evaluate", "--orig", "orig.txt", "--sys", "sys.txt", "-m", "raise-huge", "--no-cache")
    assert done.returncode == 2
    assert one_line(done) == ('Error: metric "raise-huge" (raisers 1.0) returned a raise-huge score too large for a '
                              f"float: {REMEDY}")


def test_item_scores_near_the_largest_float_average_to_a_finite_corpus_score(site):
    done = simpeval(site, "evaluate", "--orig", "orig.txt", "--sys", "sys.txt", "-m", "raise-near-max", "--no-cache",
                    "--format", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["corpus"]["raise-near-max"] == 1e308


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_fault_names_the_plugin_of_its_distribution_that_raised(site, jobs):
    done = simpeval(site, "-p", "no:first", "evaluate", "--orig", "orig.txt", "--sys", "sys.txt", "-m",
                    "raise-second", "--no-cache", "--jobs", jobs)
    assert done.returncode == 1
    assert one_line(done) == ('Error: plugin "second" (twins 2.0) failed (RuntimeError: second broken): report it to '
                              "the authors of twins or switch it off with -p no:second")
    done = simpeval(site, "-p", "no:second", "evaluate", "--orig", "orig.txt", "--sys", "sys.txt", "-m",
                    "raise-first", "--no-cache")
    assert one_line(done).endswith("failed (RuntimeError: first broken): report it to the authors of twins or switch "
                                   "it off with -p no:first")


def test_a_full_disk_in_a_plugins_trainer_is_the_environments_fault(site):
    done = simpeval(site, "train", "full-disk")
    assert done.returncode == 2
    assert one_line(done) == "Error: cannot use ckpt/model.bin: No space left on device; free some space or pick another path"


@pytest.mark.parametrize("option", ["--orig", "--sys", "--refs", "--sys-dir"])
def test_an_over_long_path_is_one_line(site, option):
    paths = {"--orig": "orig.txt", "--sys": "sys.txt", option: "x" * 300}
    args = [a for pair in paths.items() for a in pair]
    done = simpeval(site, "evaluate", *args, "-m", "fkgl", "--no-cache")
    assert done.returncode == 2
    assert one_line(done) == f"Error: cannot use {'x' * 60}...(300 characters): File name too long; give a shorter path"


@pytest.mark.parametrize("fmt", ["table", "csv", "json"])
def test_a_signature_with_a_line_break_stays_on_one_line(site, fmt):
    done = simpeval(site, "evaluate", "--orig", "orig.txt", "--sys", "sys.txt", "-m", "raise-newline,fkgl",
                    "--no-cache", "--format", fmt)
    assert done.returncode == 0, done.stderr
    escaped = "note:two\\nlines\\u2028here"
    shown = json.loads(done.stdout)["signatures"]["raise-newline"] if fmt == "json" else done.stdout
    assert escaped in shown
    if fmt != "json":
        assert len(done.stdout.splitlines()) == (4 if fmt == "table" else 3), done.stdout  # header(s), two rows


def test_a_raising_train_command_is_one_line(site):
    done = simpeval(site, "train", "raiser")
    assert done.returncode == 1
    assert one_line(done) == f'Error: plugin "raisers" (raisers 1.0) failed (RuntimeError: train broken): {REMEDY}'


def test_an_unpicklable_metric_under_jobs_is_one_line_and_never_hangs(site):
    (site / "many.txt").write_text("the cat sat on the mat .\n" * 60)
    for _ in range(4):  # the pool's shutdown hung in 6 of 9 tries when batches were already queued
        done = simpeval(site, "evaluate", "--orig", "many.txt", "--sys", "many.txt", "-m", "raise-unpicklable",
                        "--no-cache", "--jobs", "2", "--batch-size", "2", timeout=60)
        assert done.returncode == 2
        assert one_line(done) == ("Error: a metric cannot be sent to worker processes (TypeError: cannot pickle "
                                  "'_thread.lock' object): run it without --jobs")


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
    assert ('Error registering simpeval plugin "raisers": dataset class DatasetFortyTwo has the name 42, not a '
            "string: name it in quotes") in done.stdout
    for command in (["datasets", "list"], ["meta-evaluate", "--dataset", "nope"]):
        done = simpeval(site, *command)
        assert "Traceback" not in done.stderr, done.stderr


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


def test_workers_die_with_a_client_killed_by_sigkill(site):
    for old in site.glob("worker-*.pid"):
        old.unlink()
    (site / "many.txt").write_text("the cat sat on the mat .\n" * 4)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *sys.path])}
    client = subprocess.Popen([sys.executable, "-m", "simpeval", "evaluate", "--orig", "many.txt", "--sys", "many.txt",
                               "-m", "raise-sleeps", "--no-cache", "--jobs", "2", "--batch-size", "2"],
                              env=env, cwd=site, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while len(list(site.glob("worker-*.pid"))) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    workers = [int(path.name.split("-")[1].split(".")[0]) for path in site.glob("worker-*.pid")]
    assert len(workers) == 2
    client.kill()
    client.wait()
    deadline = time.monotonic() + 30  # they poll their parent every second; a loaded machine may be slow to run them
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    alive = [pid for pid in workers if _alive(pid)]
    for pid in alive:
        os.kill(pid, 9)
    assert alive == []


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not yet reaped by its new parent, does not)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
