"""``simpeval data``: where simpeval looks for its data, what it found there, and how to add what is missing."""

from __future__ import annotations

import click

from simpeval.datadir import DATA_DIR_HELP

SHOWN_PATHS = 3
"""Missing paths listed per data set before "and N more"."""


@click.command("data")
@click.option("--data-dir", default=None, help=DATA_DIR_HELP)
def data(data_dir) -> None:
    """The data directory search order, every data set found or missing, and for each missing one its
    source, licence and where to put it (simpeval never downloads data itself)."""
    from simpeval.cli.state import current_state, echo_plugin_faults
    from simpeval.datacatalogue import catalogue
    from simpeval.datadir import find_data_dir, search_path
    from simpeval.tables import render

    places = search_path(data_dir)
    used = find_data_dir(data_dir)
    click.echo("simpeval looks for data in (the first one given is used):")
    for label, path in places:
        state = "not given" if path is None else ("used" if path == used else
                                                  ("exists" if path.is_dir() else "does not exist"))
        click.echo(f"  {label:<22} {path or '-'}  ({state})")
    given = next((path for _, path in places if path is not None), None)
    target = used or given
    if used is None:
        click.echo(f"No data directory: create {target} and put the data sets below in it.")
    reg = current_state().listing()
    entries = catalogue(reg)
    rows = []
    for entry in entries:
        missing = entry.missing(used)
        status = "found" if not missing else f"missing {len(missing)} of {len(entry.paths)}"
        rows.append([entry.name, entry.kind, status, entry.lang or "-", entry.licence or "see its source",
                     entry.source or "-"])
    click.echo()
    click.echo(render(["name", "kind", "files", "language", "licence", "source"], rows), nl=False)
    absent = [(entry, entry.missing(used)) for entry in entries if entry.missing(used)]
    if absent:
        click.echo()
        click.echo(f"To add a data set, fetch it from its source (check its licence) and put its files under "
                   f"{target}, at these paths:")
        for entry, missing in absent:
            more = f" and {len(missing) - SHOWN_PATHS} more" if len(missing) > SHOWN_PATHS else ""
            click.echo(f"  {entry.name}: {', '.join(missing[:SHOWN_PATHS])}{more}\n"
                       f"    from {entry.source} (licence: {entry.licence or 'as stated there'})")
    _echo_item_licences(used)
    echo_plugin_faults(reg)


def _echo_item_licences(data_dir) -> None:
    """For each test set found whose items carry licences of their own: how many items per licence."""
    from simpeval.datasets.testsets import TEST_SETS, availability, licence_counts

    if data_dir is None:
        return
    found = [spec.name for spec in TEST_SETS.values()
             if spec.licence_column and availability(data_dir, spec.name) == "ok"]
    if found:
        click.echo("\nItems per licence (each item's licence is in its test set's metadata; check it before use):")
    for name in found:
        counts = licence_counts(data_dir, name)
        click.echo(f"  {name}: " + ", ".join(f"{licence} {n:,}" for licence, n in counts.most_common()))
