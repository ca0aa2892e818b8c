"""A bounded store of per-text statistics, owned by one evaluation run.

Tokens, n-gram counts, sentence splits and per-item metric statistics are
memoised here instead of in process-wide caches, so their memory belongs to a
run and is bounded: the store keeps at most ``max_entries`` results and drops
the least recently used one first. The runner scores one batch with every
metric before the next, so a batch's texts are counted once while they are
fresh and then age out; texts that many items share (the references of
several systems' outputs, a source) keep being used and so stay for the run.

How a metric uses it: the store is its run's (:attr:`Metric.store
<simpeval.metrics.base.Metric.store>` is ``metric.run.store``, :mod:`simpeval.run`); a metric passes
``store=self.store`` to the functions of :mod:`simpeval.text` and to its own
statistics functions, which it decorates with :func:`stored`::

    @stored
    def overlap_stats(output, references, tokenizer, *, store=None):
        hyp = ngram_counts(output, tokenizer, store=store)
        ...

    class Overlap(Metric):
        def _score_items(self, sources, outputs, references=None):
            stats = [overlap_stats(o, tuple(r), self.tokenizer, store=self.store)
                     for o, r in zip(outputs, references)]

Arguments of a stored function must be hashable (pass references as a tuple)
and positional; ``store=None`` computes without memoising.
"""

from __future__ import annotations

import functools
import gc
from collections import OrderedDict, deque
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from itertools import compress, repeat
from operator import is_not, not_
from typing import Any, TypeVar

__all__ = ["DEFAULT_MAX_ENTRIES", "StatsStore", "stored", "stored_many"]

DEFAULT_MAX_ENTRIES = 1 << 16

_F = TypeVar("_F", bound=Callable[..., Any])
_MISSING = object()


class StatsStore:
    """Memoised per-text results, at most ``max_entries`` of them (least recently used go first).

    :attr:`peak` is the largest number of entries ever held and :attr:`misses` the
    number of results computed: tests and benchmarks read them.
    """

    def __init__(self, max_entries: int = DEFAULT_MAX_ENTRIES) -> None:
        if max_entries < 1:
            raise ValueError(f"a store needs room for at least one entry, got {max_entries}")
        self.max_entries = max_entries
        self.peak = 0
        self.misses = 0
        self._entries: OrderedDict[tuple, Any] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, function: Callable[..., Any], args: tuple) -> Any:
        """``function(*args, store=self)``, computed once while it stays in the store."""
        key = (function, *args)  # one tuple per entry: the function, then its arguments
        entries = self._entries
        try:
            value = entries[key]
        except KeyError:
            value = function(*args, store=self)
            self.misses += 1
            self._keep(key, value)
            return value
        entries.move_to_end(key)
        return value

    def get_many(self, function: Callable[..., Any], args_list: Sequence[tuple],
                 compute: Callable[..., list[Any]] | None = None) -> list[Any]:
        """``function(missing, store=self)`` for the argument tuples not in the store, computed in
        one call (a :func:`stored_many` function works on arrays), then every result in order.

        ``compute(missing, store=self)``, when given, computes them instead, kept under ``function``'s
        keys: a batch version of a :func:`stored` function (:func:`simpeval.text.tokenize_many`)
        shares its entries with the one-text calls."""
        entries = self._entries
        # C-speed passes over the batch (map, compress): a Python loop per text costs more than a lookup
        keys = list(map(tuple.__add__, repeat((function,)), args_list))
        values: list[Any] = list(map(entries.get, keys, repeat(_MISSING)))
        found = list(map(is_not, values, repeat(_MISSING)))
        n_found = sum(found)
        if n_found:  # the ones found become the most recently used, in order
            deque(map(entries.move_to_end, compress(keys, found)), 0)
        if n_found < len(keys):
            absent = args_list if not n_found else list(compress(args_list, map(not_, found)))
            missing = list(dict.fromkeys(absent))
            results = (compute or function)(missing, store=self)
            self.misses += len(missing)
            if len(missing) == len(keys):  # none found, none repeated: the keys and results line up
                entries.update(zip(keys, results))
                values = list(results)
            else:
                computed = dict(zip(missing, results))
                entries.update(zip(map(tuple.__add__, repeat((function,)), missing), computed.values()))
                fill = map(computed.__getitem__, absent)
                values = [value if present else next(fill) for value, present in zip(values, found)]
            while len(entries) > self.max_entries:  # as if kept one by one: the least recently used go
                entries.popitem(last=False)
            self.peak = max(self.peak, len(entries))
        return values

    def _keep(self, key: tuple, value: Any) -> None:
        entries = self._entries
        if len(entries) >= self.max_entries:
            entries.popitem(last=False)
        entries[key] = value
        if len(entries) > self.peak:
            self.peak = len(entries)

    def count(self, function: Callable[..., Any]) -> int:
        """How many results of ``function`` (a :func:`stored` function) the store holds."""
        inner = getattr(function, "__wrapped__", function)
        return sum(1 for key in self._entries if key[0] is inner)

    def clear(self, keep: Collection[Callable[..., Any]] = ()) -> None:
        """Drop every entry but the results of the :func:`stored` functions in ``keep`` (the
        counters stay). Benchmarks time a cold start (``keep=()``) and the cost of recomputing
        statistics from texts already tokenised (``keep=(tokenized, ngram_counts, split_sentences)``)."""
        kept = {getattr(function, "__wrapped__", function) for function in keep}
        for key in [key for key in self._entries if key[0] not in kept]:
            del self._entries[key]


def stored(function: _F) -> _F:
    """Memoise ``function(*args, store=None)`` in the store passed as ``store``.

    The result is keyed by the function and its positional arguments; without a
    store the function is simply called.
    """

    @functools.wraps(function)
    def wrapper(*args: Any, store: StatsStore | None = None) -> Any:
        if store is None:
            return function(*args, store=None)
        return store.get(function, args)

    return wrapper  # type: ignore[return-value]


@contextmanager
def gc_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused for a block (as it was before, after it).

    For the batch statistics (:func:`stored_many`), which allocate a tuple per text, token, key and
    item and no reference cycle: each collection the allocations trigger walks every object the
    process holds, so in a process holding much (a notebook's data, another library's caches) the
    collections cost more than the counting (0.15 ms of 0.41 per ASSET item beside EASSE's caches).
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def stored_many(function: _F) -> _F:
    """Memoise a function that computes many results in one call, each under its own key.

    ``function(args_list, store=None)`` returns one result per argument tuple of
    ``args_list``; with a store, only the tuples not already there are passed to it, and
    each result is kept as :func:`stored` would keep ``function(*args)``. For statistics
    that are cheaper computed for a whole batch at once (on arrays) than item by item.
    """

    @functools.wraps(function)
    def wrapper(args_list: Sequence[tuple], *, store: StatsStore | None = None) -> list[Any]:
        with gc_paused():
            if store is None:
                return function(list(args_list), store=None)
            return store.get_many(function, args_list)

    return wrapper  # type: ignore[return-value]
