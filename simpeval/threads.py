"""A call given a deadline, for calls that can block forever (a plugin's import, a handshake with a
server that is not a Dask scheduler): the command goes on with an error instead of hanging.

In the main thread of a POSIX process the call runs right there, under a ``SIGALRM`` timer
(:func:`call_within`), so that it can do what only the main thread may, such as a plugin
installing a signal handler at import. Elsewhere it runs in a daemon thread that is abandoned
when late.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from typing import Any

__all__ = ["call_within"]


def call_within(call: Callable[[], Any], seconds: float | None, name: str, late: Callable[[], BaseException]) -> Any:
    """``call()``'s value, or its exception; ``late()`` is raised when it has not returned after
    ``seconds`` (None waits for as long as it takes).

    :param name: the thread's name, where the call runs in a thread of its own.
    """
    if seconds is None:
        return call()
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
        return _call_under_alarm(call, seconds, late)
    return _call_in_thread(call, seconds, name, late)


class _Late(BaseException):
    """Raised by the timer in the late call's frames; a BaseException, so that the call's own
    ``except Exception`` cannot swallow it."""


def _call_under_alarm(call: Callable[[], Any], seconds: float, late: Callable[[], BaseException]) -> Any:
    """``call()`` in this (main) thread, interrupted by ``SIGALRM`` after ``seconds``; the
    previous handler and timer are put back afterwards."""
    returned = False

    def ring(signum: int, frame: object) -> None:
        if not returned:
            raise _Late

    previous = signal.signal(signal.SIGALRM, ring)
    outer_delay, _ = signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        value = call()
        returned = True
        return value
    except _Late:
        raise late() from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer_delay:
            signal.setitimer(signal.ITIMER_REAL, outer_delay)


def _call_in_thread(call: Callable[[], Any], seconds: float, name: str, late: Callable[[], BaseException]) -> Any:
    """``call()`` in a daemon thread named ``name``, its exception re-raised here; abandoned when late."""
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
