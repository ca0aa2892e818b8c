"""``simpeval leaderboard``: every metric on every human-rated dataset and aspect, side by side."""

from __future__ import annotations

import sys
import time

import click

from simpeval.cli.meta_evaluate import interval_resamples
from simpeval.cli.parallel import parallel_options
from simpeval.datadir import DATA_DIR_HELP

FORMATS = ("markdown", "html", "json")


@click.command("leaderboard")
@click.option("-m", "--metrics", "metric_specs", multiple=True, metavar="NAME[,NAME...]",
              help="Metrics (default: every installed metric whose plugin loaded and whose weights are present).")
@click.option("--no-neural", is_flag=True,
              help="Leave neural metrics out of the default list (CPU time); the page names them.")
@click.option("--dataset", "datasets", multiple=True, metavar="NAME",
              help="Only these datasets (repeatable; default: every registered one, missing ones listed).")
@click.option("--correlation", type=click.Choice(("pearson", "spearman", "kendall", "kendall-23", "acc23")),
              default="pearson", show_default=True)
@click.option("--significance", type=click.Choice(("williams", "permutation")), default=None,
              help="Test behind the clusters (default: williams for Pearson, permutation otherwise).")
@click.option("--bootstrap", type=click.IntRange(min=0), default=1000, show_default=True, callback=interval_resamples,
              help="Bootstrap resamples of each 95% interval (0: none; else at least 40).")
@click.option("--alpha", type=click.FloatRange(0, 1), default=0.05, show_default=True)
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Seed of the resampling.")
@click.option("--split", type=click.Choice(("test",)), default=None,
              help="Only the items of the test split, on datasets that declare splits (others: all items).")
@click.option("--level", type=click.Choice(("sentence", "document", "languages")), default="sentence",
              show_default=True,
              help="document: the rated document datasets (dwiki-2025), the pairwise ones (cochrane-pairs) and the "
                   "perturbation checks, with every metric that scores documents. languages: the rated datasets in "
                   "other languages and the rated single texts (readability: textcomplexityde, readmepp-*), with "
                   "every metric that has rules for another language than English or reads a text alone.")
@click.option("--lang", "lang", default=None, metavar="CODE",
              help="Only the datasets in this language (ISO 639-1); default: every dataset, each scored in the "
                   "language it declares.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="markdown", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Write here (atomically) instead of standard output.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False), default=None,
              help="Also write the HTML page here (one run, two pages).")
@click.option("--record-run", is_flag=True, help="End the page with the run's time and machine.")
@click.option("--data-dir", default=None, help=DATA_DIR_HELP)
@click.option("--no-cache", is_flag=True, help="Neither read nor write the score cache (no resuming).")
@click.option("--cache-dir", type=click.Path(file_okay=False), default=None, help="Score cache directory.")
@click.option("--progress/--no-progress", default=None, help="Name each cell as it starts (default: on a terminal).")
@parallel_options
def leaderboard(metric_specs, no_neural, datasets, correlation, significance, bootstrap, alpha, seed, split, level,
                lang, fmt, output, html_path, record_run, data_dir, no_cache, cache_dir, progress, jobs, dask) -> None:
    """Correlate every metric with every dataset's human judgements: one table per aspect, ranked."""
    from simpeval.cache import ScoreCache
    from simpeval.cli.state import registry
    from simpeval.fileio import check_writable, write_output
    from simpeval.cli.language import given_language
    from simpeval.datadir import resolve_data_dir
    from simpeval.leaderboard import render
    from simpeval.leaderboard.run import Plan, run_leaderboard
    from simpeval.engine.parallel import open_executor

    check_writable(output)
    check_writable(html_path, "--html")
    started = time.perf_counter()
    reg = registry()
    for name in datasets:
        reg.dataset_class(name)  # an unknown name fails before any work
    specs = [s.strip() for spec in metric_specs for s in spec.split(",") if s.strip()]
    left_out = []
    if not specs:
        specs, left_out = default_metrics(reg, neural=not no_neural, level=level)
    for spec in specs:
        reg.metric_class(spec.split(":", 1)[0])
    plan = Plan(resolve_data_dir(data_dir), specs, list(datasets) or None, correlation,
                significance or ("williams" if correlation == "pearson" else "permutation"), bootstrap, alpha, seed,
                split, left_out, level, lang=given_language(lang))
    show = sys.stderr.isatty() if progress is None else progress
    with open_executor(jobs, dask) as executor:
        board = run_leaderboard(reg, plan, None if no_cache else ScoreCache(cache_dir), executor,
                                (lambda text: click.echo(f"leaderboard: {text}", err=True)) if show else None)
    footer = run_record(time.perf_counter() - started, jobs, dask, board.work) if record_run else []
    if fmt == "json":
        text = render.render_json(board, plan)
    elif fmt == "html":
        text = render.render_html(board, plan, footer)
    else:
        text = render.render_markdown(board, plan, footer)
    write_output(text, output)
    if html_path is not None:
        write_output(render.render_html(board, plan, footer), html_path, "--html")


def default_metrics(registry, neural: bool = True, level: str = "sentence") -> tuple[list[str], list[str]]:
    """Every metric whose plugin loaded and whose default weights are installed (neural ones only with
    ``neural``), each with all its sub-scores, and the others with why they are left out (one line each).

    Left out besides: a deprecated name (its row is under the new name), a metric that runs only when
    named (``opt_in``: an LLM judge, whose CPU time on every rated item would dwarf the rest), and a metric that needs
    per-item values beyond the texts (``item_fields``, such as SLEdoc's target level), which no
    rated dataset has. Below the document level, a metric made for documents only (``Metric.documents_only``:
    the aggregates, D-SARI), which the document board scores. At ``level="document"``, a neural sentence metric too: it would read a whole
    document as one sentence, truncated to its encoder's length (non-neural sentence metrics score a
    document as one text, as the document papers do for their SARI and BLEU baselines).
    """
    from simpeval.languages import ENGLISH

    names, left_out = [], []
    for name, cls in sorted(registry.metrics.items()):
        missing = cls.missing_weights()
        renamed = None if missing else deprecation(registry, name)
        if missing:
            left_out.append(f"{name}: weights not installed ({', '.join(missing)}); "
                            f"`simpeval metrics show {name}` says where to put them")
        elif renamed:
            left_out.append(f"{name}: {renamed}")
        elif cls.opt_in:
            left_out.append(f"{name}: runs only when named ({cls.opt_in})")
        elif cls.item_fields:
            left_out.append(f"{name}: needs per-item {', '.join(cls.item_fields)} beside the texts, which no rated "
                            "dataset has")
        elif level == "languages" and cls.languages == (ENGLISH,) and not cls.output_only:
            left_out.append(f"{name}: English only, and it compares an output with its source or references")
        elif level != "document" and cls.documents_only:
            left_out.append(f"{name}: {cls.documents_only}; on the document board")
        elif level == "document" and cls.neural and cls.level != "document":
            left_out.append(f"{name}: a neural sentence metric (a document would be one truncated sentence)")
        elif cls.neural and not neural:
            left_out.append(f"{name}: neural, left out by --no-neural (CPU time)")
        else:
            names.extend(cls.score_names())  # every sub-score: meta-evaluate reports the score a spec names
    return names, left_out


def deprecation(registry, name: str) -> str | None:
    """The deprecation warning building metric ``name`` gives (a deprecated name), or None."""
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            registry.create_metric(name)
        except Exception:  # noqa: BLE001 - a metric that cannot be built is reported when it scores
            return None
    found = [w for w in caught if issubclass(w.category, (DeprecationWarning, FutureWarning))]
    return f"deprecated name ({str(found[0].message).split(';')[0]})" if found else None


def run_record(seconds: float, jobs: int, dask: str | None, work=None) -> list[str]:
    """How long the run took, where, with what, and what it computed versus read from the cache
    (for pages written by a benchmark script)."""
    import os
    import platform

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            cpu = next((line.split(":", 1)[1].strip() for line in handle if line.startswith("model name")), cpu)
    except OSError:
        pass
    where = f"dask {dask}" if dask else f"{jobs} job(s)"
    lines = ["", f"Computed by `simpeval leaderboard` in {seconds:.0f} s ({where}) on {cpu}, {os.cpu_count()} CPUs, "
                 f"Python {platform.python_version()}, {time.strftime('%Y-%m-%d', time.gmtime())}, "
                 f"load average {os.getloadavg()[0]:.1f} at the end."]
    if work is not None:
        from simpeval.leaderboard.render import work_lines

        lines += ["", *work_lines(work)]
    return lines
