"""``simpeval meta-evaluate``: how well do metrics agree with human judgements?"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from simpeval.cli.language import lang_option
from simpeval.cli.parallel import parallel_options
from simpeval.datadir import DATA_DIR_HELP
from simpeval.errors import UsageError
from simpeval.metaeval import AVERAGING, CORRELATIONS, FORMATS, LEVELS, SIGNIFICANCE_TESTS, SPLITS, TIE_POLICIES

REFERENCE_CHOICES = ("asset", "turkcorpus", "hsplit", "all", "selected")


def interval_resamples(ctx: click.Context, param: click.Parameter, value: int) -> int:
    """``--bootstrap N``: 0 (no interval) or enough resamples for a 95% percentile interval; one resample
    gave an "interval" of one resampled r, which need not contain r."""
    from simpeval.significance import MIN_INTERVAL_RESAMPLES

    if 0 < value < MIN_INTERVAL_RESAMPLES:
        raise UsageError(f"--bootstrap {value} is too few resamples for a 95% interval (each 2.5% tail needs one): "
                         f"give --bootstrap {MIN_INTERVAL_RESAMPLES} or more, or 0 for no interval")
    return value


@click.command("meta-evaluate")
@click.option("--dataset", default=None, help="A dataset name (see `simpeval datasets list`); required unless "
              "--perturbations.")
@click.option("--perturbations", is_flag=True,
              help="Instead of a dataset: the nine perturbation sets of Maddela & Alva-Manchego (2025), the share of "
                   "pairs where each metric prefers the unperturbed document (ties apart), with a bootstrap interval.")
@click.option("-m", "--metrics", "metric_specs", multiple=True, metavar="NAME[:OPT=V,...]",
              help="Metrics to compute, comma-separated (default: bleu, ibleu, sari, bleu-sari-amean/gmean, "
                   "fkbleu, fkgl where installed; none when only --scores is given).")
@click.option("--aspect", default=None, help="Human score: simplicity (default), meaning, fluency, grammaticality, "
              "structural_simplicity, or average (mean of the dataset's aspects), as the dataset has them.")
@click.option("--raw", is_flag=True, help="Use mean raw ratings instead of per-rater z-scores (where both exist).")
@click.option("--references", type=click.Choice(REFERENCE_CHOICES), default=None,
              help="Reference set for reference-based metrics (default: the dataset's own).")
@click.option("--level", type=click.Choice(LEVELS), default="sentence", show_default=True,
              help="Correlate per item, or per system (system means of human scores vs corpus scores).")
@click.option("--split", type=click.Choice(SPLITS), default=None,
              help="Groups to correlate within (default: quality at sentence level, none at system level).")
@click.option("--ties", type=click.Choice(TIE_POLICIES), default="order", show_default=True,
              help="Quality split: cut tied scores by dataset order, or exclude items at the median.")
@click.option("--correlation", type=click.Choice(CORRELATIONS), default=None,
              help="Default: pearson, or the dataset's own (acc23-opt for wu-arase-2025, whose ratings are mostly "
                   "tied). kendall-23/acc23: Deutsch et al. (2023)'s tau with ties; acc23-opt: acc23 with the metric "
                   "tie threshold that maximises it (reported per metric); pairwise-accuracy: Kocmi et al. (2021), "
                   "--level system.")
@click.option("--average-by", type=click.Choice(AVERAGING), default="none", show_default=True,
              help="Sentence level: correlate within each source item (across systems) or each system (across "
                   "items) and average; groups with a constant vector are dropped and counted.")
@click.option("--tie-epsilon", type=click.FloatRange(min=0), default=0.0, show_default=True,
              help="kendall-23, acc23: metric scores this close count as tied.")
@click.option("--tie-sample", type=click.FloatRange(0, 1, min_open=True), default=1.0, show_default=True,
              help="acc23-opt: share of item pairs the threshold search considers, drawn with --seed (1: all).")
@click.option("--significance", type=click.Choice(SIGNIFICANCE_TESTS), default=None,
              help="Pairwise test (default: williams for Pearson, permutation otherwise).")
@click.option("--rank", is_flag=True,
              help="Rank metrics into significance clusters (WMT's rule: a metric starts a new cluster when it is "
                   "significantly worse than one in the current cluster); a rank column in every format.")
@click.option("--alpha", type=click.FloatRange(0, 1), default=0.05, show_default=True)
@click.option("--resamples", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Permutation-test resamples.")
@click.option("--bootstrap", type=click.IntRange(min=0), default=0, show_default=True, callback=interval_resamples,
              help="Bootstrap resamples for 95%% confidence intervals of r (0: none, else at least 40; pairwise datasets and "
                   "--perturbations: 1000).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Seed of the resampling tests.")
@click.option("--scores", "score_paths", multiple=True, type=click.Path(dir_okay=False, path_type=Path),
              help="CSV of per-item metric scores keyed by the dataset's item keys (repeatable).")
@click.option("--score-columns", default=None, help="Only these --scores columns (simpeval names, comma-separated).")
@click.option("--preset", default=None, help="Metric settings of a published setup, e.g. metaeval-2021.")
@lang_option
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Write here instead of standard output.")
@click.option("--plots", "plots_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Write scatter plots and significance heatmaps (PNG) here.")
@click.option("--data-dir", default=None, help=DATA_DIR_HELP)
@click.option("--no-cache", is_flag=True, help="Neither read nor write the score cache.")
@click.option("--cache-dir", type=click.Path(file_okay=False), default=None, help="Score cache directory.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar (default: when standard error is a terminal).")
@parallel_options
def meta_evaluate(dataset, perturbations, metric_specs, aspect, raw, references, level, split, ties, correlation,
                  average_by, tie_epsilon, tie_sample, significance, rank,
                  alpha, resamples, bootstrap, seed, score_paths, score_columns, preset, lang, fmt, output, plots_dir,
                  data_dir, no_cache, cache_dir, progress, jobs, dask) -> None:
    """Correlate metrics with a dataset's human judgements, per split, with significance tests."""
    from simpeval.cache import ScoreCache
    from simpeval.fileio import check_not_an_input, check_writable, write_output
    from simpeval.cli.language import given_language
    from simpeval.cli.state import registry
    from simpeval.datadir import resolve_data_dir
    from simpeval.metaeval.engine import Settings
    from simpeval.metaeval.report import format_report, provenance
    from simpeval.metaeval.run import Request, run_meta_evaluation
    from simpeval.engine.parallel import open_executor

    check_writable(output)
    check_not_an_input(output, score_paths)
    if dataset is None and not perturbations:
        raise UsageError("no dataset: pass --dataset NAME (see `simpeval datasets list`) or --perturbations")
    if dataset is not None and perturbations:
        raise UsageError("--perturbations replaces --dataset: drop one of them")
    if perturbations or registry().dataset_class(dataset).kind == "pairwise":
        # agreement on pairs: the perturbation sets (dataset None) or a pairwise dataset's pairs
        _pairwise(dataset, metric_specs, score_paths, plots_dir, bootstrap, seed, fmt, output, data_dir, no_cache,
                  cache_dir, progress, jobs, dask)
        return
    if score_columns and not score_paths:
        raise UsageError("--score-columns picks columns of --scores files: add --scores CSV or drop it")
    if plots_dir is not None:
        _make_plots_dir(plots_dir)
    if correlation is None:
        correlation = getattr(registry().dataset_class(dataset), "default_correlation", "pearson")
    if significance is None:
        significance = "williams" if correlation == "pearson" and average_by == "none" else "permutation"
    if progress is None:
        progress = sys.stderr.isatty()
    request = Request(
        dataset=dataset,
        data_dir=resolve_data_dir(data_dir),
        metrics=list(metric_specs) or None,
        aspect=aspect,
        raw=raw,
        references=references,
        level=level,
        split=split,
        ties=ties,
        settings=Settings(correlation=correlation, significance=significance, alpha=alpha,
                          resamples=resamples, bootstrap=bootstrap, average_by=average_by,
                          tie_epsilon=tie_epsilon, tie_sample=tie_sample, tie_seed=seed, rank=rank),
        scores=list(score_paths),
        score_columns=[c.strip() for c in score_columns.split(",")] if score_columns else None,
        preset=preset,
        lang=given_language(lang),
        seed=seed,
        cache=None if no_cache else ScoreCache(cache_dir),
        progress=progress,
    )
    with open_executor(jobs, dask) as request.executor:
        report = run_meta_evaluation(registry(), request)
    for warning in report.result.warnings:
        click.echo(f"warning: {warning}", err=True)
    text = format_report(report, fmt)
    if fmt == "table":
        from simpeval.reproduce.pointer import published_line

        text += published_line(report, registry())
    write_output(text, output)
    if fmt == "csv":
        for line in provenance(report):
            click.echo(f"# {line}", err=True)
    if plots_dir is not None:
        from simpeval.metaeval.plots import write_plots

        try:
            written = write_plots(report, plots_dir)
        except OSError as exc:
            raise UsageError(f"cannot write plots to {plots_dir}: {exc.strerror}: pick another --plots DIR") from None
        click.echo(f"wrote {len(written)} plots to {plots_dir}", err=True)


def _pairwise(dataset, metric_specs, score_paths, plots_dir, bootstrap, seed, fmt, output, data_dir, no_cache,
              cache_dir, progress, jobs, dask) -> None:
    """Pair agreement on a pairwise dataset (``dataset``) or, with ``dataset`` None, on the perturbation sets."""
    from simpeval.cache import ScoreCache
    from simpeval.fileio import write_output
    from simpeval.cli.state import registry
    from simpeval.datadir import resolve_data_dir
    from simpeval.datasets.dwiki import perturbation_sets
    from simpeval.metaeval.pairrun import DEFAULT_BOOTSTRAP, format_pairs, run_pairs
    from simpeval.engine.parallel import open_executor

    if score_paths or plots_dir is not None:
        raise UsageError("--scores and --plots are for rated datasets: drop them for pairs and perturbations")
    reg = registry()
    data = resolve_data_dir(data_dir)
    datasets = perturbation_sets(data) if dataset is None else [reg.dataset_class(dataset)(data)]
    specs = [s.strip() for spec in metric_specs for s in spec.split(",") if s.strip()] or None
    with open_executor(jobs, dask) as executor:
        records = run_pairs(reg, datasets, specs, bootstrap=bootstrap or DEFAULT_BOOTSTRAP, seed=seed,
                            cache=None if no_cache else ScoreCache(cache_dir),
                            progress=sys.stderr.isatty() if progress is None else progress, executor=executor)
    write_output(format_pairs(records, fmt, perturbations=dataset is None), output)


def _make_plots_dir(plots_dir: Path) -> None:
    """Create ``--plots DIR`` before any work, so a bad directory fails fast and writes nothing."""
    try:
        plots_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot create --plots directory {plots_dir}: {exc.strerror}: pick another one") from None
