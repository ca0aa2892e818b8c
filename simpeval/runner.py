"""The evaluation runner: resolve metric specs, score in cached batches, collect results.

Texts are tokenised once per process and shared between metrics (see
:mod:`simpeval.text`); this module adds batching, the on-disk
:class:`~simpeval.cache.ScoreCache` and a progress bar, so that a long run that
is interrupted resumes from the last finished batch.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from simpeval.cache import Check, ScoreCache, check_corpus_scores, check_sentence_scores, input_key
from simpeval.errors import UsageError
from simpeval.metrics.base import mean_ignoring_nan

if TYPE_CHECKING:
    from simpeval.metrics.base import Metric
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
    signature = metric.signature()
    if references is None or not metric.requires_references:
        return signature
    counts = {len(r) for r in references}
    nrefs = str(counts.pop()) if len(counts) == 1 else "var"
    name, _, rest = signature.partition("|")
    return f"{name}|nrefs:{nrefs}|{rest}"


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
    fields: dict[str, Sequence[object]] | None = None,
) -> EvaluationResult:
    """Score ``outputs`` with every requested metric.

    :param requests: from :func:`resolve_metrics`.
    :param references: item-major (``references[i]`` lists item i's references) or None.
    :param sentence_level: compute per-item scores (batched, cached per batch).
    :param corpus_level: compute corpus scores (a metric's own corpus formula, else
        the mean of its per-item scores).
    :param cache: where finished batches are stored; None disables caching.
    :param progress: show a progress bar over items x metrics.
    :param fields: per-item values (``{"target": [...]}``) given to the metrics whose
        ``item_fields`` name them.
    """
    for request in requests:
        request.metric.check_inputs(sources, outputs, references)
    result = EvaluationResult(n_items=len(outputs))
    total = len(outputs) * len(requests)
    with _progress_bar(total, progress) as bar:
        for request in requests:
            metric = request.metric
            signature = signature_with_refs(metric, references)
            wanted = {k: v for k, v in (fields or {}).items() if k in metric.item_fields}
            per_item: dict[str, list[float]] | None = None
            if sentence_level or (corpus_level and not metric.corpus_level):
                per_item = _score_batches(metric, signature, sources, outputs, references, cache, batch_size, bar, wanted)
            else:
                bar.update(len(outputs))
            corpus: dict[str, float] = {}
            if corpus_level:
                corpus = _score_corpus(metric, signature, sources, outputs, references, cache, per_item, wanted)
            for sub in request.report:
                result.signatures[sub] = signature
                result.higher_is_better[sub] = metric.is_higher_better(sub)
                if sentence_level and per_item is not None:
                    result.sentence_scores[sub] = per_item[sub]
                if corpus_level:
                    result.corpus_scores[sub] = corpus[sub]
    return result


def _score_batches(
    metric: Metric,
    signature: str,
    sources: Sequence[str],
    outputs: Sequence[str],
    references: Sequence[Sequence[str]] | None,
    cache: ScoreCache | None,
    batch_size: int,
    bar: Any,
    fields: dict[str, Sequence[object]],
) -> dict[str, list[float]]:
    scores: dict[str, list[float]] = {sub: [] for sub in metric.score_names()}
    for start in range(0, len(outputs), batch_size):
        stop = start + batch_size
        batch = (sources[start:stop], outputs[start:stop], None if references is None else references[start:stop])
        extra = {k: list(v[start:stop]) for k, v in fields.items()}
        cached = _cached(cache, signature, "sentence", (*batch, extra), lambda: metric.sentence_scores(*batch, **extra),
                         lambda value: check_sentence_scores(value, metric.score_names(), len(batch[1])))
        for sub, values in cached.items():
            scores[sub].extend(values)
        bar.update(len(batch[1]))
    return scores


def _score_corpus(
    metric: Metric,
    signature: str,
    sources: Sequence[str],
    outputs: Sequence[str],
    references: Sequence[Sequence[str]] | None,
    cache: ScoreCache | None,
    per_item: dict[str, list[float]] | None,
    fields: dict[str, Sequence[object]],
) -> dict[str, float]:
    if not metric.corpus_level and per_item is not None:
        return {sub: mean_ignoring_nan(values) for sub, values in per_item.items()}
    extra = {k: list(v) for k, v in fields.items()}
    return _cached(cache, signature, "corpus", (sources, outputs, references, extra),
                   lambda: metric.corpus_score(sources, outputs, references, **extra),
                   lambda value: check_corpus_scores(value, metric.score_names()))


def _cached(cache: ScoreCache | None, signature: str, kind: str, inputs: tuple, compute: Any, check: Check) -> Any:
    """``compute()``, or its stored value for this signature, kind and inputs if ``check`` accepts it.

    A new value is stored only when ``check`` accepts it, so every entry written can be read back.
    """
    if cache is None:
        return compute()
    key = input_key(signature, kind, *inputs)
    value = cache.get(key, check)
    if value is None:
        value = compute()
        if check(value) is None:
            cache.put(key, value)
    return value


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
