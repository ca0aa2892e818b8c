"""``simpeval reproduce PAPER``: a paper's tables, simpeval's values beside the published ones."""

from __future__ import annotations

import click

from simpeval.datadir import DATA_DIR_HELP
from simpeval.reproduce import PAPERS

FORMATS = ("table", "markdown", "csv")


@click.command()
@click.argument("paper", type=click.Choice(sorted(PAPERS)))
@click.option("--table", "numbers", multiple=True, metavar="N",
              help="Only table N (repeatable; default: every table the paper has, e.g. 3, 7, 9, 10, 11).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Write here (atomically) instead of standard output.")
@click.option("--data-dir", default=None, help=DATA_DIR_HELP)
@click.option("--no-cache", is_flag=True, help="Neither read nor write the score cache.")
@click.option("--cache-dir", type=click.Path(file_okay=False), default=None, help="Score cache directory.")
def reproduce(paper, numbers, fmt, output, data_dir, no_cache, cache_dir) -> None:
    """Print PAPER's tables with simpeval's values, the differences and the meta-evaluate command behind each."""
    from simpeval.cache import ScoreCache
    from simpeval.fileio import write_output
    from simpeval.cli.state import registry
    from simpeval.datadir import resolve_data_dir
    from simpeval.errors import UsageError
    from simpeval.reproduce import paper_tables
    from simpeval.reproduce import reproduce as run_table
    from simpeval.reproduce.report import format_comparison

    tables = paper_tables(paper)
    known = list(dict.fromkeys(t.number for t in tables.values()))
    unknown = [n for n in numbers if n not in known]
    if unknown:
        raise UsageError(f"{paper} has no table {unknown[0]}: choose --table from {', '.join(known)}")
    chosen = [t for t in tables.values() if not numbers or t.number in numbers]
    data = resolve_data_dir(data_dir)
    cache = None if no_cache else ScoreCache(cache_dir)
    parts = [format_comparison(run_table(t, registry(), data, cache)[0], data, fmt) for t in chosen]
    write_output(("\n" if fmt != "csv" else "").join(parts), output)
