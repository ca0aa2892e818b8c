"""The evaluation runner: resolve metric specs, score in cached batches, collect results.

A run owns a bounded :class:`~simpeval.store.StatsStore` that its metrics share, so
a text is tokenised and counted once while it is in use; batches are scored with
every metric in turn, here or by an executor of :mod:`simpeval.parallel` (local
processes, a Dask cluster), and their results are assembled in input order, so
every way of running gives the same numbers. Finished batches go to the on-disk
:class:`~simpeval.cache.ScoreCache`, so a long run that is interrupted resumes from
the last finished batch; corpus scores that need global statistics (BLEU, SARI,
FKGL) sum per-batch statistics.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from simpeval.cache import Check, ScoreCache, check_corpus_scores, check_sentence_scores, input_key
from simpeval.errors import UsageError
from simpeval.metrics.base import mean_ignoring_nan
from simpeval.store import StatsStore

if TYPE_CHECKING:
    from simpeval.metrics.base import Metric
    from simpeval.parallel import BatchExecutor
    from simpeval.registry import Registry

DEFAULT_BATCH_SIZE = 512


@dataclass
class MetricRequest:
    """One metric instance and the sub-scores to report from it."""

    metric: Metric
    report: list[str]


@dataclass
class EvaluationResult:
    """Scores of one run: per item (when asked), per corpus, and the signature behind each sub-score."""

    n_items: int
    signatures: dict[str, str] = field(default_factory=dict)
    higher_is_better: dict[str, bool] = field(default_factory=dict)
    sentence_scores: dict[str, list[float]] = field(default_factory=dict)
    corpus_scores: dict[str, float] = field(default_factory=dict)

    @property
    def score_names(self) -> list[str]:
        return list(self.signatures)


def parse_metric_specs(specs: Iterable[str]) -> list[tuple[str, dict[str, str]]]:
    """Parse ``-m`` values such as ``bleu,bertscore:model=PATH,layer=6,sari``.

    A comma-separated piece with ``=`` and no ``:`` continues the options of the
    metric before it; any other piece names a new metric. Option values therefore
    cannot contain commas. A piece with an empty name, option or value (``bleu:``,
    ``:x``, ``bleu:=1``, ``bleu:x=``) is a :class:`UsageError`.
    """
    parsed: list[tuple[str, dict[str, str]]] = []
    for spec in specs:
        for piece in (p.strip() for p in spec.split(",")):
            if not piece:
                continue
            if "=" in piece and ":" not in piece.split("=", 1)[0]:
                if not parsed:
                    raise UsageError(f'"{piece}" is an option but names no metric: write -m NAME:{piece}')
                name, options = parsed[-1]
                _add_option(name, options, piece)
                continue
            name, colon, option_text = (part.strip() for part in piece.partition(":"))
            if not name:
                raise UsageError(f'-m "{piece}" names no metric before ":": write -m NAME:OPTION=VALUE')
            options: dict[str, str] = {}
            if colon:
                if not option_text:
                    raise UsageError(f'-m "{piece}" has nothing after ":": write -m {name} or -m {name}:OPTION=VALUE')
                _add_option(name, options, option_text)
            parsed.append((name, options))
    return parsed


def _add_option(metric: str, options: dict[str, str], text: str) -> None:
    """Add ``KEY=VALUE`` to ``options``; :class:`UsageError` when either side is empty or KEY repeats."""
    key, eq, value = (part.strip() for part in text.partition("="))
    if not eq or not value:
        raise UsageError(f'option "{key}" of metric "{metric}" has no value: write {metric}:{key or "OPTION"}=VALUE')
    if not key:
        raise UsageError(f'"{text}" of metric "{metric}" names no option: write {metric}:OPTION={value}')
    if key in options and options[key] != value:
        raise UsageError(f'option "{key}" of metric "{metric}" is given twice ({options[key]} and {value}): keep one')
    options[key] = value


def _spec_text(name: str, options: dict[str, str]) -> str:
    return name + (":" + ",".join(f"{k}={v}" for k, v in options.items()) if options else "")


def resolve_metrics(
    registry: Registry, specs: Iterable[str], preset: str | None = None
) -> list[MetricRequest]:
    """Turn ``-m`` specs into metric instances; sub-scores of one metric with the same options share it.

    ``-m sari-add,sari-del`` builds one SARI metric and reports both sub-scores;
    ``-m sari`` reports all of SARI's sub-scores. One metric asked for twice with
    different options (``-m bleu -m bleu:tokenizer=none``) is a :class:`UsageError`
    naming both: the results would carry one name for two different numbers.
    """
    registry.check_preset(preset)
    requests: dict[str, tuple[tuple, str, MetricRequest]] = {}
    for name, options in parse_metric_specs(specs):
        name, options = registry.resolve(name, options, preset)
        cls = registry.metric_class(name)
        settings = tuple(sorted(options.items()))
        if cls.name not in requests:
            metric = registry.create_metric(cls.name, options, preset)
            requests[cls.name] = (settings, _spec_text(name, options), MetricRequest(metric, []))
        first_settings, first_text, request = requests[cls.name]
        if settings != first_settings:
            raise UsageError(
                f'metric "{cls.name}" is asked for twice with different settings ("{first_text}" and '
                f'"{_spec_text(name, options)}"): keep one, or run once per setting'
            )
        wanted = cls.score_names() if name == cls.name else (name,)
        request.report.extend(s for s in wanted if s not in request.report)
    if not requests:
        raise UsageError("no metric given: pass -m NAME (see `simpeval metrics list`)")
    return [request for _, _, request in requests.values()]


def signature_with_refs(metric: Metric, references: Sequence[Sequence[str]] | None) -> str:
    """The metric's signature with ``nrefs`` after its name (``var`` when items differ)."""
    if references is None:
        return signature_with_nrefs(metric, None)
    counts = {len(r) for r in references}
    return signature_with_nrefs(metric, str(counts.pop()) if len(counts) == 1 else "var")


def signature_with_nrefs(metric: Metric, nrefs: str | None) -> str:
    """The metric's signature with ``nrefs:NREFS`` after its name (None: no references given)."""
    signature = metric.signature()
    if nrefs is None or not metric.requires_references:
        return signature
    name, _, rest = signature.partition("|")
    return f"{name}|nrefs:{nrefs}|{rest}"


@dataclass
class Batch:
    """Items ``start`` to ``start + len(outputs)`` of a run: the unit of caching and of parallel work."""

    index: int
    start: int
    sources: Sequence[str]
    outputs: Sequence[str]
    references: Sequence[Sequence[str]] | None
    fields: dict[str, list] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.outputs)

    @property
    def inputs(self) -> tuple:
        return self.sources, self.outputs, self.references

    def fields_for(self, metric: Metric) -> dict[str, list]:
        """The per-item fields of this batch that ``metric`` reads (its ``item_fields``)."""
        return {k: v for k, v in self.fields.items() if k in metric.item_fields}

    def describe(self) -> str:
        return f"batch {self.index} (items {self.start + 1}-{self.start + len(self)})"


@dataclass(frozen=True)
class Task:
    """What one metric computes on one batch: sentence scores, corpus statistics, or both."""

    sentences: bool
    statistics: bool


BatchScores = list[tuple["dict[str, list[float]] | None", Any]]


def make_batches(
    sources: Sequence[str],
    outputs: Sequence[str],
    references: Sequence[Sequence[str]] | None,
    batch_size: int,
    fields: dict[str, Sequence[object]] | None = None,
) -> list[Batch]:
    return [
        Batch(index, start, sources[start : start + batch_size], outputs[start : start + batch_size],
              None if references is None else references[start : start + batch_size],
              {k: list(v[start : start + batch_size]) for k, v in (fields or {}).items()})
        for index, start in enumerate(range(0, len(outputs), batch_size))
    ]


def score_batch(metrics: Sequence[Metric], tasks: Sequence[Task | None], batch: Batch) -> BatchScores:
    """Every metric's sentence scores and corpus statistics on ``batch``, as ``tasks`` ask.

    Metrics run one after the other on the same batch, so the texts they share are
    counted once while they are in the run's store.
    """
    results: BatchScores = []
    for metric, task in zip(metrics, tasks):
        per_item = stats = None
        if task is not None and task.sentences:
            per_item = metric.sentence_scores(*batch.inputs, **batch.fields_for(metric))
        if task is not None and task.statistics:
            stats = _column_sums(metric.corpus_statistics(*batch.inputs) or ())
        results.append((per_item, stats))
    return results


def _column_sums(rows: Sequence[Sequence[float]]) -> list[float]:
    """The per-item statistics of a batch added up (integer counts stay exact integers)."""
    return [sum(column) for column in zip(*rows)]


def has_corpus_statistics(metric: Metric) -> bool:
    """Whether ``metric`` scores its corpus from summed statistics (see ``Metric.corpus_statistics``;
    they take no per-item fields, so a metric that reads some scores its corpus at once)."""
    return metric.has_statistics() and not metric.item_fields


def evaluate(
    requests: Sequence[MetricRequest],
    sources: Sequence[str],
    outputs: Sequence[str],
    references: Sequence[Sequence[str]] | None = None,
    *,
    sentence_level: bool = True,
    corpus_level: bool = True,
    cache: ScoreCache | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    progress: bool = False,
    executor: BatchExecutor | None = None,
    store: StatsStore | None = None,
    fields: dict[str, Sequence[object]] | None = None,
) -> EvaluationResult:
    """Score ``outputs`` with every requested metric, batch by batch.

    :param requests: from :func:`resolve_metrics`.
    :param references: item-major (``references[i]`` lists item i's references) or None.
    :param sentence_level: compute per-item scores (batched, cached per batch).
    :param corpus_level: compute corpus scores (a metric's own corpus formula from
        statistics summed over batches, else the mean of its per-item scores).
    :param cache: where finished batches are stored; None disables caching.
    :param progress: show a progress bar over items x metrics.
    :param executor: where batches are scored (:mod:`simpeval.parallel`: local processes
        or a Dask cluster); None scores them here, one after the other.
    :param store: the run's store of per-text statistics (default: a new bounded one).
    :param fields: per-item values (``{"target": [...]}``) given to the metrics whose
        ``item_fields`` name them.
    """
    for request in requests:
        request.metric.check_inputs(sources, outputs, references)
    metrics = [request.metric for request in requests]
    signatures = [signature_with_refs(metric, references) for metric in metrics]
    run_store = store if store is not None else StatsStore()
    for metric in metrics:
        metric.bind_store(run_store)

    all_fields = [{k: list(v) for k, v in (fields or {}).items() if k in m.item_fields} for m in metrics]
    corpus: dict[int, dict[str, float]] = {}
    wants_statistics = []
    for i, metric in enumerate(metrics):
        found = None
        if corpus_level and metric.corpus_level:
            found = _lookup(cache, signatures[i], "corpus", (sources, outputs, references, all_fields[i]),
                            _corpus_check(metric))
        if found is not None:
            corpus[i] = found
        wants_statistics.append(corpus_level and metric.corpus_level and found is None
                                and has_corpus_statistics(metric) and len(outputs) > 0)
    wants_sentences = [sentence_level or (corpus_level and not m.corpus_level) for m in metrics]

    from simpeval.streaming import Collected, scored_batches

    collected = Collected(metrics, keep=wants_sentences)
    with _progress_bar(len(outputs) * len(metrics), progress) as bar:
        for _, values, stats in scored_batches(metrics, signatures, wants_sentences, wants_statistics,
                                               make_batches(sources, outputs, references, batch_size, fields),
                                               cache=cache, executor=executor, bar=bar):
            collected.add(values, stats)

    for i, metric in enumerate(metrics):
        if corpus_level and i not in corpus:
            corpus[i] = _corpus_scores(metric, wants_statistics[i], collected.statistics[i],
                                       (sources, outputs, references), all_fields[i], collected.items[i])
            if metric.corpus_level:
                _save(cache, signatures[i], "corpus", (sources, outputs, references, all_fields[i]), corpus[i],
                      _corpus_check(metric))
    return collect_result(requests, signatures, len(outputs), collected.items if sentence_level else None,
                          corpus if corpus_level else None)


def collect_result(
    requests: Sequence[MetricRequest],
    signatures: Sequence[str],
    n_items: int,
    per_item: Sequence[dict[str, list[float]] | None] | None,
    corpus: dict[int, dict[str, float]] | None,
) -> EvaluationResult:
    """The reported sub-scores of each request: per item (``per_item``, by metric, when given)
    and per corpus (``corpus``, by metric index, when given)."""
    result = EvaluationResult(n_items=n_items)
    for i, request in enumerate(requests):
        for sub in request.report:
            result.signatures[sub] = signatures[i]
            result.higher_is_better[sub] = request.metric.is_higher_better(sub)
            if per_item is not None and per_item[i] is not None:
                result.sentence_scores[sub] = per_item[i][sub]
            if corpus is not None:
                result.corpus_scores[sub] = corpus[i][sub]
    return result


def _corpus_scores(
    metric: Metric,
    from_statistics: bool,
    batch_statistics: list[Any],
    inputs: tuple,
    fields: dict[str, list],
    per_item: dict[str, list[float]] | None,
) -> dict[str, float]:
    """A corpus-level metric's formula over statistics summed in batch order; else the mean
    of the sentence scores; a corpus-level metric without statistics scores all items at once."""
    if from_statistics:
        totals = _column_sums([stats for stats in batch_statistics if stats])
        return {sub: float(v) for sub, v in metric.corpus_score_from_statistics(totals).items()}
    if not metric.corpus_level and per_item is not None:
        return {sub: mean_ignoring_nan(values) for sub, values in per_item.items()}
    return metric.corpus_score(*inputs, **fields)


def _sentence_check(metric: Metric, n: int) -> Check:
    return lambda value: check_sentence_scores(value, metric.score_names(), n)


def _corpus_check(metric: Metric) -> Check:
    return lambda value: check_corpus_scores(value, metric.score_names())


def _lookup(cache: ScoreCache | None, signature: str, kind: str, inputs: tuple, check: Check) -> Any:
    """The stored value for this signature, kind and inputs if ``check`` accepts it, else None."""
    return None if cache is None else cache.get(input_key(signature, kind, *inputs), check)


def _save(cache: ScoreCache | None, signature: str, kind: str, inputs: tuple, value: Any, check: Check) -> None:
    """Store ``value`` if ``check`` accepts it, so every entry written can be read back."""
    if cache is not None and check(value) is None:
        cache.put(input_key(signature, kind, *inputs), value)


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def _progress_bar(total: int, enabled: bool) -> Any:
    if not enabled:
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=total, unit="item", desc="scoring", leave=False, dynamic_ncols=True)
