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

import os
import re
import threading
import time
import uuid
from concurrent.futures import CancelledError
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from simpeval.errors import PluginError, UsageError, fault_message, plugin_owners
from simpeval.run import Run

if TYPE_CHECKING:
    from simpeval.metrics.base import Metric
    from simpeval.engine.batches import Batch, BatchScores, Task

Work = Sequence[tuple["Batch", "list[Task | None]"]]
RETRIES = 1
CONNECT_TIMEOUT = "10s"  # how long to wait for a remote scheduler before giving up
CONNECT_SECONDS = 10.0
NO_WORKER_SECONDS = 30.0
"""How long a run waits with no Dask worker connected before it stops with one line."""
DASK_ADDRESS = re.compile(r"(?:(?:tcp|tls)://)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):[0-9]{1,5}")
"""A scheduler address: ``tcp://HOST:PORT`` (or ``tls://``, or ``HOST:PORT``)."""


def check_dask_address(address: str) -> str:
    """``address`` if it can be a Dask scheduler's address (or ``local``), else :class:`UsageError`
    naming the form to give (``foo``, ``''`` and ``http://h:8786`` are not addresses)."""
    if address == "local" or (DASK_ADDRESS.fullmatch(address) and 0 < int(address.rsplit(":", 1)[1]) < 65536):
        return address
    raise UsageError(f"--dask {address!r} is not a scheduler address: give tcp://HOST:PORT (what `dask scheduler` "
                     "prints, port 8786 by default) or local")
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
    try:
        return score_batch(local, tasks, batch)
    except UsageError:
        raise
    except (Exception, SystemExit, KeyboardInterrupt) as exc:  # a plugin's bug: named here, where its frames are
        owners = plugin_owners((type(m).__module__, *m.provided_by) for m in local if m.provided_by[0] != "simpeval")
        message = fault_message(exc, owners)
        if message is None:
            raise
        raise PluginError(message) from None


def _failed(batch: Batch, exc: BaseException) -> Exception:
    if isinstance(exc, (UsageError, PluginError)):
        return exc
    from concurrent.futures.process import BrokenProcessPool
    from pickle import PicklingError

    if isinstance(exc, BrokenProcessPool):
        return UsageError(f"a worker process died while scoring {batch.describe()} (killed, or out of memory): "
                          "run again with fewer --jobs, or without --jobs")
    if isinstance(exc, PicklingError) or "pickle" in str(exc):
        return _unsendable(exc)
    error = RuntimeError(f"{batch.describe()} failed after {RETRIES + 1} tries: {type(exc).__name__}: {exc}")
    error.__cause__ = exc
    return error


def _unsendable(exc: BaseException) -> UsageError:
    return UsageError(f"a metric cannot be sent to worker processes ({type(exc).__name__}: "
                      f"{' '.join(str(exc).split())}): run it without --jobs")


def _check_sendable(metrics: Sequence[Metric], tasks: list[Task | None]) -> None:
    """Raise the one-line :class:`UsageError` when the metrics (or their tasks) cannot be pickled.

    Checked in the client before any worker starts: when pickling fails inside the pool's
    feeder thread instead, cancelling the batches queued behind it can kill the pool's
    management thread (CPython 3.11), and the pool's shutdown then waits for ever.
    """
    import pickle

    try:
        pickle.dumps((list(metrics), tasks))
    except Exception as exc:  # noqa: BLE001  (pickle raises TypeError, AttributeError, PicklingError, ...)
        raise _unsendable(exc) from None


PARENT_POLL_SECONDS = 1.0
"""How often a worker process checks that the process that started it is still there."""


def _follow_parent(client: int | None) -> None:
    """In each worker process (the pool's initializer): exit as soon as the process that started it
    is gone. A client killed with SIGKILL cannot shut its pool down; without this its workers
    would live on, re-parented, each holding a model in memory.

    :param client: the client's pid when it is the workers' parent (``fork`` and ``spawn``), so
        that a client that died before this ran is noticed too; None under ``forkserver``,
        whose server is the parent and exits with the client.
    """
    parent = os.getppid()
    if client is not None and parent != client:
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="simpeval-parent-watch", daemon=True).start()


# --------------------------------------------------------------------------
# Executors
# --------------------------------------------------------------------------


class ProcessExecutor:
    """Up to ``jobs`` local worker processes (``concurrent.futures``), never more than there are
    batches to score: the pool starts on the first batches and grows when more are handed over."""

    def __init__(self, jobs: int) -> None:
        self.workers = jobs
        self._pool: Any = None
        self._size = 0

    def _pool_for(self, n_batches: int) -> Any:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        wanted = max(1, min(self.workers, n_batches))
        if self._pool is None or self._size < wanted:
            if self._pool is not None:
                self._pool.shutdown()
            context = multiprocessing.get_context()
            client = os.getpid() if context.get_start_method() in ("fork", "spawn") else None
            self._pool = ProcessPoolExecutor(max_workers=wanted, mp_context=context, initializer=_follow_parent,
                                             initargs=(client,))
            self._size = wanted
        return self._pool

    def map(self, metrics: Sequence[Metric], work: Work) -> Iterator[tuple[Batch, BatchScores]]:
        from concurrent.futures import FIRST_COMPLETED, wait

        work = list(work)
        if not work:
            return
        _check_sendable(metrics, work[0][1])
        pool = self._pool_for(len(work))
        signatures = [metric.signature() for metric in metrics]
        pending = {pool.submit(score_remote, metrics, signatures, tasks, batch): (batch, tasks, 0)
                   for batch, tasks in work}
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                batch, tasks, tries = pending.pop(future)
                exc = future.exception()
                if exc is None:
                    yield batch, future.result()
                elif tries < RETRIES and not isinstance(exc, (UsageError, PluginError)) and not _broken(exc):
                    pending[pool.submit(score_remote, metrics, signatures, tasks, batch)] = (batch, tasks, tries + 1)
                else:
                    for other in pending:
                        other.cancel()
                    raise _failed(batch, exc)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)


def _broken(exc: BaseException) -> bool:
    """Whether ``exc`` says the process pool itself is gone (a retry on it would fail at once)."""
    from concurrent.futures.process import BrokenProcessPool

    return isinstance(exc, BrokenProcessPool)


class DaskExecutor:
    """Batches as tasks of a ``dask.distributed`` scheduler: ``address`` or ``"local"``
    (a ``LocalCluster`` of ``workers`` single-threaded processes, closed with the executor)."""

    def __init__(self, address: str, workers: int = 2) -> None:
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise UsageError("--dask needs Dask: pip install 'simpeval[dask]'") from None
        import dask

        self.address = address
        self._cluster = None
        try:
            with dask.config.set({"distributed.admin.low-level-log-length": MESSAGE_LOG_LENGTH}):
                if address == "local":
                    self._cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                                 dashboard_address=None)
                    self._client = Client(self._cluster)
                else:
                    self._client = _within(lambda: Client(address, timeout=CONNECT_TIMEOUT), CONNECT_SECONDS + 5)
        except Exception as exc:  # noqa: BLE001  (a peer sending garbage makes distributed raise struct.error, ValueError...)
            if self._cluster is not None:
                self._cluster.close()
            if isinstance(exc, _Late):
                problem = "it does not answer as a Dask scheduler"
            elif isinstance(exc, OSError):
                problem = _one_line(exc)
            else:
                problem = f"it does not speak Dask's protocol ({type(exc).__name__}: {_one_line(exc)})"
            raise UsageError(f"cannot reach the Dask scheduler at {address}: {problem}; "
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
        watchdog = _Watchdog(self, list(futures))
        try:
            for future in as_completed(futures):
                batch = futures[future]
                if future.status != "finished":
                    exc = future.exception() if future.status == "error" else None
                    for other in futures:
                        other.cancel()
                    if watchdog.problem is not None:
                        raise watchdog.problem
                    if exc is None:  # cancelled or lost: the scheduler or its workers went away
                        raise self._lost(f"{batch.describe()} was {future.status}")
                    raise _failed(batch, exc)
                yield batch, future.result()
        except CancelledError:  # distributed's FuturesCancelledError: the connection was lost
            raise (watchdog.problem or self._lost("its tasks were cancelled")) from None
        finally:
            watchdog.stop()

    def _check_workers(self, idle_since: float | None) -> float | None:
        """Between waits: one line when the scheduler is gone, or has had no worker for
        :data:`NO_WORKER_SECONDS` (a run would otherwise wait for ever)."""
        if self._client.status != "running":
            raise self._lost(f"the client is {self._client.status}")
        try:
            workers = _within(lambda: len(self._client.nthreads()), CONNECT_SECONDS)
        except Exception as exc:  # noqa: BLE001  (a gone or garbled peer: OSError, struct.error, ValueError...)
            raise self._lost(_one_line(exc)) from None
        if workers:
            return None
        idle_since = idle_since if idle_since is not None else time.monotonic()
        if time.monotonic() - idle_since > NO_WORKER_SECONDS:
            raise UsageError(f"the Dask scheduler at {self.address} has had no worker for {NO_WORKER_SECONDS:g} s: "
                             f"start workers (dask worker {self.address}) or use --dask local")
        return idle_since

    def _lost(self, what: str) -> UsageError:
        return UsageError(f"lost the Dask scheduler at {self.address} during the run ({what}): restart it and run "
                          "again (with the score cache on, batches already scored are not scored again)")

    def close(self) -> None:
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()


POLL_SECONDS = 2.0
"""How often a Dask run that is waiting checks that its scheduler and workers are still there."""


class _Watchdog:
    """Beside a Dask run: every :data:`POLL_SECONDS`, checks that the scheduler is there and has
    workers (:meth:`DaskExecutor._check_workers`); when not, records the one-line error and cancels
    the run's futures, so the waiting loop wakes up and raises it instead of waiting for ever."""

    def __init__(self, executor: DaskExecutor, futures: list[Any]) -> None:
        self.problem: UsageError | None = None
        self._executor, self._futures = executor, futures
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="simpeval-dask-watchdog", daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        idle_since = None
        while not self._stopped.wait(POLL_SECONDS):
            try:
                idle_since = self._executor._check_workers(idle_since)
            except UsageError as exc:
                self.problem = exc
                for future in self._futures:
                    future.cancel()
                return

    def stop(self) -> None:
        self._stopped.set()
        self._futures = []


class _Late(TimeoutError):
    """A call that did not return in time (the peer accepted the connection but never answered)."""


def _within(call: Any, seconds: float) -> Any:
    """``call()`` waited for ``seconds``: a call that blocks (a server that is not a Dask scheduler
    never finishes the handshake) raises :class:`_Late` and is abandoned."""
    from simpeval.threads import call_within

    return call_within(call, seconds, "simpeval-dask-call", lambda: _Late(f"no answer in {seconds:g} s"))


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text or type(exc).__name__


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
