"""One meta-evaluation, end to end: load the dataset, gather metric scores, split, correlate, test.

:func:`run_meta_evaluation` is the single library call behind ``simpeval meta-evaluate``;
the command only parses options into a :class:`Request` and formats the :class:`Report`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from simpeval.errors import UsageError
from simpeval.metaeval import LEVELS
from simpeval.metaeval.engine import MetaEvaluation, Settings, meta_evaluate, resampling_work
from simpeval.metaeval.splits import Split, make_split
from simpeval.progress import progress_bar

if TYPE_CHECKING:
    from simpeval.cache import ScoreCache
    from simpeval.datasets.base import Dataset
    from simpeval.engine.parallel import BatchExecutor
    from simpeval.registry import Registry


@dataclass
class Request:
    """What to meta-evaluate and how (the options of ``simpeval meta-evaluate``)."""

    dataset: str
    data_dir: Path
    metrics: list[str] | None = None  # -m specs; None: the defaults, unless --scores is given
    aspect: str | None = None  # None: the dataset's first aspect
    raw: bool = False
    references: str | None = None  # None: the dataset's default set
    level: str = "sentence"
    split: str | None = None  # None: quality at sentence level, none at system level
    ties: str = "order"
    settings: Settings = field(default_factory=Settings)
    scores: list[Path] = field(default_factory=list)
    score_columns: list[str] | None = None
    preset: str | None = None
    lang: str | None = None  # the language of the texts (ISO 639-1); None: the dataset's own
    seed: int = 0
    cache: ScoreCache | None = None
    progress: bool = False  # progress bars (scoring, resampling) on standard error
    executor: BatchExecutor | None = None  # --jobs / --dask (simpeval.engine.parallel); None: serial
    item_split: str | None = None  # only the items of this declared split (Dataset.item_splits), e.g. "test";
    # None: the dataset's default_split (ReadMe++: test), else every item


@dataclass
class Report:
    """The result, with what is needed to describe and plot it."""

    request: Request
    dataset: Dataset
    aspect: str
    references: str | None
    human: np.ndarray  # per unit (item or system)
    scores: dict[str, np.ndarray]
    split: Split
    result: MetaEvaluation
    signatures: dict[str, str] = field(default_factory=dict)


def run_meta_evaluation(registry: Registry, request: Request) -> Report:
    """Run ``request`` (see the module docstring)."""
    if request.level not in LEVELS:
        raise UsageError(f'unknown level "{request.level}": choose sentence or system')
    registry.check_preset(request.preset)
    if getattr(registry.dataset_class(request.dataset), "kind", "rated") == "pairwise":
        raise UsageError(f'"{request.dataset}" is a pairwise dataset, with no score to correlate: use '
                         f"`simpeval meta-evaluate --dataset {request.dataset}` (agreement on its pairs) or "
                         "simpeval.metaeval.pairrun.run_pairs")
    if request.level == "system" and getattr(registry.dataset_class(request.dataset), "kind", "rated") == "text":
        raise UsageError(f'"{request.dataset}" rates single texts, not the outputs of systems: use --level sentence')
    dataset = registry.dataset_class(request.dataset)(request.data_dir)
    item_split = request.item_split or dataset.default_split
    notes = []
    if item_split is not None:  # the other items are neither scored nor correlated
        total, dataset = len(dataset), dataset.only_split(item_split)
        if request.item_split is None:
            notes.append(f"{dataset.name}: its {item_split} split only ({len(dataset)} of {total} items; the "
                         "others are for training metrics)")
    aspect = request.aspect or dataset.aspects[0]
    human = dataset.human_scores(aspect, raw=request.raw)
    references = request.references or dataset.default_references
    systems = list(dict.fromkeys(item.system for item in dataset.items)) if request.level == "system" else None
    scores, signatures, warnings = _gather_scores(registry, request, dataset, references, systems)
    if systems is None:
        unit_human = human
        unit_types = [item.system_type for item in dataset.items]
        groups: list[str] | None = [item.source for item in dataset.items]
    else:
        unit_human = _system_means(human, dataset, systems)
        first_type: dict[str, str] = {}
        for item in dataset.items:
            first_type.setdefault(item.system, item.system_type)
        unit_types, groups = [first_type[s] for s in systems], None
    sentence_types = [item.sentence_type for item in dataset.items] if systems is None else []
    split = make_split(request.split or ("quality" if systems is None else "none"), unit_human, unit_types,
                       request.ties, sentence_types)
    if systems is None:
        split = _without_repeated_rows(split, dataset)
    selection = None
    if request.settings.correlation in ("wmt-kendall", "lens-kendall") and groups is None:
        correlation = request.settings.correlation
        raise UsageError(f"{correlation} compares outputs of the same source: use it with --level sentence")
    average_keys = _average_keys(request, dataset)
    if request.settings.correlation == "wmt-kendall":
        selection = dataset.human_scores(aspect, raw=True)
    if request.settings.correlation == "lens-kendall":
        # LENS pairs outputs of the same original and the same sentence type, voted on by each rater
        groups = [f"{item.source}\x00{item.sentence_type}" for item in dataset.items]
        selection = dataset.ratings(aspect).matrix()
    work = resampling_work(request.settings, split, len(scores))
    try:
        with progress_bar(work, request.progress and work > 0, desc="resampling", unit="resample") as bar:
            result = meta_evaluate(unit_human, scores, split, request.settings, request.seed,
                                   groups=groups, selection=selection, average_keys=average_keys, tick=bar.update)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    result.warnings[:0] = [*notes, *getattr(dataset, "warnings", []), *warnings]
    return Report(request, dataset, aspect, references, unit_human, scores, split, result, signatures)


def _without_repeated_rows(split: Split, dataset: Dataset) -> Split:
    """``split`` without the rows that repeat an earlier row's item key (a row pasted twice into a ratings
    file): each item counts once in every correlation, and a warning says how many were left out."""
    seen: set = set()
    repeats = []
    for i, key in enumerate(dataset.keys):
        if key in seen:
            repeats.append(i)
        seen.add(key)
    if not repeats:
        return split
    first = dataset.keys[repeats[0]]
    warning = (f"{len(repeats)} rows of {dataset.name} repeat an earlier row's item "
               f"({', '.join(map(str, first))} first): each item is counted once (its first row)")
    return Split({name: np.setdiff1d(idx, repeats) for name, idx in split.groups.items()},
                 [*split.warnings, warning])


def _average_keys(request: Request, dataset: Dataset) -> list[str] | None:
    """Each item's group for ``--average-by``: its source (item) or its system; None for ``none``."""
    settings = request.settings
    if settings.correlation == "pairwise-accuracy" and request.level != "system":
        raise UsageError("pairwise-accuracy orders systems: use it with --level system "
                         "(at sentence level, acc23 is the pairwise accuracy of items)")
    if settings.average_by == "none":
        return None
    if request.level != "sentence":
        raise UsageError(f"--average-by {settings.average_by} groups sentence scores: "
                         "use it with --level sentence, or drop it")
    if settings.average_by == "item":
        return [item.source for item in dataset.items]
    return [item.system for item in dataset.items]


def _gather_scores(
    registry: Registry, request: Request, dataset: Dataset, references: str | None, systems: list[str] | None
) -> tuple[dict[str, np.ndarray], dict[str, str], list[str]]:
    """Computed metrics and ``--scores`` columns, per item or (``systems``) per system."""
    from simpeval.metaeval.compute import check_output_only, compute_scores, default_metric_specs
    from simpeval.metaeval.scores import join_scores

    specs = request.metrics
    if specs is None and not request.scores:
        specs = default_metric_specs(registry, dataset.has_references(references), request.lang or dataset.lang,
                                     dataset.kind)
    if specs and dataset.kind == "text":
        check_output_only(registry, specs, dataset.name)
    scores: dict[str, np.ndarray] = {}
    signatures: dict[str, str] = {}
    warnings: list[str] = []
    if specs:
        computed = compute_scores(registry, dataset, specs, preset=request.preset, references=references,
                                  lang=request.lang,
                                  systems=systems, cache=request.cache, progress=request.progress,
                                  executor=request.executor)
        scores.update(computed.scores)
        signatures.update(computed.signatures)
    for path in request.scores:
        joined = join_scores(path, dataset.keys, dataset.key_columns, references, request.score_columns)
        warnings.extend(joined.warnings)
        clash = sorted(set(joined.scores) & set(scores))
        if clash:
            raise UsageError(f"--scores {path} repeats {', '.join(clash)}: pick other columns with --score-columns")
        for name, values in joined.scores.items():
            scores[name] = values if systems is None else _system_means(values, dataset, systems)
            signatures[name] = f"scores:{path.name}"
    if not scores:
        raise UsageError("nothing to meta-evaluate: pass -m NAME or --scores CSV")
    return scores, signatures, warnings


def _system_means(values: np.ndarray, dataset: Dataset, systems: list[str]) -> np.ndarray:
    """Mean of each system's per-item ``values``, missing (nan) items left out; nan if all are."""
    item_systems = np.array([item.system for item in dataset.items])
    out = np.full(len(systems), np.nan)
    for k, system in enumerate(systems):
        chunk = values[item_systems == system]
        if np.isfinite(chunk).any():
            out[k] = np.nanmean(chunk)
    return out
