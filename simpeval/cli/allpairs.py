"""``simpeval evaluate --sys A --sys B ... --all-pairs``: every pair of systems, and a ranking per sub-score.

The command scores the systems as ``--paired-bs`` does (:func:`simpeval.compare.compare_systems`),
takes each metric's per-item statistics and sentence scores, and hands them to
:func:`simpeval.allpairs.compare_all_pairs`; this module only gathers and formats.

Formats: ``table``/``markdown``/``latex`` print one ranking table (a row per system, best first by
the first sub-score; per sub-score its score, 95% bootstrap interval and significance cluster),
then one table of pairs per sub-score. ``json`` holds everything; ``csv`` holds the rankings
(one row per sub-score and system).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from simpeval.errors import UsageError

# Holm over P pairs can only reject when the smallest p-value, 1 / (N + 1) for N resamples, is below
# alpha / P: 1,000 resamples (sacrebleu's default) cannot separate more than 7 systems at 0.05
HOLM_BOOTSTRAP = 10000
PLAIN_BOOTSTRAP = 1000
ALL_PAIRS_AR = 1000


def run_all_pairs(orig_path, sys_paths, refs_paths, metric_specs, preset, test, paired_n, seed, holm, fmt, output,
                  no_cache, cache_dir, batch_size, progress, executor=None) -> None:
    """Score the systems, compare every pair and print the ranking (see the module docstring)."""
    from simpeval.allpairs import compare_all_pairs
    from simpeval.cache import ScoreCache
    from simpeval.cli import registry
    from simpeval.cli.evaluate import DEFAULT_METRICS_WITH_REFS, DEFAULT_METRICS_WITHOUT_REFS
    from simpeval.cli.files import write_output
    from simpeval.cli.systems import read_systems
    from simpeval.compare import compare_systems
    from simpeval.runner import resolve_metrics

    if len(sys_paths) < 2:
        raise UsageError("--all-pairs compares systems: give two or more (--sys A --sys B, or --sys-dir DIR)")
    sources, systems, references = read_systems(orig_path, sys_paths, refs_paths)
    specs = metric_specs or ((DEFAULT_METRICS_WITH_REFS if references else DEFAULT_METRICS_WITHOUT_REFS),)
    requests = resolve_metrics(registry(), specs, preset)
    comparison = compare_systems(
        requests, sources, systems, references, sentence_level=True,
        cache=None if no_cache else ScoreCache(cache_dir), batch_size=batch_size,
        progress=sys.stderr.isatty() if progress is None else progress, executor=executor,
    )
    metrics = gather_statistics(requests, sources, systems, references, comparison)
    n_bootstrap = paired_n or (HOLM_BOOTSTRAP if holm else PLAIN_BOOTSTRAP)
    n_pairs = len(systems) * (len(systems) - 1) // 2
    if holm and n_pairs / (n_bootstrap + 1) >= 0.05:
        click.echo(f"warning: with {n_bootstrap} resamples, Holm's correction over {n_pairs} pairs cannot reach "
                   "p < 0.05: every system shares rank 1; raise --paired-n or pass --no-holm", err=True)
    result = compare_all_pairs([name for name, _ in systems], metrics, n_bootstrap=n_bootstrap,
                               n_ar=(paired_n or ALL_PAIRS_AR) if test == "ar" else None, seed=seed, use_holm=holm)
    write_output(format_all_pairs(result, comparison.signatures, fmt), output)
    if fmt not in ("json", "csv"):
        for name in comparison.score_names:
            click.echo(f"# {name}: {comparison.signatures[name]}", err=True)


def gather_statistics(requests, sources: Sequence[str], systems, references, comparison) -> list:
    """Each metric's per-system statistics and sentence scores (what ``--paired-bs`` resamples)."""
    import numpy as np

    from simpeval.allpairs import MetricStatistics
    from simpeval.compare import _statistics

    out = []
    for request in requests:
        gathered = [_statistics(request, sources, outputs, references, system.result)
                    for (_, outputs), system in zip(systems, comparison.systems)]
        report = list(request.report)
        sentence = [np.array([system.result.sentence_scores.get(sub, [np.nan] * len(sources)) for sub in report],
                             dtype=float).T for system in comparison.systems]
        out.append(MetricStatistics(report, [comparison.higher_is_better[sub] for sub in report],
                                    [stats for stats, _ in gathered], gathered[0][1], sentence))
    return out


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
    from simpeval.tables import format_cell, render

    if fmt == "json":
        return dumps({**records(result), "signatures": signatures}, indent=2) + "\n"
    subs = list(result.rankings)
    if fmt == "csv":
        columns = ["metric", "rank", "system", "score", "mean", "low", "high"]
        rows = [[getattr(row, c) for c in columns] for sub in subs for row in result.rankings[sub]]
        return render(columns, rows, "csv")
    by_system = {sub: {row.system: row for row in result.rankings[sub]} for sub in subs}
    order = [row.system for row in result.rankings[subs[0]]]
    rows = []
    for system in order:
        row = [system]
        for sub in subs:
            r = by_system[sub][system]
            row += [r.rank, f"{format_cell(r.score, 2)} ({r.low:.2f}-{r.high:.2f})"]
        rows.append(row)
    columns = ["system", *(c for sub in subs for c in (f"rank ({sub})", f"{sub} (95% CI)"))]
    correction = "Holm-corrected over all pairs" if result.holm else "uncorrected"
    lines = [render(columns, rows, fmt),
             f"rank: significance cluster by paired bootstrap ({result.n_bootstrap} resamples, seed {result.seed}, "
             f"p < {result.alpha} {correction}; a system starts a new cluster when significantly worse than one in "
             "the current cluster, as WMT ranks)", ""]
    for sub in subs:
        columns = ["A", "B", "A - B", "p bootstrap", *(["p Holm"] if result.holm else []),
                   *(["p AR"] if result.n_ar else []), "p t-test", "A wins", "ties", "B wins"]
        rows = [[p.first, p.second, p.delta, p.p_bootstrap, *([p.p_holm] if result.holm else []),
                 *([p.p_ar] if result.n_ar else []), p.p_ttest, p.wins, p.ties, p.losses]
                for p in result.pairs[sub]]
        lines += [f"pairs on {sub} (t-test and win/tie/loss on sentence scores, per item):",
                  render(columns, rows, fmt, digits=4), ""]
    return "\n".join(lines)
