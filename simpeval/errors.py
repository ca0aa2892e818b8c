"""Errors that end a command with one line naming the problem and the remedy (exit status 2), and
the one line that tells a plugin's exception (:func:`fault_message`, exit status 1)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping


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


Owner = tuple[str, str, tuple[str, ...]]
"""Who answers for a module's code: ``(label, distribution, plugin names)`` (see :func:`plugin_owners`)."""


def plugin_owners(plugins: Iterable[tuple[str, str, str, str]]) -> dict[str, Owner]:
    """What :func:`fault_message` needs, from ``(module, distribution, version, plugin name)`` of
    every plugin that is switched on (a switched-off one ran no code, and ``-p no:`` it would not help).

    Each plugin owns its own module (its entry point's, or its metric class's) and the
    modules below it. A distribution's top-level package owns the code its plugins share:
    there the fault is told against all of them, with a ``-p no:`` for each.
    """
    owners: dict[str, Owner] = {}
    shared: dict[str, tuple[str, str, list[str]]] = {}
    for module, distribution, version, name in plugins:
        release = f"{distribution} {version}".strip()
        owners[module] = (f'plugin "{name}" ({release})', distribution, (name,))
        names = shared.setdefault(module.split(".")[0], (distribution, release, []))[2]
        if name not in names:
            names.append(name)
    for package, (distribution, release, names) in shared.items():
        if package not in owners:
            quoted = ", ".join(f'"{name}"' for name in names)
            owners[package] = (f"plugin{'s' if len(names) > 1 else ''} {quoted} ({release})", distribution, tuple(names))
    return owners


def fault_message(exc: BaseException, owners: Mapping[str, Owner]) -> str | None:
    """The one line for ``exc`` when its innermost frame of plugin code belongs to one of ``owners``
    (the owner of the frame's module or of the nearest package above it); None when only
    simpeval's own code raised."""
    frames = []
    tb = exc.__traceback__
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    for frame in reversed(frames):
        owner = _owner(str(frame.f_globals.get("__name__", "")), owners)
        if owner is not None:
            label, distribution, names = owner
            text = " ".join(str(exc).split())
            what = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
            switches = " ".join(f"-p no:{name}" for name in names)
            return (f"{label} failed ({what}): report it to the authors of {distribution} "
                    f"or switch it off with {switches}")
    return None


def _owner(module: str, owners: Mapping[str, Owner]) -> Owner | None:
    parts = module.split(".")
    for end in range(len(parts), 0, -1):
        owner = owners.get(".".join(parts[:end]))
        if owner is not None:
            return owner
    return None
