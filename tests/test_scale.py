"""Scale: a bounded per-run store, and serial, --jobs and --dask runs that give identical bytes."""

from __future__ import annotations

import csv
import json

import pytest
from click.testing import CliRunner

from simpeval.cli import cli
from simpeval.metrics.base import Metric
from simpeval.engine.parallel import ProcessExecutor
from simpeval.registry import load_registry
from simpeval.run import Run
from simpeval.runner import evaluate, resolve_metrics
from simpeval.store import StatsStore
from simpeval.text import ngram_counts

METRICS = "bleu,sari,fkgl,ibleu"
N_ITEMS = 90
N_REFS = 3


@pytest.fixture(scope="module")
def asset(data_dir):
    """The first ``N_ITEMS`` ASSET test items: sources, a system (reference 9) and ``N_REFS`` references."""
    def lines(name):
        return (data_dir / "references" / "asset" / name).read_text(encoding="utf-8").split("\n")[:N_ITEMS]

    refs = [lines(f"asset.test.simp.{i}") for i in range(N_REFS)]
    return lines("asset.test.orig"), lines("asset.test.simp.9"), [list(r) for r in zip(*refs)]


@pytest.fixture
def files(asset, tmp_path):
    sources, outputs, references = asset
    paths = {"orig": tmp_path / "orig.txt", "sys": tmp_path / "sys.txt"}
    paths["orig"].write_text("\n".join(sources) + "\n", encoding="utf-8")
    paths["sys"].write_text("\n".join(outputs) + "\n", encoding="utf-8")
    for i in range(N_REFS):
        paths[f"ref{i}"] = tmp_path / f"ref{i}.txt"
        paths[f"ref{i}"].write_text("\n".join(r[i] for r in references) + "\n", encoding="utf-8")
    return paths


def test_store_keeps_at_most_its_bound_and_the_scores_do_not_change(asset):
    registry = load_registry(autoload=False)
    unbounded = evaluate(resolve_metrics(registry, [METRICS]), *asset, batch_size=16)
    store = StatsStore(max_entries=40)
    bounded = evaluate(resolve_metrics(registry, [METRICS]), *asset, batch_size=16, run=Run(store=store))
    # N_ITEMS items x (source, output, 3 references) x several statistics each would need hundreds
    assert store.misses > 10 * 40
    assert store.peak == 40 and len(store) <= 40
    assert bounded.sentence_scores == unbounded.sentence_scores
    assert bounded.corpus_scores == unbounded.corpus_scores


def test_store_evicts_the_least_recently_used_entry():
    store = StatsStore(max_entries=2)
    ngram_counts("a b", "none", store=store)
    ngram_counts("c d", "none", store=store)  # each also tokenises: the store now holds 2 of 4
    assert len(store) == 2 and store.count(ngram_counts) == 1
    with pytest.raises(ValueError, match="at least one entry"):
        StatsStore(max_entries=0)


def test_corpus_scores_from_batch_statistics_equal_the_whole_corpus_formula(asset):
    registry = load_registry(autoload=False)
    requests = resolve_metrics(registry, ["bleu,sari,fkgl"])
    batched = evaluate(requests, *asset, sentence_level=False, batch_size=7)
    for request in requests:
        whole = request.metric.corpus_score(*asset)
        for sub in request.report:
            assert batched.corpus_scores[sub] == whole[sub]


def _cli(files, *extra, batch_size=16):
    refs = [arg for i in range(N_REFS) for arg in ("--refs", files[f"ref{i}"])]
    result = CliRunner().invoke(cli, [str(a) for a in (
        "evaluate", "--orig", files["orig"], "--sys", files["sys"], *refs, "-m", METRICS,
        "--batch-size", batch_size, *extra)])
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.slow
def test_serial_jobs_dask_and_cached_runs_write_identical_csv(files, tmp_path):
    sentence = ("--sentence-level", "--format", "csv")
    serial = _cli(files, *sentence, "--no-cache")
    rows = list(csv.reader(serial.splitlines()))
    assert len(rows) == N_ITEMS + 1 and rows[0][:3] == ["index", "bleu", "sari"]
    cache = ("--cache-dir", tmp_path / "cache")
    assert _cli(files, *sentence, *cache) == serial  # fills the cache
    assert _cli(files, *sentence, *cache) == serial  # reads it
    assert _cli(files, *sentence, "--no-cache", "--jobs", "2") == serial
    assert _cli(files, *sentence, "--no-cache", "--dask", "local") == serial
    # 30 batches, more than are in flight at once (4 per worker): rows still stream out in input order
    assert _cli(files, *sentence, "--no-cache", "--jobs", "2", batch_size=3) == serial
    assert _cli(files, *sentence, "--no-cache", "--dask", "local", batch_size=3) == serial
    out = tmp_path / "jobs.csv"
    assert _cli(files, *sentence, "--no-cache", "--jobs", "2", "-o", out, batch_size=5) == ""
    assert out.read_text(encoding="utf-8") == serial
    corpus = _cli(files, "--format", "csv", "--no-cache")
    assert _cli(files, "--format", "csv", "--no-cache", "--jobs", "2") == corpus
    assert _cli(files, "--format", "csv", *cache) == corpus
    assert _cli(files, "--format", "csv", *cache) == corpus


def test_meta_evaluate_accepts_jobs(data_dir):
    def run(*extra):
        result = CliRunner().invoke(cli, ["meta-evaluate", "--dataset", "simplicity-da", "-m", "bleu,fkgl",
                                          "--format", "json", "--no-cache", *extra])
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    serial = run()
    assert serial and serial == run("--jobs", "2")


class Fragile(Metric):
    """Fails on any batch that contains the output "BOOM" (a worker-side error)."""

    name = "fragile"

    def _score_items(self, sources, outputs, references=None):
        if "BOOM" in outputs:
            raise ValueError("cannot score BOOM")
        return {"fragile": [1.0] * len(outputs)}


def test_a_failing_batch_is_retried_then_reported_by_its_items():
    from simpeval.runner import MetricRequest

    outputs = ["a"] * 5 + ["BOOM"] + ["a"] * 4
    executor = ProcessExecutor(2)
    try:
        with pytest.raises(RuntimeError, match=r"batch 1 \(items 5-8\) failed after 2 tries: ValueError: cannot score BOOM"):
            evaluate([MetricRequest(Fragile(), ["fragile"])], outputs, outputs, batch_size=4, executor=executor)
    finally:
        executor.close()


def test_unreachable_scheduler_is_a_one_line_error(files, monkeypatch):
    monkeypatch.setattr("simpeval.engine.parallel.CONNECT_TIMEOUT", "1s")
    refs = ("--refs", files["ref0"])
    result = CliRunner().invoke(cli, ["evaluate", "--orig", str(files["orig"]), "--sys", str(files["sys"]),
                                      *map(str, refs), "-m", "bleu", "--dask", "tcp://127.0.0.1:9"])
    assert result.exit_code == 2
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in result.output


def test_several_systems_with_jobs_equal_serial(files):
    refs = [arg for i in range(N_REFS) for arg in ("--refs", str(files[f"ref{i}"]))]

    def run(*extra):
        result = CliRunner().invoke(cli, ["evaluate", "--orig", str(files["orig"]), "--sys", str(files["sys"]),
                                          "--sys", str(files["ref0"]), *refs, "-m", "bleu,sari", "--format", "json",
                                          "--no-cache", "--batch-size", "32", *extra])
        assert result.exit_code == 0, result.output
        return result.stdout

    assert run() == run("--jobs", "2")


@pytest.mark.slow
def test_a_dask_run_does_not_keep_the_texts_of_its_batches(asset):
    """Dask logs each connection's recent messages, and a message carries a batch's texts: with
    Dask's default log length a run kept about a thousand batches per worker in memory."""
    import gc

    from simpeval.engine.parallel import MESSAGE_LOG_LENGTH, DaskExecutor
    from simpeval.runner import Batch

    def live_batches() -> int:
        gc.collect()
        return sum(type(o) is Batch for o in gc.get_objects())

    before = live_batches()  # batches that earlier tests in this process still hold are not this run's
    executor = DaskExecutor("local")
    try:
        result = evaluate(resolve_metrics(load_registry(autoload=False), ["bleu"]), *asset, batch_size=3,
                          executor=executor)
        assert len(result.sentence_scores["bleu"]) == N_ITEMS  # 30 batches
        # at most the last few messages of each connection: the client's and one per worker (2)
        assert live_batches() - before <= 3 * MESSAGE_LOG_LENGTH < 30
    finally:
        executor.close()
