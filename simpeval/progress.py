"""Progress bars on standard error: one look for every long step (scoring, resampling tests).

A bar is shown only when asked for (the CLI asks when standard error is a terminal, or on
``--progress``); otherwise a stand-in takes the same calls and prints nothing, so callers never
branch. tqdm gives the rate and the ETA from the bar's total.
"""

from __future__ import annotations

from typing import Any


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
