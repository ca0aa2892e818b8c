"""``simpeval test-sets``: the named test sets ``evaluate --test-set`` accepts, and whether their
files are in the data directory."""

from __future__ import annotations

import click


@click.command("test-sets")
@click.option("--data-dir", default=None, help="Data directory to check (default: $SIMPEVAL_DATA_DIR).")
def test_sets(data_dir) -> None:
    """Name, references, files present, description and public source of every named test set."""
    import os
    from pathlib import Path

    from simpeval.datadir import DATA_DIR_ENV
    from simpeval.datasets.testsets import TEST_SETS, availability
    from simpeval.tables import render

    chosen = data_dir or os.environ.get(DATA_DIR_ENV)
    root = Path(chosen).expanduser() if chosen else None
    rows = [[spec.name, len(spec.refs), availability(root, spec.name), spec.description, spec.source]
            for spec in TEST_SETS.values()]
    click.echo(render(["name", "refs", "files", "description", "source"], rows), nl=False)
