"""``simpeval evaluate --sys A --sys B ... --all-pairs``: every pair of systems, and a ranking per sub-score.

The engine scores the systems and compares every pair on the statistics it collected
(:func:`simpeval.runner.compare_systems` with ``all_pairs``: cached, ``--jobs``/``--dask`` like any
scoring); this module only parses and formats.

Formats: ``table``/``markdown``/``latex`` print one ranking table (a row per system, best first by
the first sub-score; per sub-score its score, 95% bootstrap interval and significance cluster),
then one table of pairs per sub-score. ``json`` holds everything; ``csv`` holds the rankings
(one row per sub-score and system).
"""

from __future__ import annotations

import sys

import click

from simpeval.errors import UsageError

def run_all_pairs(given) -> None:
    """Score the systems ``given`` (the parsed ``evaluate`` options) and compare every pair in the engine
    (:func:`simpeval.runner.compare_systems` with ``all_pairs``), then print the ranking (see the module
    docstring)."""
    from simpeval.allpairs import Settings
    from simpeval.cache import ScoreCache
    from simpeval.cli.easse_notes import easse_warnings
    from simpeval.fileio import write_output
    from simpeval.cli.state import registry
    from simpeval.cli.systems import echo_few_items_note, read_systems, resolve_inputs, with_analysis
    from simpeval.engine.metrics import DEFAULT_METRICS_WITH_REFS, DEFAULT_METRICS_WITHOUT_REFS
    from simpeval.engine.parallel import open_executor
    from simpeval.runner import compare_systems, resolve_metrics

    orig, refs, sys_paths, test = resolve_inputs(given.orig_path, given.refs_paths, given.test_set, given.data_dir,
                                                 given.sys_paths, given.sys_dir, given.paired_bs, given.paired_ar)
    if len(sys_paths) < 2:
        raise UsageError("--all-pairs compares systems: give two or more (--sys A --sys B, or --sys-dir DIR)")
    if given.sentence_level:
        raise UsageError("--sentence-level scores one system: drop it, or drop --all-pairs")
    sources, systems, references = read_systems(orig, sys_paths, refs)
    specs = with_analysis(given.metric_specs, bool(refs)) if given.analysis else given.metric_specs
    specs = specs or ((DEFAULT_METRICS_WITH_REFS if references else DEFAULT_METRICS_WITHOUT_REFS),)
    from simpeval.cli.language import test_set_language

    requests = resolve_metrics(registry(), specs, given.resolved_preset(), test_set_language(given.lang, given.test_set))
    settings = Settings.from_options(given.paired_n, test, given.seed, given.holm)
    with open_executor(given.jobs, given.dask) as executor:
        comparison = compare_systems(
            requests, sources, systems, references, all_pairs=settings,
            cache=None if given.no_cache else ScoreCache(given.cache_dir), batch_size=given.batch_size,
            progress=sys.stderr.isatty() if given.progress is None else given.progress, executor=executor,
        )
    if given.easse_defaults:
        for line in easse_warnings(requests):
            click.echo(line, err=True)
    warning = settings.holm_warning(len(systems))
    if warning:
        click.echo(f"warning: {warning}", err=True)
    write_output(format_all_pairs(comparison.all_pairs, comparison.signatures, given.fmt), given.output)
    echo_few_items_note(len(sources), "; every system shares rank 1")
    if given.fmt not in ("json", "csv"):
        for name in comparison.score_names:
            click.echo(f"# {name}: {comparison.signatures[name]}", err=True)


def records(result) -> dict:
    """The JSON payload: settings, rankings and pairs per sub-score."""
    return {
        "systems": result.systems,
        "bootstrap_resamples": result.n_bootstrap, "ar_trials": result.n_ar, "seed": result.seed,
        "alpha": result.alpha, "holm": result.holm,
        "rankings": {sub: [vars(row) for row in rows] for sub, rows in result.rankings.items()},
        "pairs": {sub: [vars(pair) for pair in pairs] for sub, pairs in result.pairs.items()},
    }


def format_all_pairs(result, signatures: dict[str, str], fmt: str) -> str:
    """``result`` in ``fmt`` (see the module docstring)."""
    from simpeval.jsontext import dumps
    from simpeval.tables import render

    if fmt == "json":
        return dumps({**records(result), "signatures": signatures}, indent=2) + "\n"
    subs = list(result.rankings)
    if fmt == "csv":
        columns = ["metric", "rank", "system", "score", "mean", "low", "high"]
        rows = [[getattr(row, c) for c in columns] for sub in subs for row in result.rankings[sub]]
        return render(columns, rows, "csv")
    from simpeval.allpairs import pair_rows, ranking_rows

    columns, rows = ranking_rows(result)
    lines = [render(columns, rows, fmt), result.note(), ""]
    for sub in subs:
        columns, rows = pair_rows(result, sub)
        lines += [f"pairs on {sub} (t-test and win/tie/loss on sentence scores, per item):",
                  render(columns, rows, fmt, digits=4), ""]
    return "\n".join(lines)
