"""``simpeval evaluate``: score system outputs with any installed metrics.

The command turns its options into a :class:`~simpeval.engine.plan.Plan` (one system's line
files or documents, or several systems with a paired test) and runs it with
:func:`simpeval.engine.execute.run_plan`; what it prints itself is the signatures and notes
on standard error.
"""

from __future__ import annotations

import shutil
import sys
from dataclasses import dataclass

import click

from simpeval.cli.language import lang_option
from simpeval.cli.parallel import parallel_options
from simpeval.engine.metrics import DEFAULT_METRICS_WITH_REFS, DEFAULT_METRICS_WITHOUT_REFS
from simpeval.engine.results import EvaluationResult, format_result


@dataclass
class EvaluateOptions:
    """The options of ``simpeval evaluate``, as click parses them."""

    orig_path: str | None
    sys_paths: tuple[str, ...]
    refs_paths: tuple[str, ...]
    test_set: str | None
    sys_dir: str | None
    paired_bs: bool
    paired_ar: bool
    confidence: bool
    all_pairs: bool
    holm: bool
    paired_n: int | None
    seed: int
    data_dir: str | None
    analysis: bool
    metric_specs: tuple[str, ...]
    sentence_level: bool
    preset: str | None
    lang: str | None
    easse_defaults: bool
    fmt: str
    output: str | None
    no_cache: bool
    cache_dir: str | None
    batch_size: int
    progress: bool | None
    jobs: int
    dask: str | None

    def resolved_preset(self) -> str | None:
        """``--preset``, or the ``easse-cli`` preset that ``--easse-defaults`` stands for."""
        from simpeval.cli.easse_notes import EASSE_PRESET
        from simpeval.errors import UsageError

        if not self.easse_defaults:
            return self.preset
        if self.preset not in (None, EASSE_PRESET):
            raise UsageError(f"--easse-defaults is the preset {EASSE_PRESET}: drop --preset {self.preset} "
                             "or --easse-defaults")
        return EASSE_PRESET

    def plan(self):
        """The :class:`~simpeval.engine.plan.Plan` these options describe (inputs checked, not yet read
        unless several systems are compared)."""
        from simpeval.fileio import check_not_an_input
        from simpeval.cli.language import test_set_language
        from simpeval.cli.state import registry
        from simpeval.cli.systems import csv_test_set_of, format_comparison, read_systems, resolve_inputs, with_analysis
        from simpeval.documents import is_document_input
        from simpeval.engine.metrics import MetricSpecs
        from simpeval.engine.plan import Output, Plan, System
        from simpeval.engine.sources import MemorySource, open_source
        from simpeval.errors import UsageError

        orig, refs, sys_paths, test = resolve_inputs(self.orig_path, self.refs_paths, self.test_set, self.data_dir,
                                                     self.sys_paths, self.sys_dir, self.paired_bs or self.confidence,
                                                     self.paired_ar)
        check_not_an_input(self.output, (orig, *refs, *sys_paths))
        specs = with_analysis(self.metric_specs, bool(refs)) if self.analysis else self.metric_specs
        progress = sys.stderr.isatty() if self.progress is None else self.progress
        lang = test_set_language(self.lang, self.test_set)
        settings = dict(metrics=MetricSpecs(registry(), specs, self.resolved_preset(), lang), batch_size=self.batch_size,
                        progress=progress)
        if len(sys_paths) == 1 and test is None:
            fmt, sentence_level = self.fmt, self.sentence_level
            if csv_test_set_of(orig) is not None:
                sources, [(_, outputs)], references = read_systems(orig, sys_paths, refs)
                source = MemorySource(sources, outputs, references)
            else:
                source = open_source(orig, sys_paths[0], refs)
            return Plan(systems=[System(sys_paths[0], source)],
                        sentence_level=sentence_level,
                        output=Output(self.output, fmt, lambda result, ids: format_result(result, sentence_level,
                                                                                          fmt, ids)),
                        **settings)
        if any(is_document_input(p) for p in (orig, *sys_paths, *refs)):
            raise UsageError("documents are scored one system at a time: give one --sys per run")
        if self.sentence_level:
            raise UsageError("--sentence-level scores one system: drop it, or score each system on its own")
        sources, systems, references = read_systems(orig, sys_paths, refs)
        fmt = self.fmt
        # a table wider than the terminal, or than REDIRECTED_WIDTH in a file or pipe, is printed long
        from simpeval.systems_table import REDIRECTED_WIDTH

        width = shutil.get_terminal_size().columns if self.output is None and sys.stdout.isatty() else REDIRECTED_WIDTH
        return Plan(systems=[System(name, MemorySource(sources, outputs, references)) for name, outputs in systems],
                    test=test, n_resamples=self.paired_n, seed=self.seed,
                    output=Output(self.output, fmt, lambda comparison, _: format_comparison(comparison, fmt, width)),
                    **settings)


@click.command()
@click.option("--orig", "orig_path", default=None, metavar="FILE", help="Original (complex) sentences, one per line (or give --test-set); or documents: a directory of .txt files or a .jsonl file.")
@click.option("--sys", "sys_paths", multiple=True, metavar="FILE",
              help="System outputs, one per line ('-', the default, reads standard input), or documents like --orig; repeat to compare systems, the first as baseline.")
@click.option("--refs", "refs_paths", multiple=True, metavar="FILE", help="A reference file, one per line (or documents); repeat for several references.")
@click.option("-t", "--test-set", default=None, metavar="NAME", help="Take --orig and --refs from a named test set (see `simpeval test-sets`).")
@click.option("--sys-dir", default=None, type=click.Path(file_okay=False), help="Compare every file in this directory (sorted by name) as a system.")
@click.option("--paired-bs", is_flag=True, help="Paired bootstrap resampling of each system against the first (1,000 resamples).")
@click.option("--confidence", is_flag=True, help="Bootstrap 95% interval of every score (sacrebleu's --confidence; 1,000 resamples, --paired-n): the paired bootstrap, which with one system gives only the intervals.")
@click.option("--paired-ar", is_flag=True, help="Paired approximate randomization of each system against the first (10,000 trials).")
@click.option("--all-pairs", is_flag=True, help="Compare every pair of systems (paired bootstrap, t-test on sentence scores, win/tie/loss; with --paired-ar also approximate randomization) and rank them into significance clusters per sub-score.")
@click.option("--holm/--no-holm", default=True, show_default=True, help="--all-pairs: rank on Holm-corrected p-values.")
@click.option("--paired-n", type=click.IntRange(min=1), default=None, help="Resamples or trials of the paired test instead of its default.")
@click.option("--seed", type=click.IntRange(min=0), default=12345, show_default=True, help="Seed of the paired test's resampling.")
@click.option("--data-dir", default=None, help="Data directory of --test-set (default: $SIMPEVAL_DATA_DIR, else the user data directory; see `simpeval data`).")
@click.option("-a", "--analysis", is_flag=True, help="Add the word-level operations: metrics ops and, with references, ops-f1.")
@click.option("-m", "--metrics", "metric_specs", multiple=True, metavar="NAME[:OPT=V,...]",
              help=f"Metrics or sub-scores, comma-separated (default: {DEFAULT_METRICS_WITH_REFS} with references, "
                   f"{DEFAULT_METRICS_WITHOUT_REFS} without; fre for fkgl outside English).")
@click.option("--sentence-level", is_flag=True, help="Report one score per line instead of corpus scores.")
@click.option("--preset", default=None, help="Settings of a published setup, e.g. metaeval-2021.")
@lang_option
@click.option("--easse-defaults", is_flag=True,
              help="Reproduce `easse evaluate`'s defaults: every metric lower-cased, BLEU included (13a tokens); "
                   "the same as --preset easse-cli.")
@click.option("--format", "fmt", type=click.Choice(["table", "markdown", "latex", "csv", "json"]), default="table", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None, help="Write here (atomically) instead of standard output.")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the score cache.")
@click.option("--cache-dir", type=click.Path(file_okay=False), default=None, help="Score cache directory (default: $SIMPEVAL_CACHE_DIR or ~/.cache/simpeval).")
@click.option("--batch-size", type=click.IntRange(min=1), default=512, show_default=True, help="Items per cached batch.")
@click.option("--progress/--no-progress", default=None, help="Progress bar (default: when standard error is a terminal).")
@parallel_options
def evaluate(**options) -> None:
    """Score system outputs against their originals (and references)."""
    from simpeval.cache import ScoreCache
    from simpeval.cli.easse_notes import bleu_casing_note, easse_warnings
    from simpeval.fileio import check_writable
    from simpeval.cli.systems import echo_comparison_notes
    from simpeval.engine.execute import run_plan

    given = EvaluateOptions(**options)
    check_writable(given.output)
    if given.all_pairs:
        from simpeval.cli.allpairs import run_all_pairs

        run_all_pairs(given)
        return
    plan = given.plan()
    result = run_plan(plan, cache=None if given.no_cache else ScoreCache(given.cache_dir), jobs=given.jobs,
                      dask=given.dask)
    if given.easse_defaults:
        for line in easse_warnings(plan.metrics.resolved):
            click.echo(line, err=True)
    if plan.compares:
        echo_comparison_notes(result, given.fmt)
        return
    if plan.systems[0].source.ids is not None:
        for request in plan.metrics.resolved:
            if request.metric.level == "sentence":
                click.echo(f"# note: {request.metric.name} is a sentence-level metric: each document is scored "
                           "as one text", err=True)
    if given.sentence_level and given.fmt != "json":
        for signature in dict.fromkeys(result.signatures.values()):
            click.echo(f"# {signature}", err=True)
    note = bleu_casing_note(result.signatures.values())
    if note and given.fmt != "json":
        click.echo(note, err=True)
    if given.fmt != "json":  # JSON shows each as null
        for line in undefined_notes(result):
            click.echo(line, err=True)


def undefined_notes(result: EvaluationResult) -> list[str]:
    """A note for each sub-score that is NaN on some items: a readability formula has no value for a text
    without words, and a table cell "nan" alone does not say how many items or where."""
    return [f"# note: {name} has no value (nan) on {count} of {result.n_items} items (the first at index {first}), "
            "e.g. a text without words" for name, (count, first) in result.undefined.items()]
