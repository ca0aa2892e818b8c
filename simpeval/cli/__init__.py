"""The ``simpeval`` command line: a thin click layer over the library.

Each command parses its options, calls one library function and formats the
result. The plugin registry and the commands plugins add (through
``simpeval_register_commands``) live in click's context object
(:mod:`simpeval.cli.state`) and are built on first use, so ``simpeval --version``
loads no plugin and no command imports torch unless a neural metric runs.
"""

from __future__ import annotations

import os
import signal
import sys
import warnings

import click

from simpeval._version import __version__
from simpeval.cli.state import current_state
from simpeval.errors import UsageError


class OneLineError(click.ClickException):
    """A :class:`simpeval.UsageError` shown as ``Error: ...`` with exit status 2 and no traceback."""

    exit_code = 2


class SimpevalGroup(click.Group):
    """A group that turns :class:`UsageError` into a one-line error and refuses repeated options."""

    def invoke(self, ctx: click.Context):
        from simpeval.fileio import command_files

        try:
            with command_files():  # no output replaces a file the command read
                return super().invoke(ctx)
        except UsageError as exc:
            raise OneLineError(str(exc)) from None
        except (click.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except (Exception, SystemExit, KeyboardInterrupt) as exc:  # the environment's or a plugin's (.faults)
            from simpeval.cli.faults import one_line_fault

            fault = one_line_fault(exc, getattr(ctx.find_root().obj, "_registry", None))
            if fault is None:
                raise
            raise fault from None

    def resolve_command(self, ctx: click.Context, args: list[str]):
        name, command, rest = super().resolve_command(ctx, args)
        if command is not None and not isinstance(command, click.Group):
            refuse_repeated_options(command, ctx, name, rest)
        return name, command, rest


def refuse_repeated_options(command: click.Command, parent: click.Context, name: str | None, args: list[str]) -> None:
    """A single-valued option given twice is an error, not "the last one wins" (click's default).

    ``--sys a --sys b`` would otherwise score only ``b`` and exit 0. Options declared
    ``multiple=True`` (or counting) may repeat; this applies to every command, plugin ones too.
    """
    ctx = click.Context(command, info_name=name, parent=parent, resilient_parsing=True)
    _, _, order = command.make_parser(ctx).parse_args(args=list(args))
    seen: set[str] = set()
    for param in order:
        if not isinstance(param, click.Option) or param.multiple or param.count:
            continue
        if param.name in seen:
            flag = max(param.opts, key=len)
            raise click.UsageError(f"{flag} is given more than once: give it once", ctx)
        seen.add(param.name)


ONE_BLAS_THREAD_COMMANDS = frozenset({"evaluate"})
"""Commands whose numpy work (n-gram counts, statistics) is not matrix algebra.

numpy's OpenBLAS starts a thread per core at import that spins for a while: on a 2-core machine
about 0.1 s of CPU taken from the run. These commands get ``OPENBLAS_NUM_THREADS=1`` (their
``--jobs`` workers inherit it; a user's own setting wins); the others, such as ``meta-evaluate``,
whose bootstrap multiplies matrices, keep every thread.
"""


class RootGroup(SimpevalGroup):
    def resolve_command(self, ctx: click.Context, args: list[str]):  # noqa: ANN201 - click's own triple
        """Click's, and one OpenBLAS thread for :data:`ONE_BLAS_THREAD_COMMANDS` when numpy is not loaded yet
        (only then does the setting take effect; it never leaks into a process that already uses numpy)."""
        name, command, rest = super().resolve_command(ctx, args)
        if name in ONE_BLAS_THREAD_COMMANDS and "numpy" not in sys.modules:
            os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
        return name, command, rest

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

    def get_command(self, ctx: click.Context, name: str):
        return super().get_command(ctx, name) or current_state().commands().top.get(name)

    def list_commands(self, ctx: click.Context):
        return sorted({*super().list_commands(ctx), *current_state().commands().top})


class TrainGroup(SimpevalGroup):
    """``simpeval train``: its commands all come from plugins: their registered trainers
    (:mod:`simpeval.cli.train`), and commands a plugin adds to the group itself."""

    def get_command(self, ctx: click.Context, name: str):
        command = super().get_command(ctx, name) or current_state().commands().train.get(name)
        if command is not None:
            return command
        from simpeval.cli.train import trainer_command

        trainers = current_state().registry.trainers
        if name in trainers:
            return trainer_command(trainers[name])
        renamed = next((cls for cls in trainers.values() if name in cls.renamed), None)
        return trainer_command(renamed, name) if renamed is not None else None

    def list_commands(self, ctx: click.Context):
        state = current_state()
        return sorted({*super().list_commands(ctx), *state.commands().train, *state.registry.trainers})


def _disable_plugins(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> None:
    """``-p no:NAME``: start this invocation's state with those plugins switched off."""
    names = []
    for value in values:
        if not value.startswith("no:") or not value[3:].strip():
            raise click.BadParameter(f"{value!r}: write -p no:NAME to switch plugin NAME off", ctx, param)
        names.append(value[3:].strip())
    current_state(disabled=names)


@click.group(cls=RootGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="simpeval")
@click.option("-p", "plugins", multiple=True, metavar="no:NAME", is_eager=True, expose_value=False,
              callback=_disable_plugins,
              help="Switch plugin NAME off (repeatable; see `simpeval metrics list`). "
                   "$SIMPEVAL_DISABLE_PLUGINS=NAME,... does the same.")
def cli() -> None:
    """Evaluate text simplification and meta-evaluate its metrics."""


@cli.group(cls=TrainGroup)
def train() -> None:
    """Train a learnable metric (each plugin adds its own trainer here)."""


def _add_builtin_commands() -> None:
    from simpeval.cli.data import data
    from simpeval.cli.datasets import datasets
    from simpeval.cli.evaluate import evaluate
    from simpeval.cli.leaderboard import leaderboard
    from simpeval.cli.meta_evaluate import meta_evaluate
    from simpeval.cli.metrics import metrics
    from simpeval.cli.plugin import plugin
    from simpeval.cli.report import report
    from simpeval.cli.reproduce import reproduce
    from simpeval.cli.testsets import test_sets

    for command in (evaluate, meta_evaluate, metrics, datasets, data, test_sets, reproduce, plugin, report, leaderboard):
        cli.add_command(command)


_add_builtin_commands()


def main() -> None:
    exit_on_sigterm()
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        from simpeval.cli.faults import interrupt

        signal.signal(signal.SIGINT, interrupt)
    warnings.formatwarning = one_line_warning
    cli(prog_name="simpeval")


def one_line_warning(message, category, filename, lineno, line=None) -> str:
    """A warning on the command line is one line (a deprecated metric name, say): the user needs
    the message and its remedy, not the source line of simpeval or of a plugin that raised it."""
    return f"warning: {message}\n"


def exit_on_sigterm() -> None:
    """SIGTERM (``kill``, a job scheduler's time limit) ends the command as Ctrl-C would: the
    ``with`` blocks unwind, so a staged ``-o`` file is deleted instead of left behind.
    Worker processes forked later (``--jobs``) keep the default: they just stop."""
    main_pid = os.getpid()

    def terminate(signum: int, frame: object) -> None:
        if os.getpid() != main_pid:
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        from simpeval.cli.faults import Terminated

        raise Terminated(128 + signum)

    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, terminate)
