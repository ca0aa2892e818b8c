"""``simpeval reproduce PAPER``: a paper's tables, simpeval's values beside the published ones.

The papers are whatever the plugins register (:func:`~simpeval.hookspecs.simpeval_register_papers`):
``--list`` shows them.
"""

from __future__ import annotations

import click

from simpeval.datadir import DATA_DIR_HELP

FORMATS = ("table", "markdown", "csv", "json")


@click.command()
@click.argument("paper", required=False)
@click.option("--list", "listing", is_flag=True, help="List the papers the installed plugins reproduce, and exit.")
@click.option("--table", "numbers", multiple=True, metavar="N",
              help="Only table N (repeatable; default: every table of the paper; --list shows them).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
              help="json: one record per published number, simpeval's beside it.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Write here (atomically) instead of standard output.")
@click.option("--data-dir", default=None, help=DATA_DIR_HELP)
@click.option("--no-cache", is_flag=True, help="Neither read nor write the score cache.")
@click.option("--cache-dir", type=click.Path(file_okay=False), default=None, help="Score cache directory.")
def reproduce(paper, listing, numbers, fmt, output, data_dir, no_cache, cache_dir) -> None:
    """Print PAPER's tables with simpeval's values, the differences and the command behind each."""
    from simpeval.fileio import write_output
    from simpeval.cli.state import registry
    from simpeval.errors import UsageError

    papers = registry().papers
    if listing:
        from simpeval.jsontext import dumps
        from simpeval.tables import render

        rows = [[name, ", ".join(p.table_numbers()), p.title] for name, p in sorted(papers.items())]
        text = dumps([{"paper": name, "tables": p.table_numbers(), "title": p.title} for name, p in
                      sorted(papers.items())], indent=2) + "\n" if fmt == "json" else \
            render(["paper", "tables", "title"], rows, fmt)
        write_output(text, output)
        return
    if paper is None:
        raise UsageError("no paper: give its name, e.g. `simpeval reproduce alva-manchego-2021` "
                         "(`simpeval reproduce --list` shows them)")
    if paper not in papers:
        raise UsageError(f'unknown paper "{paper}": choose one of {", ".join(sorted(papers))} '
                         "(`simpeval reproduce --list`)")
    chosen = papers[paper]
    known = chosen.table_numbers()
    unknown = [n for n in numbers if n not in known]
    if unknown:
        raise UsageError(f"{paper} has no table {unknown[0]}: choose --table from {', '.join(known)}")
    from simpeval.cache import ScoreCache
    from simpeval.datadir import resolve_data_dir

    data = resolve_data_dir(data_dir)
    cache = None if no_cache else ScoreCache(cache_dir)
    parts = chosen.reproduce(registry(), data, cache, tuple(numbers))
    if fmt == "json":
        from simpeval.jsontext import dumps

        write_output(dumps([cell for part in parts for cell in part.cells()]) + "\n", output)
        return
    write_output(("\n" if fmt != "csv" else "").join(part.render(fmt, data) for part in parts), output)
