"""Progress bars on standard error: one look for every long step (scoring, resampling tests).

A bar is shown only when asked for (the CLI asks when standard error is a terminal, or on
``--progress``); otherwise a stand-in takes the same calls and prints nothing, so callers never
branch. tqdm gives the rate and the ETA from the bar's total.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

# what plugins may import (tests/test_public_helpers.py): a metric batching its own work reports through report
__all__ = ["progress_bar", "report"]

_within: ContextVar[Callable[[float], None] | None] = ContextVar("simpeval_progress_within", default=None)


class _NoBar:
    def update(self, n: int = 1) -> None:
        pass

    def set_postfix_str(self, text: str = "", refresh: bool = True) -> None:
        pass

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def progress_bar(total: int | None, enabled: bool, *, desc: str, unit: str) -> Any:
    """A tqdm bar over ``total`` ``unit``s labelled ``desc`` (one that shows nothing unless ``enabled``);
    a context manager with ``update(n)``."""
    if not enabled:
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=total, unit=unit, desc=desc, leave=False, dynamic_ncols=True)


def report(done: int, total: int) -> None:
    """Say that ``done`` of ``total`` units of the metric call running now are done (an encoder calls it
    after each of its sub-batches), so that a bar over items moves inside a batch of the engine's
    instead of waiting at 0% for the whole batch. Outside a bar's metric call this does nothing."""
    hook = _within.get()
    if hook is not None and total > 0:
        hook(min(1.0, max(0.0, done / total)))


@contextmanager
def reporting(hook: Callable[[float], None] | None) -> Iterator[None]:
    """While in the block, :func:`report` hands ``hook`` the share of the work done (0 to 1)."""
    token = _within.set(hook)
    try:
        yield
    finally:
        _within.reset(token)
