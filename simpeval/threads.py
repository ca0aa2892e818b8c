"""A call given a deadline: run in a daemon thread and abandoned if it does not return in time.

For calls that can block forever and cannot be interrupted (a plugin's import, a handshake with a
server that is not a Dask scheduler): the command goes on with an error instead of hanging.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

__all__ = ["call_within"]


def call_within(call: Callable[[], Any], seconds: float, name: str, late: Callable[[], BaseException]) -> Any:
    """``call()``'s value, or its exception re-raised in the caller's thread; ``late()`` is raised
    when it has not returned after ``seconds`` (the thread, named ``name``, is left to finish)."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = call()
        except BaseException as exc:  # carried to the caller's thread
            outcome["error"] = exc

    thread = threading.Thread(target=run, name=name, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        raise late()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]
