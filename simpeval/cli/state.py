"""What one ``simpeval`` invocation knows, kept in click's context object (``ctx.obj``).

The plugins switched off (``-p no:NAME``, ``$SIMPEVAL_DISABLE_PLUGINS``), the
registry (built on first use, so ``simpeval --version`` loads no plugin) and the
commands plugins add. Nothing here is module-level or class-level: two
invocations in one process (tests, notebooks) never share a registry.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from simpeval.registry import Registry


@dataclass
class PluginCommands:
    """The commands plugins add: top-level ones and ``simpeval train`` ones."""

    top: dict[str, click.Command] = field(default_factory=dict)
    train: dict[str, click.Command] = field(default_factory=dict)


@dataclass
class CliState:
    """The plugin registry and plugin commands of one invocation.

    :param disabled: plugin names (entry-point or built-in module names) not to load.
    :param builtin: names of the core's own commands (a plugin may not replace them).
    """

    disabled: list[str] = field(default_factory=list)
    builtin: frozenset[str] = frozenset()
    report_failures: bool = True
    _registry: Registry | None = None
    _commands: PluginCommands | None = None
    _reported: set[str] = field(default_factory=set)

    @property
    def registry(self) -> Registry:
        """The registry, built on first use; each broken plugin is one warning on standard error
        (``metrics list`` and ``datasets list`` show them in their listing instead)."""
        if self._registry is None:
            from simpeval.registry import load_registry

            self._registry = load_registry(disabled=self.disabled)
            known = {info.name for info in self._registry.plugins}
            for name in (name for name in self.disabled if name not in known):
                click.echo(f'warning: -p no:{name} switches nothing off: no plugin is called "{name}" (see '
                           "`simpeval metrics list`)", err=True)
            self._report()
        return self._registry

    def listing(self) -> Registry:
        """The registry for a command that lists plugin faults itself (so no warnings), with
        plugin commands loaded too, so that a raising ``simpeval_register_commands`` shows."""
        self.report_failures = False
        self.commands()
        return self.registry

    def _report(self) -> None:
        """One warning line per plugin fault not yet reported (unless the command lists them itself)."""
        for info in self.registry.failures:
            for error in info.errors:
                if self.report_failures and error not in self._reported:
                    click.echo(f"warning: {error} (switch it off with -p no:{info.name})", err=True)
                self._reported.add(error)

    def commands(self) -> PluginCommands:
        """The commands of every plugin whose ``simpeval_register_commands`` returned.

        Each plugin adds to groups of its own, merged afterwards: a plugin that raises
        half-way adds nothing, and one that reuses a built-in command's name is reported.
        """
        if self._commands is None:
            registry = self.registry
            self._commands = PluginCommands()
            scratch: dict[str, tuple[click.Group, click.Group]] = {}

            def groups(info):
                scratch[info.name] = (click.Group("simpeval"), click.Group("train"))
                return {"cli": scratch[info.name][0], "train": scratch[info.name][1]}

            for info, _ in registry.call_each("simpeval_register_commands", arguments=groups):
                top, train = scratch[info.name]
                taken = sorted((set(top.commands) & (self.builtin | set(self._commands.top)))
                               | (set(train.commands) & set(self._commands.train)))
                if taken:
                    info.errors.append(f'simpeval plugin "{info.name}" adds command "{taken[0]}", '
                                       "which already exists: rename it")
                    continue
                self._commands.top.update(top.commands)
                self._commands.train.update(train.commands)
            self._report()
        return self._commands


def echo_plugin_faults(registry: Registry) -> None:
    """After a listing: one line per fault of a broken plugin, one per disabled plugin."""
    lines = [f"{info.label}: {error}" for info in registry.failures for error in info.errors]
    lines += [f"{info.label}: disabled" for info in registry.plugins if info.disabled]
    if lines:
        click.echo("\n" + "\n".join(lines))


def current_state(disabled: list[str] | None = None) -> CliState:
    """The :class:`CliState` of the running command (a fresh one outside any command).

    :param disabled: start a fresh state with these plugins switched off (the root
        group's ``-p no:NAME`` does this before any command is looked up).
    """
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return CliState()
    root = ctx.find_root()
    if disabled is not None or not isinstance(root.obj, CliState):
        from simpeval.registry import disabled_plugins

        builtin = frozenset(getattr(root.command, "commands", {}))
        root.obj = CliState(disabled=disabled_plugins(disabled or ()), builtin=builtin)
    return root.obj


def registry() -> Registry:
    """The plugin registry of the running command, built on its first use."""
    return current_state().registry
