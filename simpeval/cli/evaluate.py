"""``simpeval evaluate``: score system outputs with any installed metrics."""

from __future__ import annotations

import sys

import click

from simpeval.api import DEFAULT_METRICS_WITH_REFS, DEFAULT_METRICS_WITHOUT_REFS
from simpeval.cli.files import check_writable, write_output
from simpeval.cli.inputs import read_inputs
from simpeval.cli.parallel import parallel_options
from simpeval.documents import is_document_input
from simpeval.errors import UsageError


@click.command()
@click.option("--orig", "orig_path", default=None, metavar="FILE", help="Original (complex) sentences, one per line (or give --test-set); or documents: a directory of .txt files or a .jsonl file.")
@click.option("--sys", "sys_paths", multiple=True, metavar="FILE",
              help="System outputs, one per line ('-', the default, reads standard input), or documents like --orig; repeat to compare systems, the first as baseline.")
@click.option("--refs", "refs_paths", multiple=True, metavar="FILE", help="A reference file, one per line (or documents); repeat for several references.")
@click.option("-t", "--test-set", default=None, metavar="NAME", help="Take --orig and --refs from a named test set (see `simpeval test-sets`).")
@click.option("--sys-dir", default=None, type=click.Path(file_okay=False), help="Compare every file in this directory (sorted by name) as a system.")
@click.option("--paired-bs", is_flag=True, help="Paired bootstrap resampling of each system against the first (1,000 resamples).")
@click.option("--paired-ar", is_flag=True, help="Paired approximate randomization of each system against the first (10,000 trials).")
@click.option("--paired-n", type=click.IntRange(min=1), default=None, help="Resamples or trials of the paired test instead of its default.")
@click.option("--seed", type=int, default=12345, show_default=True, help="Seed of the paired test's resampling.")
@click.option("--data-dir", default=None, help="Data directory of --test-set (default: $SIMPEVAL_DATA_DIR, else the user data directory; see `simpeval data`).")
@click.option("-a", "--analysis", is_flag=True, help="Add the word-level operations: metrics ops and, with references, ops-f1.")
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
             analysis, metric_specs, sentence_level, preset, fmt, output, no_cache, cache_dir, batch_size, progress,
             jobs, dask) -> None:
    """Score system outputs against their originals (and references)."""
    from simpeval.cli.systems import evaluate_systems, resolve_inputs, with_analysis

    check_writable(output)

    orig_path, refs_paths, sys_paths, test = resolve_inputs(orig_path, refs_paths, test_set, data_dir, sys_paths, sys_dir,
                                                            paired_bs, paired_ar)
    if analysis:
        metric_specs = with_analysis(metric_specs, bool(refs_paths))
    if len(sys_paths) > 1 and any(is_document_input(p) for p in (orig_path, *sys_paths, *refs_paths)):
        raise UsageError("documents are scored one system at a time: give one --sys per run")
    from simpeval.parallel import open_executor

    if len(sys_paths) > 1 or test is not None:
        with open_executor(jobs, dask) as executor:
            evaluate_systems(orig_path, sys_paths, refs_paths, metric_specs, preset, test, paired_n, seed,
                             sentence_level, fmt, output, no_cache, cache_dir, batch_size, progress, executor)
        return
    sys_path = sys_paths[0]
    from simpeval.cache import ScoreCache
    from simpeval.cli import registry
    from simpeval.runner import evaluate as run_evaluation
    from simpeval.runner import resolve_metrics

    specs = metric_specs or ((DEFAULT_METRICS_WITH_REFS if refs_paths else DEFAULT_METRICS_WITHOUT_REFS),)
    if progress is None:
        progress = sys.stderr.isatty()
    cache = None if no_cache else ScoreCache(cache_dir)
    result = None
    if not any(is_document_input(p) for p in (orig_path, sys_path, *refs_paths)):
        from simpeval.cli.stream import stream_line_files

        result = stream_line_files(orig_path, sys_path, refs_paths, lambda: resolve_metrics(registry(), specs, preset),
                                   sentence_level=sentence_level, fmt=fmt, output=output, cache=cache,
                                   batch_size=batch_size, progress=progress,
                                   open_executor=lambda: open_executor(jobs, dask))
    if result is None:  # documents, or a metric whose corpus score needs every text at once
        inputs = read_inputs(orig_path, sys_path, refs_paths)
        requests = resolve_metrics(registry(), specs, preset)
        with open_executor(jobs, dask) as executor:
            result = run_evaluation(
                requests, inputs.sources, inputs.outputs, inputs.references,
                sentence_level=sentence_level, corpus_level=True, cache=cache,
                batch_size=batch_size, progress=progress, fields=inputs.fields, executor=executor,
            )
        write_output(format_result(result, sentence_level, fmt, inputs.ids), output)
        if inputs.ids is not None:
            for request in requests:
                if request.metric.level == "sentence":
                    click.echo(f"# note: {request.metric.name} is a sentence-level metric: each document is scored "
                               "as one text", err=True)
    if sentence_level and fmt != "json":
        for signature in dict.fromkeys(result.signatures.values()):
            click.echo(f"# {signature}", err=True)


def format_result(result, sentence_level: bool, fmt: str, ids=None) -> str:
    """The result as text: per-item rows with ``--sentence-level`` (signatures go to standard
    error), else one row per sub-score with its signature. Rows of documents are keyed by
    their ``ids``, rows of lines by their index."""
    from simpeval.jsontext import dumps
    from simpeval.tables import render

    names = result.score_names
    if fmt == "json":
        payload = {"n": result.n_items, "signatures": result.signatures, "corpus": result.corpus_scores}
        if sentence_level:
            payload["sentences"] = result.sentence_scores
            if ids is not None:
                payload["ids"] = ids
        return dumps(payload, indent=2) + "\n"
    if sentence_level:
        keys = ids if ids is not None else range(result.n_items)
        rows = [[key, *(result.sentence_scores[n][i] for n in names)] for i, key in enumerate(keys)]
        return render(["id" if ids is not None else "index", *names], rows, fmt)
    rows = [[n, result.corpus_scores[n], result.signatures[n]] for n in names]
    return render(["metric", "score", "signature"], rows, fmt)
