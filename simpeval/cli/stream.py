"""``simpeval evaluate`` on one system's line files, streamed: memory does not grow with the input.

The files are read in lock-step a batch at a time (:mod:`simpeval.cli.linefiles`), each
batch is scored (:func:`simpeval.streaming.scored_batches`: cached, here or on the
executor's workers) and, for ``--sentence-level --format csv``, its rows are written as
soon as every earlier batch is written; corpus scores come from statistics summed batch by
batch. The output goes to a temporary file that is published whole at the end
(:class:`~simpeval.cli.files.StagedOutput`), so a run that fails or is interrupted
shows nothing half-written, while the score cache keeps its finished batches for a rerun.

The other formats need every row before the first can be laid out (aligned columns,
JSON's per-metric lists), so they keep the per-item scores (never the texts) to the end.
A metric whose corpus score needs all texts at once (a corpus-level metric without
additive statistics) cannot be streamed: :func:`stream_line_files` then returns None
and the caller reads the files whole.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from simpeval.cache import metric_key
from simpeval.cli.files import StagedOutput
from simpeval.cli.linefiles import close_all, counted_items, line_batches, open_line_files
from simpeval.runner import (
    Batch,
    EvaluationResult,
    MetricRequest,
    _corpus_scores,
    _progress_bar,
    collect_result,
    has_corpus_statistics,
    signature_with_nrefs,
)
from simpeval.run import Run
from simpeval.streaming import Collected, scored_batches
from simpeval.tables import csv_cells

if TYPE_CHECKING:
    from simpeval.cache import ScoreCache
    from simpeval.metrics.base import Metric


def streamable(requests: Sequence[MetricRequest]) -> bool:
    """Whether every metric's corpus score can be had batch by batch: from summed statistics,
    or as the mean of its sentence scores."""
    return all(has_corpus_statistics(r.metric) or not r.metric.corpus_level for r in requests)


def stream_line_files(
    orig_path: str,
    sys_path: str,
    refs_paths: Sequence[str],
    resolve: Callable[[], list[MetricRequest]],
    *,
    sentence_level: bool,
    fmt: str,
    output: str | None,
    cache: ScoreCache | None,
    batch_size: int,
    progress: bool,
    open_executor: Callable[[], Any],
    run: Run | None = None,
) -> EvaluationResult | None:
    """Score and write one system's line files; None (nothing read or written) when a metric
    cannot be streamed.

    :param resolve: returns the metric requests; called after the files are opened and
        counted, so a missing file or a length mismatch is reported first.
    :param open_executor: returns the ``with`` block of the executor to score on.
    :param run: the run whose store, models and encodings the metrics share (default: a new one).
    """
    from simpeval.cli.evaluate import format_result

    files = open_line_files(orig_path, sys_path, refs_paths)
    own_run = Run()  # used unless the caller gives its run; released on return
    try:
        n_items = counted_items(files)
        requests = resolve()
        if not streamable(requests):
            return None
        metrics = [request.metric for request in requests]
        nrefs = str(len(refs_paths)) if refs_paths else None
        signatures = [signature_with_nrefs(metric, nrefs) for metric in metrics]
        (run or own_run).bind(metrics)
        rows_now = sentence_level and fmt == "csv"
        sentences = [sentence_level or not metric.corpus_level for metric in metrics]
        statistics = [metric.corpus_level and has_corpus_statistics(metric) for metric in metrics]
        collected = Collected(metrics, keep=[not m.corpus_level or (sentence_level and not rows_now) for m in metrics])
        columns = [(i, sub) for i, request in enumerate(requests) for sub in request.report]
        total = None if n_items is None else n_items * len(metrics)
        with open_executor() as executor, StagedOutput(output) as staged, _progress_bar(total, progress) as bar:
            writer = csv.writer(staged.handle, lineterminator="\n")
            if rows_now:
                writer.writerow(["index", *(sub for _, sub in columns)])
            for batch, values, stats in scored_batches(metrics, [metric_key(m, s) for m, s in zip(metrics, signatures)],
                                                       sentences, statistics,
                                                       _checked(metrics, line_batches(files, batch_size)),
                                                       cache=cache, executor=executor, bar=bar):
                collected.add(values, stats)
                if rows_now:
                    writer.writerows(csv_cells([batch.start + j, *(values[i][sub][j] for i, sub in columns)])
                                     for j in range(len(batch)))
            corpus = {i: _corpus_scores(metric, statistics[i], collected.statistics[i], (), {}, collected.items[i])
                      for i, metric in enumerate(metrics)}
            result = collect_result(requests, signatures, files[0].lines,
                                    collected.items if sentence_level and not rows_now else None, corpus)
            if not rows_now:
                staged.write(format_result(result, sentence_level, fmt))
            staged.publish()
        return result
    finally:
        own_run.close()
        close_all(files)


def _checked(metrics: Sequence[Metric], batches: Iterator[Batch]) -> Iterator[Batch]:
    """The batches, each checked by every metric first (a metric that needs references says so
    on the first batch, before anything is scored)."""
    for batch in batches:
        for metric in metrics:
            metric.check_inputs(*batch.inputs)
        yield batch
