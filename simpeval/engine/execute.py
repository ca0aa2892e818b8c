"""Run a :class:`~simpeval.engine.plan.Plan`: the one place where inputs, metrics, cache, store
and executor meet.

One system is scored batch by batch (:func:`score_source`): a source in memory is checked
whole and its corpus scores are cached whole; line files are streamed, each batch checked
as it is read, and per-item CSV rows are written as soon as their batch is scored, so
memory stays flat however long the files. A metric whose corpus score needs every item at
once (a corpus formula without additive statistics) makes line files be read whole first.
Several systems (or a paired test) make a :class:`~simpeval.engine.compare.Comparison`: each
system scored in the same run (so each model loads once), then tested against the first.

Everything a run keeps (score cache, statistics store, models, executor) belongs to the
:class:`~simpeval.run.Run` given, or to one made for the call and released at its end.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from contextlib import nullcontext
from typing import TYPE_CHECKING, Any

from simpeval.fileio import StagedOutput
from simpeval.engine.compare import Comparison, SystemResult, resampling_work, run_tests
from simpeval.cache import CORPUS, EntryInputs, MetricEntries
from simpeval.engine.metrics import MetricSpecs, has_corpus_statistics, signature_with_nrefs, streamable
from simpeval.engine.results import EvaluationResult, collect_result, corpus_scores
from simpeval.engine.scoring import Collected, scored_batches
from simpeval.engine.sources import MemorySource
from simpeval.progress import progress_bar
from simpeval.run import Run
from simpeval.tables import csv_cells

if TYPE_CHECKING:
    from collections.abc import Iterator

    from simpeval.cache import ScoreCache
    from simpeval.engine.batches import Batch
    from simpeval.engine.metrics import MetricRequest
    from simpeval.engine.plan import Output, Plan, Source
    from simpeval.metrics.base import Metric
    from simpeval.engine.parallel import BatchExecutor


def execute(
    plan: Plan,
    run: Run | None = None,
    *,
    cache: ScoreCache | None = None,
    executor: BatchExecutor | None = None,
) -> EvaluationResult | Comparison:
    """Score ``plan`` and write its output, if it has one.

    :param run: the run whose cache, store, models and executor are used; None: a new
        ``Run(cache=cache, executor=executor)``, released on return.
    :returns: the :class:`~simpeval.engine.results.EvaluationResult` of one system, or the
        :class:`~simpeval.engine.compare.Comparison` of several (``plan.compares``).
    """
    plan.check()
    if run is None:
        with Run(cache=cache, executor=executor) as own:
            return execute(plan, own)
    if plan.compares:
        return _compare(plan, run)
    with plan.systems[0].source as source:
        return score_source(plan.metrics, source, run, sentence_level=plan.sentence_level,
                            corpus_level=plan.corpus_level, batch_size=plan.batch_size, progress=plan.progress,
                            output=plan.output)


def requests_for(metrics: Sequence[MetricRequest] | MetricSpecs, has_references: bool) -> list[MetricRequest]:
    """The plan's metric requests (specs are resolved now)."""
    return metrics.resolve(has_references) if isinstance(metrics, MetricSpecs) else list(metrics)


def score_source(
    requested: Sequence[MetricRequest] | MetricSpecs,
    source: Source,
    run: Run,
    *,
    sentence_level: bool,
    corpus_level: bool,
    batch_size: int,
    progress: bool = False,
    output: Output | None = None,
    item_statistics: bool = False,
) -> EvaluationResult:
    """Score one open source with every metric, batch by batch (see the module docstring).

    :param item_statistics: keep the per-item corpus statistics of every corpus-level metric that has
        them (cached per batch, computed by the executor like any score): what paired tests resample.
    """
    n_items = source.count()
    requests = requests_for(requested, source.has_references)
    if not isinstance(source, MemorySource) and not streamable(requests):
        source = source.in_memory()
        n_items = source.count()
    whole = source if isinstance(source, MemorySource) else None
    metrics = [request.metric for request in requests]
    if whole is not None:
        for metric in metrics:
            metric.check_inputs(whole.sources, whole.outputs, whole.references)
    signatures = [signature_with_nrefs(metric, source.nrefs) for metric in metrics]
    run.bind(metrics)

    fields = [{k: list(v) for k, v in (whole.fields if whole else {}).items() if k in m.item_fields}
              for m in metrics]
    keyed = EntryInputs(*_inputs(whole)) if whole is not None else None
    corpus = _cached_corpus(metrics, signatures, keyed, fields, run.cache) if corpus_level else {}
    statistics = [corpus_level and m.corpus_level and i not in corpus and has_corpus_statistics(m) and n_items != 0
                  for i, m in enumerate(metrics)]
    sentences = [sentence_level or (corpus_level and not m.corpus_level) for m in metrics]
    rows = [item_statistics and m.corpus_level and has_corpus_statistics(m) and n_items != 0 for m in metrics]
    rows_now = output is not None and sentence_level and output.fmt == "csv" and source.ids is None
    collected = Collected(metrics, keep=[(sentence_level and not rows_now) or (corpus_level and not m.corpus_level)
                                          for m in metrics])
    columns = [(i, sub) for i, request in enumerate(requests) for sub in request.report]
    batches = source.batches(batch_size) if whole is not None else _checked(metrics, source.batches(batch_size))
    total = None if n_items is None else n_items * len(metrics)
    # the bar counts scores, one per item and metric: a metric that finishes a batch moves it
    with _staged(output) as staged, progress_bar(total, progress, desc="scoring", unit="score") as bar:
        writer = csv.writer(staged.handle, lineterminator="\n") if rows_now else None
        if writer is not None:
            writer.writerow(["index", *(sub for _, sub in columns)])
        seen = 0
        for batch, values, stats, item_rows in scored_batches(metrics, signatures, sentences, statistics, batches,
                                                              cache=run.cache, executor=run.executor, bar=bar,
                                                              item_statistics=rows):
            collected.add(batch.start, values, stats, item_rows)
            seen += len(batch)
            if writer is not None:
                writer.writerows(csv_cells([batch.start + j, *(values[i][sub][j] for i, sub in columns)])
                                 for j in range(len(batch)))
        if corpus_level:
            for i, metric in enumerate(metrics):
                if i not in corpus:
                    corpus[i] = corpus_scores(metric, statistics[i], collected.statistics[i], collected.items[i],
                                              _inputs(whole) if whole is not None else (), fields[i])
                    if metric.corpus_level and whole is not None:
                        MetricEntries(run.cache, metric, signatures[i]).put(CORPUS, keyed, corpus[i], fields[i])
        result = collect_result(requests, signatures, seen,
                                collected.items if sentence_level and not rows_now else None,
                                corpus if corpus_level else None,
                                [kept if wanted else None for kept, wanted in zip(collected.item_statistics, rows)])
        result.undefined = {sub: collected.undefined[i][sub] for i, sub in columns if sub in collected.undefined[i]}
        if staged is not None:
            if not rows_now:
                staged.write(output.render(result, source.ids))
            staged.publish()
    return result


def _cached_corpus(
    metrics: Sequence[Metric],
    signatures: Sequence[str],
    whole: EntryInputs | None,
    fields: Sequence[dict[str, list]],
    cache: ScoreCache | None,
) -> dict[int, dict[str, float]]:
    """The corpus scores the cache holds for the whole input, by metric index (streamed inputs
    have none: their corpus scores come from the batches' cached statistics)."""
    found = {}
    if whole is not None:
        for i, metric in enumerate(metrics):
            value = MetricEntries(cache, metric, signatures[i]).get(CORPUS, whole, fields[i]) \
                if metric.corpus_level else None
            if value is not None:
                found[i] = value
    return found


def _compare(plan: Plan, run: Run) -> Comparison:
    """Every system scored in ``run``, then tested against the first and every pair compared, as the
    plan asks: on the per-item statistics and sentence scores the run kept while it scored (cached per
    batch and computed by the run's executor like any score)."""
    systems = []
    for system in plan.systems:
        with system.source as source:
            systems.append((system.name, source.in_memory()))
    requests = requests_for(plan.metrics, systems[0][1].has_references)
    tested = plan.test is not None or plan.all_pairs is not None
    results = [SystemResult(name, score_source(requests, source, run, sentence_level=plan.sentence_level or tested,
                                               corpus_level=True, batch_size=plan.batch_size, progress=plan.progress,
                                               item_statistics=tested))
               for name, source in systems]
    comparison = Comparison(results, plan.test)
    if plan.test is not None:
        with progress_bar(resampling_work(plan.test, len(systems), plan.n_resamples, len(requests)), plan.progress,
                          desc="resampling", unit="resample") as bar:
            run_tests(comparison, requests, plan.test, plan.n_resamples, plan.seed, tick=bar.update)
    if plan.all_pairs is not None:
        from simpeval.allpairs import compare_all_pairs, gather_statistics  # numpy and scipy: only now

        settings = plan.all_pairs
        with progress_bar(settings.work(len(systems), len(requests)), plan.progress, desc="resampling",
                          unit="resample") as bar:
            comparison.all_pairs = compare_all_pairs(
                [name for name, _ in systems], gather_statistics(requests, comparison), n_bootstrap=settings.n_bootstrap,
                n_ar=settings.n_ar, seed=settings.seed, alpha=settings.alpha, use_holm=settings.holm, tick=bar.update)
    if plan.output is not None:
        with _staged(plan.output) as staged:
            staged.write(plan.output.render(comparison, None))
            staged.publish()
    return comparison


def _inputs(source: MemorySource) -> tuple:
    return source.sources, source.outputs, source.references


def _checked(metrics: Sequence[Metric], batches: Iterator[Batch]) -> Iterator[Batch]:
    """The batches, each checked by every metric first (a metric that needs references says so
    on the first batch, before anything is scored)."""
    for batch in batches:
        for metric in metrics:
            metric.check_inputs(*batch.inputs)
        yield batch


def _staged(output: Output | None) -> Any:
    """The output's :class:`~simpeval.fileio.StagedOutput` (published whole at the end), or none."""
    return nullcontext() if output is None else StagedOutput(output.path, output.option)


def run_plan(plan: Plan, *, cache: ScoreCache | None = None, jobs: int = 1, dask: str | None = None
             ) -> EvaluationResult | Comparison:
    """:func:`execute` on ``jobs`` local processes or a Dask cluster (``--jobs``, ``--dask``;
    :func:`simpeval.engine.parallel.open_executor`), closed on return."""
    from simpeval.engine.parallel import open_executor

    with open_executor(jobs, dask) as executor:
        return execute(plan, cache=cache, executor=executor)
