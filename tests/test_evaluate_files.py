"""``simpeval.evaluate_files``: the command's streamed file scoring from Python, with the same
output file, the same bounded memory and the same resumable cache."""

from __future__ import annotations

import gc
import tracemalloc

import pytest
from click.testing import CliRunner

import simpeval
from simpeval.cli import cli
from simpeval.metrics.base import Metric
from simpeval.registry import load_registry

N_REFS = 2


def write_items(folder, n, width=0):
    """``n`` unique items (orig, sys, ``N_REFS`` references), texts padded to ``width`` characters."""
    folder.mkdir(exist_ok=True)
    pad = "y" * width
    texts = {
        "orig": [f"The council finally accepted proposal {i} after hours of talk . {pad}" for i in range(n)],
        "sys": [f"The council accepted proposal {i} . {pad}" for i in range(n)],
        **{f"ref{j}": [f"Proposal {i} was accepted by council {j} . {pad}" for i in range(n)] for j in range(N_REFS)},
    }
    for name, lines in texts.items():
        (folder / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder / "orig.txt", folder / "sys.txt", [folder / f"ref{j}.txt" for j in range(N_REFS)]


@pytest.mark.parametrize(("fmt", "sentence_level"), [("csv", True), ("json", True), ("table", False)])
def test_the_output_file_is_the_command_s_byte_for_byte(tmp_path, fmt, sentence_level):
    orig, sys_path, refs = write_items(tmp_path / "in", 37)
    from_cli, from_python = tmp_path / "cli.out", tmp_path / "python.out"
    level = ["--sentence-level"] if sentence_level else []
    done = CliRunner().invoke(cli, ["evaluate", "--orig", str(orig), "--sys", str(sys_path),
                                    *(a for r in refs for a in ("--refs", str(r))), "-m", "bleu,sari,fkgl,length",
                                    *level, "--format", fmt, "--batch-size", "8", "--no-cache", "-o", str(from_cli)])
    assert done.exit_code == 0, done.output
    result = simpeval.evaluate_files(orig=orig, sys=sys_path, refs=refs, metrics="bleu,sari,fkgl,length",
                                     output=from_python, fmt=fmt, sentence_level=sentence_level, batch_size=8,
                                     cache=False)
    assert from_python.read_bytes() == from_cli.read_bytes()
    assert result.n_items == 37 and {"bleu", "sari", "sari-add", "fkgl", "length"} <= set(result.corpus_scores)
    in_memory = simpeval.evaluate(orig.read_text().splitlines(), sys_path.read_text().splitlines(),
                                  [r.read_text().splitlines() for r in refs], "bleu,sari,fkgl,length", cache=False)
    assert result.corpus_scores == pytest.approx(in_memory.corpus_scores)


def test_without_an_output_the_per_item_scores_are_returned(tmp_path):
    orig, sys_path, refs = write_items(tmp_path / "in", 12)
    result = simpeval.evaluate_files(orig, sys_path, refs, "sari", batch_size=5, cache=False)
    direct = simpeval.evaluate(orig.read_text().splitlines(), sys_path.read_text().splitlines(),
                               [r.read_text().splitlines() for r in refs], "sari", sentence_level=True, cache=False)
    assert result.sentence_scores["sari"] == pytest.approx(direct.sentence_scores["sari"])
    assert len(result.sentence_scores["sari"]) == 12
    one = simpeval.evaluate_files(orig, sys_path, refs[0], "bleu", cache=False)  # one path is one reference file
    assert one.signatures["bleu"].startswith("bleu|nrefs:1|")


def test_bad_input_is_one_usage_error_and_nothing_is_written(tmp_path):
    orig, sys_path, refs = write_items(tmp_path / "in", 10)
    refs[1].write_text("only one line\n", encoding="utf-8")
    out = tmp_path / "out.csv"
    with pytest.raises(simpeval.UsageError, match=f"--refs {refs[1]} has 1 lines but --orig {orig} has 10"):
        simpeval.evaluate_files(orig, sys_path, refs, "bleu", output=out, cache=False)
    assert not out.exists()


class Halting(Metric):
    """Output length; raises KeyboardInterrupt (a user's Ctrl-C) on the item numbered ``stop_at``."""

    name = "halting"
    requires_references = False
    scored: list[int] = []
    stop_at: int | None = None

    def _score_items(self, sources, outputs, references=None):
        numbers = [int(o.split()[4]) for o in outputs]
        if Halting.stop_at in numbers:
            raise KeyboardInterrupt
        Halting.scored.extend(numbers)
        return {"halting": [float(len(o)) for o in outputs]}


class HaltingPlugin:
    @simpeval.hookimpl
    def simpeval_register_metrics(self):
        return [Halting]


def test_an_interrupted_run_resumes_from_the_cache_and_writes_the_whole_file(tmp_path):
    orig, sys_path, _ = write_items(tmp_path / "in", 23)
    out, cache_dir = tmp_path / "scores.csv", tmp_path / "cache"
    registry = load_registry(autoload=False, plugins=[HaltingPlugin()])

    def score():
        return simpeval.evaluate_files(orig, sys_path, metrics="halting", output=out, batch_size=5,
                                       cache=cache_dir, registry=registry)

    Halting.scored, Halting.stop_at = [], 17
    with pytest.raises(KeyboardInterrupt):
        score()
    assert Halting.scored == list(range(15))  # batches 0-2 finished before the interruption
    assert not out.exists() and not [p for p in tmp_path.iterdir() if p.name.startswith(".")]
    Halting.scored, Halting.stop_at = [], None
    result = score()
    assert Halting.scored == list(range(15, 23))  # only the batches left are scored
    rows = out.read_text().splitlines()
    assert rows[0] == "index,halting" and len(rows) == 24 and rows[23].startswith("22,")
    assert result.corpus_scores["halting"] == pytest.approx(
        sum(len(line) for line in sys_path.read_text().splitlines()) / 23)


def _peak(folder, n, monkeypatch):
    """Peak Python allocations of ``evaluate_files`` on ``n`` items of ~350-character texts."""
    orig, sys_path, refs = write_items(folder, n, width=300)
    registry = load_registry(autoload=False)
    gc.collect()  # garbage of earlier tests would count against the peak
    tracemalloc.start()
    try:
        simpeval.evaluate_files(orig, sys_path, refs, "bleu,sari", output=folder / "out.csv", batch_size=50,
                                cache=False, registry=registry)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_does_not_grow_with_the_number_of_items(tmp_path, monkeypatch):
    # a small memory budget (a store of ~100 entries), so that what the run keeps does not hide the texts' growth
    monkeypatch.setenv("SIMPEVAL_MEMORY_BUDGET_MB", "0.8")
    _peak(tmp_path / "warm", 20, monkeypatch)  # the first run loads the tokenisers' tables
    small, large = _peak(tmp_path / "n150", 150, monkeypatch), _peak(tmp_path / "n600", 600, monkeypatch)
    # 450 more items are 450 x 4 texts x ~400 bytes = ~0.75 MB of text (0.83 MB measured when the
    # files are read whole), none of it held at once when streamed
    assert large - small < 250_000
    assert (tmp_path / "n600" / "out.csv").read_text().count("\n") == 601
