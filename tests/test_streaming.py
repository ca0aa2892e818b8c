"""Streamed ``simpeval evaluate``: line files read in lock-step batches, rows written as batches
finish, memory flat in the number of items, nothing published by a failed run, reruns resume."""

from __future__ import annotations

import gc
import tracemalloc

import pytest
from click.testing import CliRunner

from simpeval.cache import ScoreCache
from simpeval.cli import cli
from simpeval.engine.results import format_result
from simpeval.fileio import read_lines
from simpeval.engine.execute import execute
from simpeval.engine.linefiles import LineFile, line_batches
from simpeval.engine.plan import Output, Plan, System
from simpeval.engine.sources import LineFileSource
from simpeval.errors import UsageError
from simpeval.metrics.base import Metric
from simpeval.registry import load_registry
from simpeval.runner import MetricRequest, evaluate, resolve_metrics
from simpeval.run import Run
from simpeval.store import StatsStore

N_REFS = 3


def write_items(folder, n, width=0):
    """``n`` unique items (source, output, ``N_REFS`` references), each text padded to ``width`` characters."""
    pad = "x" * width
    texts = {
        "orig": [f"The committee approved item number {i} after a long debate . {pad}" for i in range(n)],
        "sys": [f"The group approved item {i} . {pad}" for i in range(n)],
        **{f"ref{j}": [f"Item {i} was approved by the committee {j} . {pad}" for i in range(n)] for j in range(N_REFS)},
    }
    paths = {}
    for name, lines in texts.items():
        paths[name] = folder / f"{name}.txt"
        paths[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    return paths, texts


def refs_args(paths):
    return [arg for j in range(N_REFS) for arg in ("--refs", str(paths[f"ref{j}"]))]


def stream(paths, requests, output, *, cache=None, batch_size=5, run=None):
    """One system's line files streamed through the engine, per-item CSV rows written to ``output``."""
    source = LineFileSource(str(paths["orig"]), str(paths["sys"]), [str(paths[f"ref{j}"]) for j in range(N_REFS)])
    plan = Plan(requests, [System("sys", source)], sentence_level=True, batch_size=batch_size,
                output=Output(str(output), "csv", lambda result, ids: format_result(result, True, "csv", ids)))
    return execute(plan, run, cache=cache)


def run_cli(paths, *extra, input=None):
    return CliRunner().invoke(cli, ["evaluate", "--orig", str(paths["orig"]), "--sys", str(paths["sys"]),
                                    *refs_args(paths), *map(str, extra)], input=input)


@pytest.mark.parametrize("fmt", ["csv", "json", "table", "markdown"])
@pytest.mark.parametrize("sentence_level", [True, False])
def test_streamed_output_equals_the_in_memory_runner(tmp_path, fmt, sentence_level):
    paths, texts = write_items(tmp_path, 50)
    metrics = "bleu,sari,fkgl,length"  # corpus formulas from statistics, and a mean of sentence scores
    level = ("--sentence-level",) if sentence_level else ()
    streamed = run_cli(paths, "-m", metrics, *level, "--format", fmt, "--no-cache", "--batch-size", "7")
    assert streamed.exit_code == 0, streamed.output
    references = [list(r) for r in zip(*(texts[f"ref{j}"] for j in range(N_REFS)))]
    in_memory = evaluate(resolve_metrics(load_registry(), [metrics]), texts["orig"], texts["sys"], references,
                         sentence_level=sentence_level, batch_size=7)
    assert streamed.stdout == format_result(in_memory, sentence_level, fmt)


def test_rows_do_not_depend_on_the_batch_size_and_go_to_the_output_file(tmp_path):
    paths, _ = write_items(tmp_path, 40)
    outputs = []
    for size in (1, 3, 40, 512):
        out = tmp_path / f"out{size}.csv"
        result = run_cli(paths, "-m", "bleu,sari", "--sentence-level", "--format", "csv", "--no-cache",
                         "--batch-size", size, "-o", out)
        assert result.exit_code == 0, result.output
        outputs.append(out.read_text(encoding="utf-8"))
    assert len(outputs[0].splitlines()) == 41 and len(set(outputs)) == 1
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary file left


def test_line_batches_decode_as_the_whole_file_reader(tmp_path):
    path = tmp_path / "odd.txt"
    path.write_bytes(b"\xef\xbb\xbffirst\r\n\n caf\xc3\xa9 \r\nlone\rcarriage\n\nlast, no newline")
    whole = read_lines(str(path), "--sys")
    assert whole == ["first", "", " café ", "lone\rcarriage", "", "last, no newline"]
    for size in (1, 2, 4, 100):
        files = [LineFile(str(path), "--orig"), LineFile(str(path), "--sys")]
        assert files[0].count() == len(whole)
        batches = list(line_batches(files, size))
        assert [line for b in batches for line in b.outputs] == whole
        assert [b.start for b in batches] == list(range(0, len(whole), size))
        for file in files:
            file.close()


def test_a_bad_byte_in_a_later_batch_is_reported_at_its_offset_in_the_file(tmp_path):
    paths, _ = write_items(tmp_path, 20)
    good = paths["ref1"].read_bytes()
    offset = good.index(b"Item 15 ")
    paths["ref1"].write_bytes(good[:offset] + b"\xe9" + good[offset + 1:])
    with pytest.raises(UsageError) as whole:
        read_lines(str(paths["ref1"]), "--refs")
    out = tmp_path / "out.csv"
    result = run_cli(paths, "-m", "bleu", "--sentence-level", "--format", "csv", "--batch-size", "4", "-o", out)
    assert result.exit_code == 2
    assert result.output.strip() == f"Error: {whole.value}"
    assert f"(byte 0xe9 at offset {offset})" in result.output
    assert not out.exists() and not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_a_length_mismatch_on_standard_input_is_found_and_nothing_is_published(tmp_path):
    paths, texts = write_items(tmp_path, 30)
    out = tmp_path / "out.csv"
    out.write_text("the previous result\n")
    result = CliRunner().invoke(cli, ["evaluate", "--orig", str(paths["orig"]), *refs_args(paths), "-m", "bleu",
                                      "--sentence-level", "--format", "csv", "--batch-size", "8", "-o", str(out)],
                                input="\n".join(texts["sys"][:29]) + "\n")
    assert result.exit_code == 2
    assert result.output.strip() == f"Error: --sys - has 29 lines but --orig {paths['orig']} has 30: every file needs one line per item"
    assert out.read_text() == "the previous result\n"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_a_length_mismatch_in_files_is_found_before_any_scoring(tmp_path):
    paths, texts = write_items(tmp_path, 30)
    paths["ref2"].write_text("\n".join(texts["ref2"] + ["one more"]) + "\n", encoding="utf-8")
    cache_dir = tmp_path / "cache"
    result = run_cli(paths, "-m", "bleu", "--sentence-level", "--cache-dir", cache_dir)
    assert result.exit_code == 2
    assert f"--refs {paths['ref2']} has 31 lines but --orig {paths['orig']} has 30" in result.output
    assert not cache_dir.exists()  # not one batch was scored


class Interrupted(Metric):
    """Counts the batches it scores; raises KeyboardInterrupt on batch ``stop_at`` (a user's Ctrl-C)."""

    name = "interrupted"
    scored: list[int] = []
    stop_at: int | None = None

    def _score_items(self, sources, outputs, references=None):
        index = int(outputs[0].split()[4]) // 5  # item number / batch size
        if index == Interrupted.stop_at:
            raise KeyboardInterrupt
        Interrupted.scored.append(index)
        return {"interrupted": [float(len(o)) for o in outputs]}


def test_an_interrupted_run_publishes_nothing_and_a_rerun_resumes_from_the_cache(tmp_path):
    paths, _ = write_items(tmp_path, 30)
    out = tmp_path / "scores.csv"
    cache = ScoreCache(tmp_path / "cache")

    def run():
        return stream(paths, [MetricRequest(Interrupted(), ["interrupted"])], out, cache=cache)

    Interrupted.scored, Interrupted.stop_at = [], 4
    with pytest.raises(KeyboardInterrupt):
        run()
    assert Interrupted.scored == [0, 1, 2, 3]
    assert not out.exists() and not [p for p in tmp_path.iterdir() if p.name.startswith(".")]
    Interrupted.scored, Interrupted.stop_at = [], None
    result = run()
    assert Interrupted.scored == [4, 5]  # batches 0-3 came from the cache
    rows = out.read_text().splitlines()
    assert rows[0] == "index,interrupted" and len(rows) == 31 and result.n_items == 30


def test_a_corpus_rerun_reads_every_batch_statistics_from_the_cache(tmp_path, monkeypatch):
    paths, _ = write_items(tmp_path, 30)
    cache_dir = tmp_path / "cache"
    first = run_cli(paths, "-m", "bleu,sari", "--format", "csv", "--batch-size", "8", "--cache-dir", cache_dir)
    assert first.exit_code == 0, first.output

    def no_scoring(*args, **kwargs):
        raise AssertionError("a batch was scored again")

    monkeypatch.setattr("simpeval.engine.scoring.score_batch", no_scoring)
    again = run_cli(paths, "-m", "bleu,sari", "--format", "csv", "--batch-size", "8", "--cache-dir", cache_dir)
    assert again.exit_code == 0, again.output
    assert again.stdout == first.stdout


def _peak_bytes(folder, n, streamed):
    """Peak Python allocations (tracemalloc) of scoring ``n`` items of ~350-character texts,
    streamed from the files or read whole into the in-memory runner, with a small per-run store."""
    folder.mkdir()
    paths, _ = write_items(folder, n, width=300)
    refs = [str(paths[f"ref{j}"]) for j in range(N_REFS)]
    requests = resolve_metrics(load_registry(autoload=False), ["bleu,sari"])
    gc.collect()  # garbage left by earlier work would count against the peak, more or less by chance
    tracemalloc.start()
    try:
        if streamed:
            stream(paths, requests, folder / "out.csv", batch_size=50, run=Run(store=StatsStore(max_entries=100)))
        else:
            with LineFileSource(str(paths["orig"]), str(paths["sys"]), refs) as source:
                inputs = source.in_memory()
            evaluate(requests, inputs.sources, inputs.outputs, inputs.references, batch_size=50,
                     run=Run(store=StatsStore(max_entries=100)))
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.slow
def test_streamed_memory_does_not_grow_with_the_number_of_items(tmp_path):
    for mode in ("streamed", "whole"):  # first runs load the tokenisers' tables: not part of the growth
        _peak_bytes(tmp_path / f"warm-{mode}", 20, mode == "streamed")
    peak = {(n, mode): _peak_bytes(tmp_path / f"{mode}{n}", n, mode == "streamed")
            for n in (150, 600) for mode in ("streamed", "whole")}
    # 450 more items hold 450 x 5 texts x ~400 bytes = ~0.9 MB more when the files are read whole ...
    assert peak[600, "whole"] - peak[150, "whole"] > 700_000
    # ... and not the texts when they are streamed (the rows go to the file as batches finish); what
    # does grow (~0.15 MB) is bounded caches filling up: 4x more items again add less than that
    assert peak[600, "streamed"] - peak[150, "streamed"] < 250_000


def test_each_scored_batch_hands_the_freed_heap_back(tmp_path, monkeypatch):
    """Issue 28: one batch's freed temporaries (a neural metric's activations and gathered embeddings)
    must not stay resident into the next: the C heap is trimmed once after every batch is scored."""
    import simpeval.encoding as encoding

    trims = []
    monkeypatch.setattr(encoding, "release_freed_heap", lambda: trims.append(1))
    paths, _ = write_items(tmp_path, 23)
    requests = resolve_metrics(load_registry(), ["bleu,fkgl"])
    stream(paths, requests, tmp_path / "out.csv", batch_size=5)
    assert len(trims) == 5  # ceil(23 / 5) batches
