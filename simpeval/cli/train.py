"""``simpeval train NAME``: one click command per registered trainer, built from its declared options.

The command is thin: ``--data-dir`` and ``-o/--output`` for every trainer, the trainer's own options
(:class:`simpeval.learning.trainer.Option`), and :func:`simpeval.learning.trainer.train` on the trainer they
construct.
"""

from __future__ import annotations

import os
from pathlib import Path

import click

from simpeval.learning.trainer import Option, parse_seeds, train


def _seeds(ctx: click.Context, param: click.Parameter, value: str) -> list[int]:
    try:
        return parse_seeds(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


def _click_type(option: Option):
    if isinstance(option.type, tuple):
        return click.Choice(list(option.type))
    if option.type in ("file", "dir"):
        return click.Path(dir_okay=option.type == "dir", file_okay=option.type == "file", path_type=Path)
    if option.type in (int, float) and (option.minimum is not None or option.maximum is not None):
        kind = click.IntRange if option.type is int else click.FloatRange
        extra = {} if option.type is int else {"min_open": option.min_open, "max_open": option.max_open}
        return kind(min=option.minimum, max=option.maximum, **extra)
    return str if option.type == "seeds" else option.type


def click_option(option: Option) -> click.Option:
    """The click option a trainer's :class:`~simpeval.learning.trainer.Option` declares."""
    declarations = [*option.flags.split(" "), *([option.name] if option.name else [])]
    return click.Option(declarations, type=None if option.type is bool else _click_type(option),
                        is_flag=True if option.type is bool else None, default=option.default,
                        multiple=option.multiple, help=option.help or None, show_default=option.show_default,
                        callback=_seeds if option.type == "seeds" else None)


def trainer_command(cls: type, name: str | None = None) -> click.Command:
    """``simpeval train NAME`` for trainer class ``cls``; under a former name (``cls.renamed``), hidden and warning."""
    params = [
        click.Option(["--data-dir"], type=click.Path(file_okay=False, path_type=Path),
                     default=lambda: os.environ.get("SIMPEVAL_DATA_DIR"),
                     help="Data directory (default: $SIMPEVAL_DATA_DIR)."),
        click.Option(["-o", "--output"], type=click.Path(file_okay=False, path_type=Path), required=True,
                     help="Directory for the checkpoint (use it with -m METRIC:checkpoint=DIR)."),
        *(click_option(option) for option in cls.options),
    ]

    def run(output: Path, **options) -> None:
        if name is not None:
            why = cls.renamed.get(name)
            click.echo(f"warning: `simpeval train {name}` is deprecated: it trains {cls.name}; use `simpeval train "
                       f"{cls.name}`" + (f" ({why})" if why else ""), err=True)
        train(cls(**options), output, log=click.echo)

    doc = (cls.__doc__ or "").strip()
    if name is not None:
        return click.Command(name, params=params, callback=run, help=doc, hidden=True,
                             short_help=f"Deprecated name of `simpeval train {cls.name}`.")
    return click.Command(cls.name, params=params, callback=run, help=doc, short_help=cls.short_help or None)
