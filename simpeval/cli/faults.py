"""A plugin's exception, told in one line that names the plugin (never a traceback).

A metric that raises in ``__init__``, ``signature``, ``check_inputs``, ``score_sentences`` or
``score_corpus``, or a plugin command that raises, is a bug of that plugin, not bad input
(``sys.exit`` and ``KeyboardInterrupt`` included: they would end the command silently, exit
status 0, or as if the user had pressed Ctrl-C):
the command ends with exit status 1 (2 stays "fix your input") and one line naming the plugin,
its distribution and the two remedies (report it, or switch the plugin off). An exception
raised by simpeval's own code keeps its traceback: it is simpeval's bug to report. Under
``--jobs`` the worker names the plugin itself (:func:`simpeval.engine.parallel.score_remote`).

A file-system error that is nobody's bug (a full disk, a path too long, no permission) is
the environment's: one line naming the path and the remedy, exit status 2, whoever's code met it.
"""

from __future__ import annotations

import errno
from typing import TYPE_CHECKING

import click

from simpeval.errors import Owner, PluginError, fault_message, plugin_owners

if TYPE_CHECKING:
    from simpeval.registry import Registry

PLUGIN_FAULT_EXIT = 1


class Interrupted(KeyboardInterrupt):
    """Ctrl-C on the command (SIGINT), told apart from a ``KeyboardInterrupt`` that plugin code raises."""


class Terminated(SystemExit):
    """SIGTERM on the command, told apart from a ``sys.exit`` in plugin code."""


def interrupt(signum: int, frame: object) -> None:
    """The SIGINT handler of the command line: raises :class:`Interrupted` (click prints "Aborted!")."""
    raise Interrupted


class PluginFault(click.ClickException):
    """One line, exit status 1: a plugin's code raised."""

    exit_code = PLUGIN_FAULT_EXIT


def registry_owners(registry: Registry | None) -> dict[str, Owner]:
    """Module -> owner (:func:`simpeval.errors.plugin_owners`) of every third-party plugin switched on."""
    return plugin_owners(
        (info.module.split(":")[0], info.distribution, info.version, info.name)
        for info in (registry.plugins if registry is not None else ())
        if info.distribution != "simpeval" and not info.disabled
    )


def one_line_fault(exc: BaseException, registry: Registry | None) -> click.ClickException | None:
    """The one-line error to raise for ``exc``, or None to let it propagate (a signal, or simpeval's
    own exception): the environment's fault (:func:`environment_fault`) first, then a plugin's."""
    if isinstance(exc, (Interrupted, Terminated)):
        return None
    environment = environment_fault(exc)
    if environment is not None:
        return environment
    if isinstance(exc, PluginError):
        return PluginFault(str(exc))
    message = fault_message(exc, registry_owners(registry))
    return None if message is None else PluginFault(message)


class EnvironmentFault(click.ClickException):
    """One line, exit status 2: the file system refused (no room, a path too long, no permission)."""

    exit_code = 2


_ENVIRONMENT = {
    errno.ENOSPC: "free some space or pick another path",
    errno.EDQUOT: "free some space or pick another path",
    errno.EFBIG: "free some space or pick another path",
    errno.ENAMETOOLONG: "give a shorter path",
    errno.EACCES: "check its permissions or pick another path",
    errno.EPERM: "check its permissions or pick another path",
    errno.EROFS: "pick a path on a writable file system",
    errno.ELOOP: "fix the symbolic links on that path",
}
"""What the user can do about each file-system error that no code (simpeval's or a plugin's) can
have caused by a bug: a full disk, a path too long or not allowed is the environment's, whoever's
code met it (a plugin's trainer writing a checkpoint, a stat of ``--orig``)."""


def environment_fault(exc: BaseException) -> EnvironmentFault | None:
    """One line naming the path and the remedy, for an :class:`OSError` of :data:`_ENVIRONMENT`."""
    if not isinstance(exc, OSError) or exc.errno not in _ENVIRONMENT:
        return None
    path = exc.filename if exc.filename is not None else "a file"
    shown = str(path) if len(str(path)) <= 80 else f"{str(path)[:60]}...({len(str(path))} characters)"
    return EnvironmentFault(f"cannot use {shown}: {exc.strerror or exc}; {_ENVIRONMENT[exc.errno]}")
