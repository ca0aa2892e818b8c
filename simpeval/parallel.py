"""Score batches in several local processes (``--jobs N``) or on a Dask cluster (``--dask``).

The engine hands an executor the batches still to score; the executor yields each
``(batch, scores)`` as it finishes, and the engine writes the cache and puts the
scores back in input order, so a parallel run gives the serial run's numbers
(corpus statistics are summed in batch order too). The score cache stays with the
client: workers return scores, the client stores them, so workers need no shared
file system.

Workers receive the metric objects (settings only, no model and no store) and keep
the first copy of each metric, by class and signature, for their whole life: a
neural metric loads its model once per worker. Each worker has its own
:class:`~simpeval.run.Run` (bounded statistics store, models and encodings). A worker
checks that it computes the signature the client expects, so a cluster with another
simpeval version fails loudly instead of mixing numbers. A failed batch is retried once, then reported by its item range.

Dask is an optional extra (``pip install simpeval[dask]``), imported only here.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from simpeval.errors import UsageError
from simpeval.run import Run

if TYPE_CHECKING:
    from simpeval.metrics.base import Metric
    from simpeval.engine.batches import Batch, BatchScores, Task

Work = Sequence[tuple["Batch", "list[Task | None]"]]
RETRIES = 1
CONNECT_TIMEOUT = "10s"  # how long to wait for a remote scheduler before giving up
MESSAGE_LOG_LENGTH = 2
"""Messages each Dask connection keeps for debugging (default 1000): a message carries a batch's
texts, so the default would keep about a thousand batches per worker in the scheduler's memory."""


class BatchExecutor(Protocol):
    """Where batches are scored; yields ``(batch, scores)`` in any order. ``workers`` batches
    can be scored at once (the runner keeps a few per worker in flight)."""

    workers: int

    def map(self, metrics: Sequence[Metric], work: Work) -> Iterator[tuple[Batch, BatchScores]]: ...


# --------------------------------------------------------------------------
# The worker side
# --------------------------------------------------------------------------

_WORKER = threading.local()  # per worker thread: metrics and run are not shared across threads


def score_remote(
    metrics: Sequence[Metric], signatures: Sequence[str], tasks: list[Task | None], batch: Batch
) -> BatchScores:
    """Score ``batch`` in a worker with its long-lived copies of ``metrics``."""
    from simpeval.engine.batches import score_batch

    if not hasattr(_WORKER, "metrics"):
        _WORKER.metrics, _WORKER.run = {}, Run()
    local = []
    for metric, expected in zip(metrics, signatures):
        kept = _WORKER.metrics.setdefault((type(metric), expected), metric)
        if kept.signature() != expected:
            raise RuntimeError(
                f"the worker computes {kept.signature()} where the client expects {expected}: "
                "install the same simpeval and plugin versions on every worker"
            )
        kept.bind_run(_WORKER.run)
        local.append(kept)
    return score_batch(local, tasks, batch)


def _failed(batch: Batch, exc: BaseException) -> Exception:
    if isinstance(exc, UsageError):
        return exc
    error = RuntimeError(f"{batch.describe()} failed after {RETRIES + 1} tries: {type(exc).__name__}: {exc}")
    error.__cause__ = exc
    return error


# --------------------------------------------------------------------------
# Executors
# --------------------------------------------------------------------------


class ProcessExecutor:
    """``jobs`` local worker processes (``concurrent.futures``)."""

    def __init__(self, jobs: int) -> None:
        from concurrent.futures import ProcessPoolExecutor

        self.workers = jobs
        self._pool = ProcessPoolExecutor(max_workers=jobs)

    def map(self, metrics: Sequence[Metric], work: Work) -> Iterator[tuple[Batch, BatchScores]]:
        from concurrent.futures import FIRST_COMPLETED, wait

        signatures = [metric.signature() for metric in metrics]
        pending = {self._pool.submit(score_remote, metrics, signatures, tasks, batch): (batch, tasks, 0)
                   for batch, tasks in work}
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                batch, tasks, tries = pending.pop(future)
                exc = future.exception()
                if exc is None:
                    yield batch, future.result()
                elif tries < RETRIES and not isinstance(exc, UsageError):
                    pending[self._pool.submit(score_remote, metrics, signatures, tasks, batch)] = (batch, tasks, tries + 1)
                else:
                    for other in pending:
                        other.cancel()
                    raise _failed(batch, exc)

    def close(self) -> None:
        self._pool.shutdown(cancel_futures=True)


class DaskExecutor:
    """Batches as tasks of a ``dask.distributed`` scheduler: ``address`` or ``"local"``
    (a ``LocalCluster`` of ``workers`` single-threaded processes, closed with the executor)."""

    def __init__(self, address: str, workers: int = 2) -> None:
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise UsageError("--dask needs Dask: pip install 'simpeval[dask]'") from None
        import dask

        self._cluster = None
        try:
            with dask.config.set({"distributed.admin.low-level-log-length": MESSAGE_LOG_LENGTH}):
                if address == "local":
                    self._cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                                 dashboard_address=None)
                    self._client = Client(self._cluster)
                else:
                    self._client = Client(address, timeout=CONNECT_TIMEOUT)
        except OSError as exc:
            if self._cluster is not None:
                self._cluster.close()
            raise UsageError(f"cannot reach the Dask scheduler at {address}: {exc}; "
                             "start one (dask scheduler) or use --dask local") from None
        self.workers = max(workers, sum(self._client.nthreads().values()))

    def map(self, metrics: Sequence[Metric], work: Work) -> Iterator[tuple[Batch, BatchScores]]:
        from distributed import as_completed

        signatures = [metric.signature() for metric in metrics]
        futures = {}
        for batch, tasks in work:
            future = self._client.submit(score_remote, metrics, signatures, tasks, batch,
                                         retries=RETRIES, pure=False, key=f"simpeval-batch-{batch.index}-{uuid.uuid4().hex}")
            futures[future] = batch
        for future in as_completed(futures):
            batch = futures[future]
            if future.status != "finished":
                exc = future.exception()
                for other in futures:
                    other.cancel()
                raise _failed(batch, exc)
            yield batch, future.result()

    def close(self) -> None:
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()


class _Closing:
    """Context manager around an executor (or None, for a serial run)."""

    def __init__(self, executor: Any) -> None:
        self.executor = executor

    def __enter__(self) -> Any:
        return self.executor

    def __exit__(self, *exc: object) -> None:
        if self.executor is not None:
            self.executor.close()


def open_executor(jobs: int = 1, dask: str | None = None) -> _Closing:
    """``with open_executor(jobs, dask) as executor:``: None (serial) for ``jobs=1`` without Dask;
    with ``dask="local"``, ``jobs`` sets the number of local workers (at least 2)."""
    if dask is not None:
        return _Closing(DaskExecutor(dask, workers=max(jobs, 2)))
    if jobs > 1:
        return _Closing(ProcessExecutor(jobs))
    return _Closing(None)
