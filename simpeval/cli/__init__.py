"""The ``simpeval`` command line: a thin click layer over the library.

Each command parses its options, calls one library function and formats the
result. Plugin commands are added through ``simpeval_register_commands`` the
first time a command is looked up, so ``simpeval --version`` loads no plugin and
no command imports torch unless a neural metric runs.
"""

from __future__ import annotations

import sys

import click

from simpeval._version import __version__
from simpeval.errors import UsageError


class OneLineError(click.ClickException):
    """A :class:`simpeval.UsageError` shown as ``Error: ...`` with exit status 2 and no traceback."""

    exit_code = 2


class SimpevalGroup(click.Group):
    """A group that turns :class:`UsageError` into a one-line error and loads plugin commands lazily."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except UsageError as exc:
            raise OneLineError(str(exc)) from None


class RootGroup(SimpevalGroup):
    _plugins_loaded = False

    def main(self, args=None, prog_name=None, standalone_mode=True, **extra):
        """Click's main, except that a usage error (a bad option or value) is one line, exit status 2."""
        if not standalone_mode:
            return super().main(args, prog_name, standalone_mode=False, **extra)
        try:
            exit_code = super().main(args, prog_name, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except click.UsageError as exc:
            where = f" (see `{exc.ctx.command_path} --help`)" if exc.ctx is not None else ""
            click.echo(f"Error: {exc.format_message()}{where}", err=True)
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except click.exceptions.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(1)
        sys.exit(exit_code if isinstance(exit_code, int) else 0)  # --help and --version return their code

    def _load_plugin_commands(self) -> None:
        if not RootGroup._plugins_loaded:
            RootGroup._plugins_loaded = True
            registry().plugin_manager.hook.simpeval_register_commands(cli=self, train=train)

    def get_command(self, ctx: click.Context, name: str):
        self._load_plugin_commands()
        return super().get_command(ctx, name)

    def list_commands(self, ctx: click.Context):
        self._load_plugin_commands()
        return super().list_commands(ctx)


_REGISTRY = None


def registry():
    """The registry of this process, built on first use (plugins load once per command)."""
    global _REGISTRY
    if _REGISTRY is None:
        from simpeval.registry import load_registry

        _REGISTRY = load_registry()
    return _REGISTRY


@click.group(cls=RootGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="simpeval")
def cli() -> None:
    """Evaluate text simplification and meta-evaluate its metrics."""


@cli.group(cls=SimpevalGroup)
def train() -> None:
    """Train a learnable metric (each plugin adds its own trainer here)."""


def _add_builtin_commands() -> None:
    from simpeval.cli.datasets import datasets
    from simpeval.cli.evaluate import evaluate
    from simpeval.cli.meta_evaluate import meta_evaluate
    from simpeval.cli.metrics import metrics
    from simpeval.cli.plugin import plugin
    from simpeval.cli.reproduce import reproduce
    from simpeval.cli.testsets import test_sets

    for command in (evaluate, meta_evaluate, metrics, datasets, test_sets, reproduce, plugin):
        cli.add_command(command)


_add_builtin_commands()


def main() -> None:
    cli(prog_name="simpeval")
