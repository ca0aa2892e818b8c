"""What to score: metric requests from ``-m`` specs, and the signature each score carries.

:func:`resolve_metrics` turns ``-m`` specs into :class:`MetricRequest` objects (one metric
instance and the sub-scores to report from it); :class:`MetricSpecs` keeps specs unresolved
until a plan's inputs are open, so a missing file is reported before an unknown metric.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from simpeval.errors import UsageError
from simpeval.languages import ENGLISH

if TYPE_CHECKING:
    from simpeval.metrics.base import Metric
    from simpeval.registry import Registry

@dataclass
class MetricRequest:
    """One metric instance and the sub-scores to report from it."""

    metric: Metric
    report: list[str]


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
    registry: Registry, specs: Iterable[str], preset: str | None = None, lang: str = ENGLISH
) -> list[MetricRequest]:
    """Turn ``-m`` specs into metric instances; sub-scores of one metric with the same options share it.

    ``-m sari-add,sari-del`` builds one SARI metric and reports both sub-scores;
    ``-m sari`` reports all of SARI's sub-scores. One metric asked for twice with
    different options (``-m bleu -m bleu:tokenizer=none``) is a :class:`UsageError`
    naming both: the results would carry one name for two different numbers. Every metric scores
    texts in ``lang`` (ISO 639-1); one without rules for it is a :class:`UsageError` naming its languages.
    """
    registry.check_preset(preset)
    requests: dict[str, tuple[tuple, str, MetricRequest]] = {}
    for name, options in parse_metric_specs(specs):
        name, options = registry.resolve(name, options, preset)
        cls = registry.metric_class(name)
        settings = tuple(sorted(options.items()))
        if cls.name not in requests:
            metric = registry.create_metric(cls.name, options, preset, lang)
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


def nrefs_of(references: Sequence[Sequence[str]] | None) -> str | None:
    """What a signature shows as ``nrefs`` for item-major ``references``: their count, ``var`` when
    items differ, None without references."""
    if references is None:
        return None
    counts = {len(r) for r in references}
    return str(counts.pop()) if len(counts) == 1 else "var"


def signature_with_refs(metric: Metric, references: Sequence[Sequence[str]] | None) -> str:
    """The metric's signature with ``nrefs`` after its name (``var`` when items differ)."""
    return signature_with_nrefs(metric, nrefs_of(references))


def signature_with_nrefs(metric: Metric, nrefs: str | None) -> str:
    """The metric's signature with ``nrefs:NREFS`` after its name (None: no references given),
    on one line (:func:`one_line_signature`)."""
    signature = one_line_signature(metric.signature())
    if nrefs is None or not metric.requires_references:
        return signature
    name, _, rest = signature.partition("|")
    return f"{name}|nrefs:{nrefs}|{rest}"


_BREAKS = {code: f"\\u{code:04x}" for code in (*range(0x20), 0x7F, 0x85, 0x2028, 0x2029)}
_BREAKS.update({ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t"})


def one_line_signature(signature: str) -> str:
    """``signature`` with control characters and line separators written as escapes (``\\n``).

    A signature is printed on ``#`` lines, in table rows and CSV cells; a line break in it (an
    option's text, a plugin's own ``signature``) would start a line that is neither. A
    signature without such characters, which is every built-in one, is returned unchanged,
    and so are the cache keys made from it.
    """
    return signature.translate(_BREAKS)


def has_corpus_statistics(metric: Metric) -> bool:
    """Whether ``metric`` scores its corpus from summed statistics (see ``Metric.corpus_statistics``;
    they take no per-item fields, so a metric that reads some scores its corpus at once)."""
    return metric.has_statistics() and not metric.item_fields


def streamable(requests: Sequence[MetricRequest]) -> bool:
    """Whether every metric's corpus score can be had batch by batch: from summed statistics,
    or as the mean of its sentence scores."""
    return all(has_corpus_statistics(r.metric) or not r.metric.corpus_level for r in requests)


@dataclass
class MetricSpecs:
    """``-m`` specs resolved when a plan runs (after its inputs are open and counted).

    :param specs: ``-m`` values; empty: :data:`DEFAULT_METRICS_WITH_REFS` when the inputs
        have references, else :data:`DEFAULT_METRICS_WITHOUT_REFS`.
    """

    registry: Registry
    specs: Sequence[str] = ()
    preset: str | None = None
    lang: str = ENGLISH
    """The language of the texts (ISO 639-1)."""
    resolved: list[MetricRequest] = field(default_factory=list)
    """The requests of the last :meth:`resolve`."""

    def resolve(self, has_references: bool) -> list[MetricRequest]:
        specs = default_specs(self.specs, has_references, self.lang)
        self.resolved = resolve_metrics(self.registry, specs, self.preset, self.lang)
        return self.resolved


DEFAULT_METRICS_WITH_REFS = "bleu,sari,fkgl"
DEFAULT_METRICS_WITHOUT_REFS = "fkgl"
"""``simpeval evaluate``'s metrics when none are named."""


def default_specs(specs: Sequence[str], has_references: bool, lang: str = ENGLISH) -> tuple[str, ...]:
    """``specs``, or the default metrics when there are none; in a language other than English the
    readability score is ``fre`` (the language's Flesch Reading Ease), FKGL being English."""
    if specs:
        return tuple(specs)
    default = DEFAULT_METRICS_WITH_REFS if has_references else DEFAULT_METRICS_WITHOUT_REFS
    return (default if lang == ENGLISH else default.replace("fkgl", "fre"),)
