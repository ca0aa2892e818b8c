"""``simpeval plugin new NAME``: start a metric plugin of your own."""

from __future__ import annotations

from pathlib import Path

import click


@click.group()
def plugin() -> None:
    """Write plugins (see docs/plugin-authors.md)."""


@plugin.command("new")
@click.argument("name")
@click.option("--directory", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where to write it (default: ./simpeval-NAME); must not exist.")
def new(name: str, directory: Path | None) -> None:
    """Write a ready-to-install plugin distribution for a metric called NAME, with a test."""
    from simpeval.cli.state import registry
    from simpeval.scaffold import plugin_files, write_plugin

    plugin_files(name)  # a bad name is refused before any plugin loads
    directory = directory or Path(f"simpeval-{name}")
    written = write_plugin(name, directory, taken=registry().all_score_names())
    for path in written:
        click.echo(path)
    click.echo(f"next: pip install -e '{directory}[test]' && pytest {directory}", err=True)
