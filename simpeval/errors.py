"""Errors that end a command with one line naming the problem and the remedy (exit status 2), and
the one line that tells a plugin's exception (:func:`fault_message`, exit status 1)."""

from __future__ import annotations

from collections.abc import Mapping


class UsageError(Exception):
    """Bad input, options or environment: the message names the problem and how to fix it.

    The CLI prints it as one line and exits with status 2, without a traceback.
    Metrics raise it for missing model weights, unknown options and the like.
    """


class PluginLoadError(Exception):
    """A plugin failed to import or register; the others keep working."""


class PluginError(Exception):
    """A plugin's code raised (a bug of that plugin, not bad input); the message names the plugin.

    The CLI prints it as one line with exit status 1 (:mod:`simpeval.cli.faults`).
    """


def fault_message(exc: BaseException, owners: Mapping[str, tuple[str, str, str]]) -> str | None:
    """The one line for ``exc`` when its innermost frame of plugin code belongs to one of ``owners``;
    None when only simpeval's own code raised."""
    frames = []
    tb = exc.__traceback__
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    for frame in reversed(frames):
        owner = owners.get(str(frame.f_globals.get("__name__", "")).split(".")[0])
        if owner is not None:
            label, distribution, name = owner
            text = " ".join(str(exc).split())
            what = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
            return (f"{label} failed ({what}): report it to the authors of {distribution} "
                    f"or switch it off with -p no:{name}")
    return None
