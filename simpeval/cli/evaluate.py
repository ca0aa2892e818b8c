"""``simpeval evaluate``: score system outputs with any installed metrics."""

from __future__ import annotations

import json
import math
import sys

import click

from simpeval.cli.files import check_same_length, read_lines, write_output
from simpeval.cli.parallel import parallel_options

DEFAULT_METRICS_WITH_REFS = "bleu,sari,fkgl"
DEFAULT_METRICS_WITHOUT_REFS = "fkgl"


@click.command()
@click.option("--orig", "orig_path", default=None, metavar="FILE", help="Original (complex) sentences, one per line (or give --test-set).")
@click.option("--sys", "sys_paths", multiple=True, metavar="FILE",
              help="System outputs, one per line ('-', the default, reads standard input); repeat to compare systems, the first as baseline.")
@click.option("--refs", "refs_paths", multiple=True, metavar="FILE", help="A reference file, one per line; repeat for several references.")
@click.option("-t", "--test-set", default=None, metavar="NAME", help="Take --orig and --refs from a named test set (see `simpeval test-sets`).")
@click.option("--sys-dir", default=None, type=click.Path(file_okay=False), help="Compare every file in this directory (sorted by name) as a system.")
@click.option("--paired-bs", is_flag=True, help="Paired bootstrap resampling of each system against the first (1,000 resamples).")
@click.option("--paired-ar", is_flag=True, help="Paired approximate randomization of each system against the first (10,000 trials).")
@click.option("--paired-n", type=click.IntRange(min=1), default=None, help="Resamples or trials of the paired test instead of its default.")
@click.option("--seed", type=int, default=12345, show_default=True, help="Seed of the paired test's resampling.")
@click.option("--data-dir", default=None, help="Data directory of --test-set (default: $SIMPEVAL_DATA_DIR).")
@click.option("-m", "--metrics", "metric_specs", multiple=True, metavar="NAME[:OPT=V,...]",
              help=f"Metrics or sub-scores, comma-separated (default: {DEFAULT_METRICS_WITH_REFS} with references, "
                   f"{DEFAULT_METRICS_WITHOUT_REFS} without).")
@click.option("--sentence-level", is_flag=True, help="Report one score per line instead of corpus scores.")
@click.option("--preset", default=None, help="Settings of a published setup, e.g. metaeval-2021.")
@click.option("--format", "fmt", type=click.Choice(["table", "markdown", "latex", "csv", "json"]), default="table", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None, help="Write here (atomically) instead of standard output.")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the score cache.")
@click.option("--cache-dir", type=click.Path(file_okay=False), default=None, help="Score cache directory (default: $SIMPEVAL_CACHE_DIR or ~/.cache/simpeval).")
@click.option("--batch-size", type=click.IntRange(min=1), default=512, show_default=True, help="Items per cached batch.")
@click.option("--progress/--no-progress", default=None, help="Progress bar (default: when standard error is a terminal).")
@parallel_options
def evaluate(orig_path, sys_paths, refs_paths, test_set, sys_dir, paired_bs, paired_ar, paired_n, seed, data_dir,
             metric_specs, sentence_level, preset, fmt, output, no_cache, cache_dir, batch_size, progress,
             jobs, dask) -> None:
    """Score system outputs against their originals (and references)."""
    from simpeval.cli.systems import evaluate_systems, resolve_inputs

    orig_path, refs_paths, sys_paths, test = resolve_inputs(orig_path, refs_paths, test_set, data_dir, sys_paths, sys_dir,
                                                            paired_bs, paired_ar)
    if len(sys_paths) > 1 or test is not None:
        evaluate_systems(orig_path, sys_paths, refs_paths, metric_specs, preset, test, paired_n, seed, sentence_level,
                         fmt, output, no_cache, cache_dir, batch_size, progress)
        return
    sys_path = sys_paths[0]
    from simpeval.cache import ScoreCache
    from simpeval.cli import registry
    from simpeval.parallel import open_executor
    from simpeval.runner import evaluate as run_evaluation
    from simpeval.runner import resolve_metrics

    sources = read_lines(orig_path, "--orig")
    outputs = read_lines(sys_path, "--sys")
    ref_columns = [read_lines(path, "--refs") for path in refs_paths]
    check_same_length([(f"--orig {orig_path}", sources), (f"--sys {sys_path}", outputs),
                       *((f"--refs {p}", lines) for p, lines in zip(refs_paths, ref_columns))])
    references = [list(refs) for refs in zip(*ref_columns)] if ref_columns else None
    specs = metric_specs or ((DEFAULT_METRICS_WITH_REFS if references else DEFAULT_METRICS_WITHOUT_REFS),)
    requests = resolve_metrics(registry(), specs, preset)
    if progress is None:
        progress = sys.stderr.isatty()
    with open_executor(jobs, dask) as executor:
        result = run_evaluation(
            requests, sources, outputs, references,
            sentence_level=sentence_level, corpus_level=True,
            cache=None if no_cache else ScoreCache(cache_dir),
            batch_size=batch_size, progress=progress, executor=executor,
        )
    write_output(format_result(result, sentence_level, fmt), output)
    if sentence_level and fmt != "json":
        for signature in dict.fromkeys(result.signatures.values()):
            click.echo(f"# {signature}", err=True)


def format_result(result, sentence_level: bool, fmt: str) -> str:
    """The result as text: per-item rows with ``--sentence-level`` (signatures go to standard
    error), else one row per sub-score with its signature."""
    from simpeval.tables import render

    names = result.score_names
    if fmt == "json":
        payload = {"n": result.n_items, "signatures": result.signatures, "corpus": result.corpus_scores}
        if sentence_level:
            payload["sentences"] = result.sentence_scores
        return json.dumps(_nan_to_none(payload), indent=2) + "\n"
    if sentence_level:
        rows = [[i, *(result.sentence_scores[n][i] for n in names)] for i in range(result.n_items)]
        return render(["index", *names], rows, fmt)
    rows = [[n, result.corpus_scores[n], result.signatures[n]] for n in names]
    return render(["metric", "score", "signature"], rows, fmt)


def _nan_to_none(value):
    """JSON has no NaN: undefined scores (e.g. a ratio over an empty line) are written as null."""
    if isinstance(value, dict):
        return {k: _nan_to_none(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_nan_to_none(v) for v in value]
    return None if isinstance(value, float) and math.isnan(value) else value
