"""``simpeval test-sets``: the named test sets ``evaluate --test-set`` accepts, and whether their
files are in the data directory."""

from __future__ import annotations

import click

from simpeval.datadir import DATA_DIR_HELP


@click.command("test-sets")
@click.option("--data-dir", default=None, help=DATA_DIR_HELP)
def test_sets(data_dir) -> None:
    """Name, references, files present, language, published outputs (for --sys-dir, under the data
    directory), description and public source of every named test set."""
    from simpeval.datadir import find_data_dir
    from simpeval.datasets.testsets import TEST_SETS, availability
    from simpeval.tables import render

    root = find_data_dir(data_dir)
    rows = [[spec.name, len(spec.refs), availability(root, spec.name), spec.lang, spec.systems or "-",
             spec.description, spec.source] for spec in TEST_SETS.values()]
    click.echo(render(["name", "refs", "files", "lang", "published outputs", "description", "source"], rows), nl=False)
