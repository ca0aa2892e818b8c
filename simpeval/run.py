"""One evaluation run and everything it keeps: score cache, statistics store, models, encodings, executor.

Why one object: a score is only right while the code, the model and the data behind it
are the ones that computed it. Anything kept between two computations (a loaded model,
a text's embedding, an analysed text) is therefore kept *by a run*, keyed by content
(a model by its content fingerprint, :func:`simpeval.models.fingerprint`, never by its
path), and released when the run ends. Nothing of a run survives it, so a notebook that
retrains a model in place and evaluates again loads the new weights.

Use::

    with Run(cache=ScoreCache(), memory_budget_mb=512) as run:
        run.bind(metrics)
        ...  # score; every metric reads run.store and run.resource(...)

- :attr:`Run.store`: the bounded :class:`~simpeval.store.StatsStore` of per-text statistics
  (tokens, n-gram counts, CEScore's analysed texts) the metrics share. It gets a quarter
  of the **memory budget**, counted in entries at :data:`STORE_ENTRY_BYTES` each (at most
  :data:`~simpeval.store.DEFAULT_MAX_ENTRIES`): measuring every Python object would cost
  more than computing it.
- :meth:`Run.resource` and :attr:`Run.memory`: models, encoders and what they computed
  (embeddings, per-sentence levels). A value given with its size in bytes counts against
  the other three quarters of the budget, the least recently used going first when it is
  exceeded; one given without (a loaded model, an encoder object) is kept for the whole
  run, since the run cannot work without it.
- :attr:`Run.cache`: the on-disk :class:`~simpeval.cache.ScoreCache` or None.
- :attr:`Run.executor`: where batches are scored (:mod:`simpeval.engine.parallel`) or None (here).
  The run does not close it: whoever opened it (``open_executor``) does.

The memory budget is ``memory_budget_mb`` if given, else ``$SIMPEVAL_MEMORY_BUDGET_MB``,
else :data:`DEFAULT_MEMORY_BUDGET_MB` (sized for a laptop: kept results stay well below
the memory of the models themselves). It bounds what a run keeps to avoid recomputing;
a smaller budget means more recomputation, never different scores.

A metric used on its own (``Bleu().corpus_score(...)``) gets a private run on first use
(:attr:`simpeval.metrics.base.Metric.run`), released with the metric.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from simpeval.errors import UsageError
from simpeval.store import DEFAULT_MAX_ENTRIES, StatsStore

if TYPE_CHECKING:
    from simpeval.cache import ScoreCache

__all__ = ["DEFAULT_MEMORY_BUDGET_MB", "MEMORY_BUDGET_ENV", "Memory", "Run", "memory_budget_bytes", "using"]

MEMORY_BUDGET_ENV = "SIMPEVAL_MEMORY_BUDGET_MB"
DEFAULT_MEMORY_BUDGET_MB = 1024
"""Megabytes of kept results (embeddings, analysed texts) a run holds by default: a laptop's share."""

STORE_ENTRY_BYTES = 2048
"""What one entry of the statistics store is reckoned to hold (a tokenised text, its n-gram counts)."""

_MB = 1 << 20
_T = TypeVar("_T")


def memory_budget_bytes(memory_budget_mb: float | None = None) -> int:
    """The budget in bytes: the argument, else ``$SIMPEVAL_MEMORY_BUDGET_MB``, else the default.

    :raises UsageError: when the value is not a number of megabytes of at least 0.
    """
    if memory_budget_mb is None:
        text = os.environ.get(MEMORY_BUDGET_ENV, "").strip()
        if not text:
            return DEFAULT_MEMORY_BUDGET_MB * _MB
        try:
            memory_budget_mb = float(text)
        except ValueError:
            raise UsageError(f"{MEMORY_BUDGET_ENV}={text!r} is not a number: set it to megabytes, e.g. 512") from None
        source = f"{MEMORY_BUDGET_ENV}={text}"
    else:
        source = f"memory_budget_mb={memory_budget_mb!r}"
    if not memory_budget_mb >= 0 or memory_budget_mb == float("inf"):
        raise UsageError(f"{source} is not a finite number of megabytes of at least 0: pass e.g. 512")
    return int(memory_budget_mb * _MB)


class Memory:
    """Values with their sizes in bytes, at most ``budget`` bytes of them; least recently used go first.

    Keys are ``(namespace, item)`` pairs so that one owner (an encoder) can count and drop
    its own entries in a memory it shares with others. A value larger than the whole
    budget is not kept at all. :attr:`peak_bytes` is the most ever held (tests, benchmarks).
    """

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.bytes = 0
        self.peak_bytes = 0
        self._entries: OrderedDict[tuple[Hashable, Hashable], tuple[Any, int]] = OrderedDict()
        self._counts: dict[Hashable, int] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: tuple[Hashable, Hashable]) -> bool:
        return key in self._entries

    def get(self, key: tuple[Hashable, Hashable], default: Any = None) -> Any:
        """The value kept under ``key`` (now the most recently used), or ``default``."""
        entry = self._entries.get(key)
        if entry is None:
            return default
        self._entries.move_to_end(key)
        return entry[0]

    def put(self, key: tuple[Hashable, Hashable], value: Any, nbytes: int) -> None:
        """Keep ``value`` (``nbytes`` large), dropping the least recently used values beyond the budget."""
        if key in self._entries:
            self._drop(key)
        if nbytes > self.budget:
            return
        self._entries[key] = (value, nbytes)
        self.bytes += nbytes
        self._counts[key[0]] = self._counts.get(key[0], 0) + 1
        while self.bytes > self.budget:
            self._drop(next(iter(self._entries)))
        self.peak_bytes = max(self.peak_bytes, self.bytes)

    def items(self, namespace: Hashable) -> list[tuple[Hashable, Any]]:
        """``(item, value)`` for every value of ``namespace`` kept, least recently used first."""
        return [(key[1], value) for key, (value, _) in self._entries.items() if key[0] == namespace]

    def count(self, namespace: Hashable) -> int:
        """How many values of ``namespace`` are kept."""
        return self._counts.get(namespace, 0)

    def clear(self, namespace: Hashable | None = None) -> None:
        """Drop every value (of ``namespace`` only, when given)."""
        if namespace is None:
            self._entries.clear()
            self._counts.clear()
            self.bytes = 0
            return
        for key in [key for key in self._entries if key[0] == namespace]:
            self._drop(key)

    def _drop(self, key: tuple[Hashable, Hashable]) -> None:
        _, nbytes = self._entries.pop(key)
        self.bytes -= nbytes
        left = self._counts[key[0]] - 1
        if left:
            self._counts[key[0]] = left
        else:
            del self._counts[key[0]]


class RunUser(Protocol):
    """What a run asks of a metric (:class:`simpeval.metrics.base.Metric`): to use it from now on.

    A protocol rather than an import, so that this module stays below the metrics and the
    executors that use it (no import cycle, not even one of type annotations)."""

    def bind_run(self, run: Run) -> None: ...


class Run:
    """Everything one evaluation keeps, released by :meth:`close` (or the end of a ``with`` block).

    :param cache: the on-disk score cache, or None for none.
    :param memory_budget_mb: megabytes of kept results (see the module's documentation).
    :param executor: where batches are scored (a :class:`simpeval.engine.parallel.BatchExecutor`), or None
        to score them in this process.
    :param store: the statistics store to use (default: a new bounded one).
    """

    def __init__(
        self,
        cache: ScoreCache | None = None,
        memory_budget_mb: float | None = None,
        executor: Any = None,
        *,
        store: StatsStore | None = None,
    ) -> None:
        self.cache = cache
        self.executor = executor
        budget = memory_budget_bytes(memory_budget_mb)
        self.memory_budget = budget
        """The whole budget in bytes: a quarter for :attr:`store`, the rest for :attr:`memory`."""
        entries = min(DEFAULT_MAX_ENTRIES, budget // 4 // STORE_ENTRY_BYTES)
        self.store = store if store is not None else StatsStore(max_entries=max(1, entries))
        self.memory = Memory(budget - budget // 4)
        self._held: dict[Hashable, Any] = {}

    def resource(self, key: Hashable, build: Callable[[], _T], nbytes: int | Callable[[_T], int] | None = None) -> _T:
        """The value kept under ``key``, built by ``build()`` when the run does not hold it.

        ``key`` must name everything the value depends on, a model by its content
        fingerprint (never its path). With ``nbytes`` (a size, or a function of the
        value giving it), the value counts against the memory budget and may be dropped
        (and rebuilt on the next ask); without, it is held until the run closes.
        """
        if key in self._held:
            return self._held[key]
        kept = self.memory.get(("resource", key), _MISSING)
        if kept is not _MISSING:
            return kept
        value = build()
        if nbytes is None:
            self._held[key] = value
        else:
            self.memory.put(("resource", key), value, nbytes(value) if callable(nbytes) else int(nbytes))
        return value

    def bind(self, metrics: Iterable[RunUser]) -> None:
        """Make every metric (and its component metrics) use this run."""
        for metric in metrics:
            metric.bind_run(self)

    def close(self) -> None:
        """Release every model, encoding and statistic the run keeps (the cache's files stay)."""
        self._held.clear()
        self.memory.clear()
        self.store.clear()

    def __enter__(self) -> Run:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __reduce__(self) -> Any:
        """A run is never shipped to a worker: workers make their own (:mod:`simpeval.engine.parallel`)."""
        raise TypeError("a Run stays in its process; a worker makes its own")


_MISSING = object()


@contextmanager
def using(run: Run | None) -> Iterator[Run]:
    """``with using(run) as run:``: the given run, or a new one released at the end of the block
    (for functions that take an optional run, e.g. a trainer's one-off encoding)."""
    if run is not None:
        yield run
        return
    with Run() as own:
        yield own
