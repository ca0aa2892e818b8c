"""Score a dataset's outputs with registered metrics through the evaluation engine (and its cache).

At sentence level every item is scored once. At system level each system's outputs are scored
as a corpus, so metrics with a corpus formula (BLEU, SARI, FKGL) give the corpus score a
system would report, and the others the mean of their sentence scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from simpeval.errors import UsageError
from simpeval.languages import ENGLISH

if TYPE_CHECKING:
    from simpeval.cache import ScoreCache
    from simpeval.datasets.base import Dataset
    from simpeval.engine.parallel import BatchExecutor
    from simpeval.registry import Registry

# The metrics simpeval computes for Table 3 of Alva-Manchego et al. (2021), all on CPU.
DEFAULT_METRICS = ("bleu", "ibleu", "sari", "bleu-sari-amean", "bleu-sari-gmean", "fkbleu", "fkgl")


@dataclass
class ComputedScores:
    """Scores per metric name: per item (sentence level) or per system (system level)."""

    scores: dict[str, np.ndarray] = field(default_factory=dict)
    signatures: dict[str, str] = field(default_factory=dict)


def default_metric_specs(registry: Registry, with_references: bool, lang: str = ENGLISH,
                         kind: str = "rated") -> list[str]:
    """The :data:`DEFAULT_METRICS` that are installed (and need no references, if there are none) and
    have rules for language ``lang``; for a dataset of single texts (``kind`` ``"text"``), every
    installed non-neural score that reads the output alone (``Metric.output_only``) in ``lang``."""
    if kind == "text":
        specs = [score for name, cls in sorted(registry.metrics.items()) if not cls.neural
                 for score in cls.score_names() if score in cls.output_only and registry.supports(name, lang)]
        if not specs:
            raise UsageError(f"no installed metric reads a text alone in language {lang}: pass -m NAME or --scores CSV")
        return specs
    specs = [
        name
        for name in DEFAULT_METRICS
        if registry.sub_score_owner(name) is not None
        and (with_references or not registry.metric_class(name).requires_references)
        and registry.supports(name, lang)
    ]
    if not specs:
        raise UsageError("none of the default metrics is installed: pass -m NAME (see `simpeval metrics list`)")
    return specs


def check_output_only(registry: Registry, specs: Sequence[str], dataset: str) -> None:
    """:class:`UsageError` for the first of ``specs`` (``-m`` syntax) that needs a source/output difference or
    references: dataset ``dataset`` rates single texts, each scored as the output with itself as the source."""
    from simpeval.runner import parse_metric_specs

    for name, _ in parse_metric_specs(list(specs)):
        cls = registry.metric_class(name)
        wanted = [name] if name in cls.score_names() else list(cls.score_names())
        if not set(wanted) <= cls.output_only:
            usable = ", ".join(sorted(cls.output_only)) or "none of its scores"
            raise UsageError(f'dataset "{dataset}" rates single texts (the text is the output and its own source): '
                             f'"{name}" compares an output with its source or references; use a score that reads '
                             f"the output alone ({cls.name}: {usable})")


def _reported_names(registry: Registry, names: Sequence[str]) -> list[str]:
    """The score each ``-m`` name stands for: itself when it is a score (``sari``, ``sari-add``);
    every sub-score of a metric whose name is none of its scores (``qe``: its features)."""
    reported: list[str] = []
    for name in names:
        cls = registry.metric_class(name)
        subs = list(cls.score_names())
        reported.extend(subs if name == cls.name and name not in subs else [name])
    return list(dict.fromkeys(reported))


def compute_scores(
    registry: Registry,
    dataset: Dataset,
    specs: Sequence[str],
    *,
    preset: str | None = None,
    references: str | None = None,
    systems: Sequence[str] | None = None,
    cache: ScoreCache | None = None,
    progress: bool = False,
    executor: BatchExecutor | None = None,
    with_references: bool | None = None,
    lang: str | None = None,
) -> ComputedScores:
    """Score ``dataset`` with the metrics named in ``specs`` (``-m`` syntax).

    Each spec reports the score it names (``sari`` -> SARI's primary score, ``sari-add`` ->
    that sub-score), not every sub-score of its metric.

    :param references: the reference set (default: the dataset's own); loaded only if a
        requested metric needs references.
    :param systems: score per system (system level) in this order; None: per item.
    :param lang: the language of the texts (ISO 639-1); None: the dataset's own (``Dataset.lang``).
    :param with_references: give every metric the references (and the sources that go with them)
        even if none of ``specs`` needs them; None: only if one does. The inputs are in the score
        cache's key, so a reference-free metric scored alone is found again when scored beside a
        reference-based one only if both runs pass the same (``simpeval leaderboard`` relies on it).
    """
    from simpeval.metaeval.presets import prepare_inputs
    from simpeval.run import Run
    from simpeval.runner import parse_metric_specs, resolve_metrics

    requests = resolve_metrics(registry, specs, preset, lang or dataset.lang)
    # the names the scores carry (a preset may name them for their formula: bleu -> gleu-nltk); a metric
    # whose name is none of its scores (qe) stands for its sub-scores
    wanted = _reported_names(registry, [registry.resolve(name, options, preset)[0]
                                        for name, options in parse_metric_specs(specs)])
    refs = None
    sources, outputs = dataset.sources, dataset.outputs
    if with_references or (with_references is None and any(r.metric.requires_references for r in requests)):
        refs = dataset.references(references)
        sources = dataset.metric_sources(references or dataset.default_references)
    item_systems = [item.system for item in dataset.items]
    out = ComputedScores()
    with Run(cache=cache, executor=executor) as run:  # one run for every system: each model loads once
        if refs is None or all(r is not None for r in refs):
            texts = prepare_inputs(registry, preset, dataset, sources, outputs, refs)
            _score_lists(out, requests, wanted, *texts, item_systems, systems, run, progress)
            return out
        # some items have no references (a dataset mixing reference-free items in): reference-based metrics
        # score the others and are undefined (nan) there; reference-free ones score every item without references
        based = {name for name in wanted if registry.metric_class(name).requires_references}
        free = [r for r in requests if not r.metric.requires_references]
        if free:
            texts = prepare_inputs(registry, preset, dataset, dataset.sources, outputs, None)
            _score_lists(out, free, [n for n in wanted if n not in based], *texts, item_systems, systems, run,
                         progress)
        if based:
            keep = [i for i, r in enumerate(refs) if r is not None]
            texts = prepare_inputs(registry, preset, dataset, [sources[i] for i in keep],
                                   [outputs[i] for i in keep], [refs[i] for i in keep])
            part = ComputedScores()
            _score_lists(part, [r for r in requests if r.metric.requires_references],
                         [n for n in wanted if n in based], *texts, [item_systems[i] for i in keep], systems, run,
                         progress)
            for name, values in part.scores.items():
                if systems is None:
                    out.scores[name] = np.full(len(outputs), np.nan)
                    out.scores[name][keep] = values
                else:
                    out.scores[name] = values
            out.signatures.update(part.signatures)
        out.scores = {name: out.scores[name] for name in wanted}
    return out


def _score_lists(out: ComputedScores, requests, wanted: list[str], sources: list[str], outputs: list[str],
                 refs: list[list[str]] | None, item_systems: list[str], systems: Sequence[str] | None, run,
                 progress: bool) -> None:
    """Score the items (``systems`` None) or each system's items as a corpus into ``out``; a system
    without items scores nan."""
    from simpeval.runner import evaluate

    if systems is None:
        result = evaluate(requests, sources, outputs, refs, sentence_level=True, corpus_level=False,
                          progress=progress, run=run)
        for name in wanted:
            out.scores[name] = np.array(result.sentence_scores[name], dtype=float)
    else:
        per_system: dict[str, list[float]] = {name: [] for name in wanted}
        owners = np.array(item_systems)
        for system in systems:
            idx = np.flatnonzero(owners == system)
            if not len(idx):
                for name in wanted:
                    per_system[name].append(float("nan"))
                continue
            result = evaluate(
                requests, [sources[i] for i in idx], [outputs[i] for i in idx],
                None if refs is None else [refs[i] for i in idx],
                sentence_level=False, corpus_level=True, progress=progress, run=run,
            )
            for name in wanted:
                per_system[name].append(result.corpus_scores[name])
        out.scores.update({name: np.array(values) for name, values in per_system.items()})
    for name in wanted:
        out.signatures[name] = result.signatures[name]
