"""``simpeval report``: one self-contained HTML page (or Markdown) about one or several systems."""

from __future__ import annotations

import os

import click

from simpeval.cli.language import lang_option

FORMATS = ("html", "markdown")
DEFAULT_HTML = "report.html"


@click.command()
@click.option("-t", "--test-set", default=None, metavar="NAME",
              help="Take --orig and --refs from a named test set (see `simpeval test-sets`).")
@click.option("--orig", "orig_path", default=None, metavar="FILE", help="Original (complex) sentences, one per line.")
@click.option("--refs", "refs_paths", multiple=True, metavar="FILE", help="A reference file; repeat for several.")
@click.option("--sys", "sys_paths", multiple=True, metavar="FILE",
              help="System outputs, one per line; repeat for several systems, the first as baseline.")
@click.option("--sys-dir", default=None, type=click.Path(file_okay=False),
              help="Every file in this directory (sorted by name) as a system, after the --sys files.")
@click.option("-m", "--metrics", "metric_specs", multiple=True, metavar="NAME[:OPT=V,...]",
              help="Metrics, comma-separated (default: bleu,sari,fkgl with references, fkgl without; fre for fkgl "
                   "outside English).")
@click.option("--preset", default=None, help="Metric settings of a published setup, e.g. metaeval-2021.")
@lang_option
@click.option("--paired-bs", is_flag=True,
              help="Mark systems that differ from the first by paired bootstrap (the default with several systems).")
@click.option("--paired-ar", is_flag=True, help="Mark systems that differ from the first by approximate randomization.")
@click.option("--no-paired", is_flag=True, help="No significance test, even with several systems.")
@click.option("--all-pairs", is_flag=True,
              help="Also compare every pair of systems and rank them into significance clusters per metric.")
@click.option("--paired-n", type=click.IntRange(min=1), default=None, help="Resamples or trials of the paired test.")
@click.option("--sample-metric", default=None, metavar="NAME",
              help="Sub-score that picks the best and worst samples (default: the first metric).")
@click.option("--samples", "n_samples", type=click.IntRange(min=0), default=5, show_default=True,
              help="Random, best and worst items shown, each.")
@click.option("--seed", type=click.IntRange(min=0), default=12345, show_default=True, help="Seed of the paired test and random samples.")
@click.option("--title", default="simpeval report", show_default=True)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="html", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Write here (atomically); default: report.html for HTML (never replaced unless named here), "
                   "standard output for Markdown.")
@click.option("--data-dir", default=None, help="Data directory of --test-set (default: $SIMPEVAL_DATA_DIR, else the user data directory; see `simpeval data`).")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the score cache.")
@click.option("--cache-dir", type=click.Path(file_okay=False), default=None, help="Score cache directory.")
def report(test_set, orig_path, refs_paths, sys_paths, sys_dir, metric_specs, preset, lang, paired_bs, paired_ar, no_paired,
           all_pairs, paired_n, sample_metric, n_samples, seed, title, fmt, output, data_dir, no_cache, cache_dir) -> None:
    """Write a report on one or several systems: metrics, features, plots and highlighted samples."""
    from simpeval.cache import ScoreCache
    from simpeval.fileio import check_not_an_input, check_writable, write_output
    from simpeval.cli.language import test_set_language
    from simpeval.engine.metrics import default_specs
    from simpeval.cli.state import registry
    from simpeval.cli.systems import resolve_inputs
    from simpeval.errors import UsageError
    from simpeval.report.model import build_report

    if not sys_paths and sys_dir is None:
        raise UsageError("no system outputs: pass --sys FILE (repeatable) or --sys-dir DIR")
    orig_path, refs_paths, sys_paths, test = resolve_inputs(orig_path, refs_paths, test_set, data_dir, sys_paths,
                                                            sys_dir, paired_bs, paired_ar)
    if output is None and fmt == "html":
        if os.path.lexists(DEFAULT_HTML):  # an earlier report, perhaps of other systems: the user decides
            raise UsageError(f"{DEFAULT_HTML} exists: replace it with -o {DEFAULT_HTML}, or pick another -o path")
        output = DEFAULT_HTML
    check_writable(output)
    check_not_an_input(output, (orig_path, *refs_paths, *sys_paths))
    if no_paired and test is not None:
        raise UsageError("--no-paired turns the paired test off: drop it or --paired-bs/--paired-ar")
    if test is None and len(sys_paths) > 1 and not no_paired:
        test = "bs"
    sources, systems, references = read_report_inputs(orig_path, sys_paths, refs_paths)
    if all_pairs and len(systems) < 2:
        raise UsageError("--all-pairs compares systems: give two or more (--sys A --sys B, or --sys-dir DIR)")
    lang = test_set_language(lang, test_set)
    specs = default_specs(metric_specs, bool(references), lang)
    built = build_report(registry(), sources, systems, references, specs, title=title, preset=preset,
                         lang=lang, test=test,
                         n_resamples=paired_n, sample_metric=sample_metric, n_samples=n_samples, seed=seed,
                         cache=None if no_cache else ScoreCache(cache_dir), all_pairs=all_pairs,
                         word_labels=fmt == "html")  # Markdown shows no colours
    if fmt == "html":
        from simpeval.report.html import render_html

        write_output(render_html(built), output)
        click.echo(f"wrote {output}", err=True)
    else:
        from simpeval.report.markdown import render_markdown

        write_output(render_markdown(built), output)


def read_report_inputs(orig_path, sys_paths, refs_paths):
    """What :func:`simpeval.cli.systems.read_systems` returns, from line files or from documents
    (``.jsonl`` files or directories of ``.txt`` files, paired by id in ``--orig``'s order)."""
    from simpeval.cli.systems import read_systems, system_names
    from simpeval.documents import is_document_input, pair_documents, read_documents
    from simpeval.errors import UsageError

    named = [("--orig", orig_path), *(("--sys", p) for p in sys_paths), *(("--refs", p) for p in refs_paths)]
    kinds = [is_document_input(path) for _, path in named]
    if not any(kinds):
        return read_systems(orig_path, sys_paths, refs_paths)
    if not all(kinds):
        option, path = named[kinds.index(False)]
        raise UsageError(f"{option} {path} is a line file but other inputs are documents: give every input as a "
                         "directory of .txt files or a .jsonl file")
    read = [(f"{option} {path}", read_documents(path, option)) for option, path in named]
    ids = pair_documents(read)
    texts = [documents.ordered(ids) for _, documents in read]
    systems = list(zip(system_names(sys_paths), texts[1:1 + len(sys_paths)]))
    ref_columns = texts[1 + len(sys_paths):]
    return texts[0], systems, [list(refs) for refs in zip(*ref_columns)] if ref_columns else None
