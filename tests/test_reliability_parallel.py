"""--jobs is bounded; Dask addresses, silent servers, missing workers and lost schedulers are one line."""

from __future__ import annotations

import socket
import threading
import time

import pytest
from click.testing import CliRunner

import simpeval
from simpeval.engine import parallel
from simpeval.errors import UsageError
from simpeval.cli import cli
from simpeval.testing import require_module
from simpeval.cli.parallel import max_jobs


@pytest.fixture
def texts(tmp_path):
    (tmp_path / "orig.txt").write_text("the cat sat on the mat .\nit was a sunny day .\n")
    (tmp_path / "sys.txt").write_text("the cat sat .\nit was sunny .\n")
    return tmp_path


def evaluate(texts, *extra):
    return CliRunner().invoke(cli, ["evaluate", "--orig", str(texts / "orig.txt"), "--sys", str(texts / "sys.txt"),
                                    "-m", "fkgl", "--no-cache", *extra])


def test_jobs_beyond_four_per_cpu_are_refused(texts):
    result = evaluate(texts, "--jobs", str(max_jobs() + 1))
    assert result.exit_code == 2
    assert f"give at most {max_jobs()} (4 per CPU)" in result.output and "Traceback" not in result.output


def test_a_pool_never_has_more_processes_than_batches(texts, monkeypatch):
    sizes = []
    real = parallel.ProcessExecutor._pool_for

    def spy(self, n_batches):
        pool = real(self, n_batches)
        sizes.append(self._size)
        return pool

    monkeypatch.setattr(parallel.ProcessExecutor, "_pool_for", spy)
    result = evaluate(texts, "--jobs", "3", "--format", "json")
    assert result.exit_code == 0, result.output
    assert sizes == [1]  # one batch of two lines: one worker, not three


@pytest.mark.parametrize("address", ["foo", "", "http://h:8786", "tcp://h:99999", "tcp://h"])
def test_malformed_dask_addresses_are_one_line(texts, address):
    result = evaluate(texts, "--dask", address)
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f"Error: --dask {address!r} is not a scheduler address: give tcp://HOST:PORT (what `dask scheduler` prints, "
        "port 8786 by default) or local"]


def test_a_server_that_is_no_dask_scheduler_is_one_line(texts, monkeypatch):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    accepted = []
    threading.Thread(target=lambda: accepted.append(server.accept()), daemon=True).start()
    monkeypatch.setattr(parallel, "CONNECT_SECONDS", 1.0)
    address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
    try:
        result = evaluate(texts, "--dask", address)
    finally:
        server.close()
    assert result.exit_code == 2
    assert result.output.strip() == (f"Error: cannot reach the Dask scheduler at {address}: it does not answer as a "
                                     "Dask scheduler; start one (dask scheduler) or use --dask local")


def test_a_scheduler_without_workers_is_one_line_not_a_hang(texts, monkeypatch):
    distributed = require_module("distributed")
    monkeypatch.setattr(parallel, "NO_WORKER_SECONDS", 1.0)
    monkeypatch.setattr(parallel, "POLL_SECONDS", 0.2)
    with distributed.LocalCluster(n_workers=0, processes=False, protocol="tcp", dashboard_address=":0") as cluster:
        result = evaluate(texts, "--dask", cluster.scheduler_address)
    assert result.exit_code == 2
    assert result.output.strip() == (f"Error: the Dask scheduler at {cluster.scheduler_address} has had no worker for "
                                     f"1 s: start workers (dask worker {cluster.scheduler_address}) or use --dask local")


class Slow(simpeval.Metric):
    """A metric that takes a while per batch, so a run is still going when its scheduler goes away."""

    name = "slow"

    def _score_items(self, sources, outputs, references=None):
        time.sleep(0.3)
        return {"slow": [0.0 for _ in outputs]}


class SlowPlugin:
    @simpeval.hookimpl
    def simpeval_register_metrics(self):
        return [Slow]


def test_a_scheduler_lost_mid_run_is_one_line(monkeypatch):
    distributed = require_module("distributed")
    from simpeval.registry import load_registry
    from simpeval.runner import evaluate as run_evaluation
    from simpeval.runner import resolve_metrics

    monkeypatch.setattr(parallel, "POLL_SECONDS", 0.2)
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp",
                                       dashboard_address=":0")
    executor = parallel.DaskExecutor(cluster.scheduler_address)
    requests = resolve_metrics(load_registry(autoload=False, plugins=[SlowPlugin()]), ["slow"])
    stopper = threading.Timer(1.5, cluster.close)
    stopper.start()
    try:
        with pytest.raises(UsageError, match=r"^lost the Dask scheduler at tcp://\S+ during the run \(.+\): restart "
                                             r"it and run again \(with the score cache on, batches already scored are not scored "
                                             r"again\)$"):
            run_evaluation(requests, ["a b"] * 40, ["a"] * 40, batch_size=1, executor=executor)
    finally:
        stopper.join()
        threading.Thread(target=executor.close, daemon=True).start()  # closing a client whose scheduler is gone may wait


@pytest.mark.parametrize("garbage", [b"\x00" * 64, b"\xff" * 8 + b"not msgpack at all" * 10,
                                     (8).to_bytes(8, "little") + b"\x01" * 64])
def test_a_peer_that_sends_garbage_is_one_line(texts, monkeypatch, garbage):
    require_module("distributed")
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()

    def answer_with_garbage():
        while True:
            try:
                peer, _ = server.accept()
            except OSError:
                return
            try:
                peer.sendall(garbage)
            except OSError:
                pass

    threading.Thread(target=answer_with_garbage, daemon=True).start()
    monkeypatch.setattr(parallel, "CONNECT_SECONDS", 2.0)
    address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
    try:
        result = evaluate(texts, "--dask", address)
    finally:
        server.close()
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Error: cannot reach the Dask scheduler at {address}: ")
    assert lines[0].endswith("; start one (dask scheduler) or use --dask local")
