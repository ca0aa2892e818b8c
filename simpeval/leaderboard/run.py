"""Every metric on every human-rated dataset and aspect: the cells of ``simpeval leaderboard``.

A *cell* is one (dataset, aspect): every metric's correlation with the human scores over the
dataset's items (``--split none``), its 95% bootstrap interval, and its significance cluster
among the metrics of that cell (:func:`simpeval.ranks.cluster_ranks`, via ``meta-evaluate
--rank``). Each cell is computed by :func:`simpeval.metaeval.run.run_meta_evaluation`, so metric
scores go through the runner, its score cache and ``--jobs``/``--dask``; the finished cell is
stored in the score cache too, under a key naming everything it depends on (each metric's cache
key: signature with model fingerprints, formula version and code), so an interrupted leaderboard
resumes where it stopped, a finished one is re-rendered for free, and a metric whose weights or
code changed has its cells recomputed while the other metrics' scores are read from the cache.

With a cache, each metric scores each dataset once before the cells are correlated, timed and
counted (:class:`Scoring`): the page says which scorings were computed in this run and which
were read from the cache, and for the latter how long they took when they were computed.

A dataset whose files are missing becomes a :class:`Missing` entry with the loader's message
(which says where to get it). A reference-based metric is left out of a dataset without
references. A learned metric is marked on a dataset its ``trained_on`` names and on every
dataset that shares items with one it names (:mod:`simpeval.leaderboard.overlap`: WIKI-DA's
items are all Simplicity-DA's). The marks are set on every run from the metrics' current
``trained_on`` and the data, never read from the cache.
"""

from __future__ import annotations

import os
import time
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from simpeval.errors import UsageError
from simpeval.languages import ENGLISH
from simpeval.leaderboard.overlap import Items, Overlap, overlaps

if TYPE_CHECKING:
    from simpeval.cache import ScoreCache
    from simpeval.engine.parallel import BatchExecutor
    from simpeval.registry import Registry

#: the dataset kinds with a human score per item to correlate (pairwise ones have only preferences)
CORRELATED = ("rated", "text")
CELL_VERSION = "2"  # bump when a cell's content changes for the same inputs
#: The code a cell's numbers come from besides the metrics' (correlations, bootstrap, significance
#: clusters): in every cell key, so a fix there recomputes the cells instead of serving old ones.
CELL_CODE = ("metaeval", "ranks.py", "significance.py", "leaderboard/run.py")


@dataclass
class Entry:
    """One sub-score in one cell."""

    metric: str  # the sub-score
    family: str  # the metric that computes it (its signature's first field)
    r: float | None
    ci_low: float | None
    ci_high: float | None
    rank: int | None
    n: int
    trained_on: bool = False  # its weights saw items of this dataset in training
    seen_in: list[str] = field(default_factory=list)  # the training datasets holding them


@dataclass
class Cell:
    """One dataset and aspect."""

    dataset: str
    aspect: str
    items: int
    references: str | None
    split: str  # the items used: "all", or a declared split such as "test"
    entries: list[Entry] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # metrics left out, with why


@dataclass
class Scoring:
    """One metric scoring one dataset: score-cache entries computed in this run and read back."""

    metric: str
    dataset: str
    items: int
    computed: int
    cached: int
    seconds: float  # in this run
    first: dict | None = None  # when every entry was cached: {"seconds", "load", "date", "partial"} of the run
    # that computed them (partial: it resumed an interrupted one, whose time is not known)

    @property
    def status(self) -> str:
        return "cached" if self.computed == 0 else "computed" if self.cached == 0 else "resumed"


@dataclass
class Work:
    """What this run computed and what it read from the cache."""

    cells_computed: int = 0
    cells_cached: int = 0
    scorings: list[Scoring] = field(default_factory=list)


@dataclass
class Missing:
    """A registered dataset that could not be loaded, and how to get it."""

    dataset: str
    reason: str


@dataclass
class Board:
    """Everything a leaderboard page shows."""

    cells: list[Cell]
    missing: list[Missing]
    trained_on: dict[str, tuple[str, ...]] = field(default_factory=dict)  # learned metric -> its training data
    overlaps: list[Overlap] = field(default_factory=list)  # rated datasets sharing items with training data
    checked: list[str] = field(default_factory=list)  # training data whose items were compared
    unchecked: list[str] = field(default_factory=list)  # training data that could not be read
    work: Work = field(default_factory=Work)
    # document level: agreement on the pairwise datasets' pairs and on the perturbation sets
    # (simpeval.metaeval.pairrun.PairRecord, one per metric and dataset or set)
    pairs: list = field(default_factory=list)
    perturbations: list = field(default_factory=list)
    signatures: dict[str, str] = field(default_factory=dict)  # metric -> its signature (nrefs: per dataset)


@dataclass(frozen=True)
class Plan:
    """What to compute: the options of ``simpeval leaderboard``."""

    data_dir: Path
    metrics: list[str]  # -m specs
    datasets: list[str] | None = None  # None: every registered dataset
    correlation: str = "pearson"
    significance: str = "williams"
    bootstrap: int = 1000
    alpha: float = 0.05
    seed: int = 0
    split: str | None = None  # "test": only items of declared test splits
    left_out: list[str] = field(default_factory=list)  # installed metrics not on the board, with why
    level: str = "sentence"  # the datasets of this level (Dataset.level) when ``datasets`` is None
    lang: str | None = None  # only the datasets in this language (ISO 639-1); None: every one, each in its own


def run_leaderboard(registry: Registry, plan: Plan, cache: ScoreCache | None = None,
                    executor: BatchExecutor | None = None, progress=None) -> Board:
    """Every cell of ``plan`` (cached cells reused), the datasets that are missing, the training
    marks with the overlaps behind them, and what was computed versus read from the cache."""
    from simpeval.cache import check_cell, check_scoring_record
    from simpeval.metaeval.engine import Settings
    from simpeval.metaeval.run import Request, run_meta_evaluation

    work = Work()
    cells, missing, columns = [], [], {}
    rated = [n for n in plan.datasets if getattr(registry.datasets[n], "kind", "rated") in CORRELATED] \
        if plan.datasets else board_datasets(registry, plan.level)
    for name in rated:
        if plan.lang is not None and registry.dataset_class(name).lang != plan.lang:
            continue
        try:
            dataset = registry.dataset_class(name)(plan.data_dir)
            len(dataset)  # reads the files
        except UsageError as exc:
            missing.append(Missing(name, str(exc)))
            continue
        item_split = _item_split(dataset, plan.split)
        if item_split is not None:  # the other items are neither scored nor correlated
            dataset = dataset.only_split(item_split)
        columns[name] = Items.of(dataset.sources, dataset.outputs)
        specs, skipped = _usable(registry, plan.metrics, dataset)
        keys = metric_keys(registry, specs, dataset.lang)
        used = [keys[family] for family in _families(registry, specs)]
        cell_keys = {aspect: _cell_key(plan, dataset, aspect, specs, used) for aspect in dataset.aspects}
        if cache is not None and specs and any(cache.get(k, check_cell) is None for k in cell_keys.values()):
            work.scorings += score_dataset(registry, dataset, specs, keys, cache, executor, progress)
        elif cache is not None:  # nothing to score: what the scorings cost when they were computed
            work.scorings += [Scoring(family, name, len(dataset), 0, 0, 0.0,
                                      cache.get(_record_key(keys[family], dataset), check_scoring_record))
                              for family in _families(registry, specs)]
        for aspect in dataset.aspects:
            key = cell_keys[aspect]
            stored = cache.get(key, check_cell) if cache is not None else None
            if stored is not None:
                cells.append(_cell_from_json(stored))
                work.cells_cached += 1
                continue
            work.cells_computed += 1
            if progress is not None:
                progress(f"{name} / {aspect}")
            cell = Cell(name, aspect, len(dataset), dataset.default_references, item_split or "all", [], skipped)
            if specs:
                settings = Settings(correlation=plan.correlation, significance=plan.significance, alpha=plan.alpha,
                                    bootstrap=plan.bootstrap, rank=True)
                report = run_meta_evaluation(registry, Request(
                    dataset=name, data_dir=plan.data_dir, metrics=specs, aspect=aspect, split="none",
                    settings=settings, seed=plan.seed, cache=cache, executor=executor, item_split=item_split))
                for rec in report.result.records:
                    family = report.signatures.get(rec.metric, rec.metric).split("|", 1)[0]
                    cell.entries.append(Entry(rec.metric, family, _finite(rec.r), rec.ci_low, rec.ci_high, rec.rank,
                                              rec.n))
            if cache is not None:
                cache.put(key, asdict(cell))
            cells.append(cell)
    board = Board(cells, missing, trained_on=_trained_on(registry, plan.metrics), work=work,
                  signatures=signatures(registry, plan.metrics))
    if plan.level == "document":
        board.pairs, board.perturbations = _pairwise(registry, plan, cache, executor, progress, missing)
    training = {t for names in board.trained_on.values() for t in names}
    board.overlaps, board.unchecked = overlaps(registry, plan.data_dir, columns, training)
    board.checked = sorted(training - set(board.unchecked))
    mark_training(board)
    return board


def _pairwise(registry: Registry, plan: Plan, cache, executor, progress, missing: list[Missing]) -> tuple[list, list]:
    """Document level: every metric's agreement on each pairwise dataset's pairs (``plan.datasets`` or every
    registered pairwise document dataset) and on the perturbation sets (unless ``plan.datasets`` names others)."""
    from simpeval.datasets.dwiki import perturbation_sets
    from simpeval.metaeval.pairrun import run_pairs

    names = [name for name in (plan.datasets or sorted(registry.datasets))
             if getattr(registry.datasets[name], "kind", "rated") == "pairwise"
             and getattr(registry.datasets[name], "level", "sentence") == "document"]
    found = []
    for name in names:
        try:
            found.append(registry.dataset_class(name)(plan.data_dir))
        except UsageError as exc:
            missing.append(Missing(name, str(exc)))
    sets = []
    if plan.datasets is None:
        try:
            sets = perturbation_sets(plan.data_dir)
        except UsageError as exc:
            missing.append(Missing("dwiki-perturbations", str(exc)))
    records = []
    for group in (found, sets):
        usable = _usable(registry, plan.metrics, group[0])[0] if group else []
        if progress is not None and group:
            progress(f"pairs: {', '.join(d.name for d in group)}")
        records.append(run_pairs(registry, group, usable, bootstrap=plan.bootstrap, seed=plan.seed, cache=cache,
                                 executor=executor) if usable else [])
    return records[0], records[1]


def board_datasets(registry: Registry, level: str) -> list[str]:
    """The registered rated datasets of ``level`` (pairwise ones have no score to correlate), by name.

    ``level="languages"``: the rated datasets in other languages than English and every dataset of rated
    single texts (readability, ReadMe++'s English included, beside its other languages); the sentence
    and document boards leave them to it."""
    def on_board(cls) -> bool:
        kind = getattr(cls, "kind", "rated")
        if kind not in CORRELATED:
            return False
        other = kind == "text" or getattr(cls, "lang", ENGLISH) != ENGLISH
        return other if level == "languages" else not other and getattr(cls, "level", "sentence") == level

    return sorted(name for name, cls in registry.datasets.items() if on_board(cls))


def mark_training(board: Board) -> None:
    """Mark each learned metric's entries on the datasets its training data shares items with
    (a dataset it names shares all of them), and on no other."""
    shared = defaultdict(set)
    for overlap in board.overlaps:
        shared[overlap.dataset].add(overlap.training)
    for cell in board.cells:
        for entry in cell.entries:
            names = board.trained_on.get(entry.family, ())
            entry.seen_in = sorted(t for t in names if t == cell.dataset or t in shared[cell.dataset])
            entry.trained_on = bool(entry.seen_in)


def _finite(value: float) -> float | None:
    return None if value != value else float(value)


def _usable(registry: Registry, specs: list[str], dataset) -> tuple[list[str], list[str]]:
    """The specs that can score ``dataset`` (reference-based ones need its references), and the others."""
    usable, skipped = [], []
    has_refs = dataset.default_references is not None and dataset.has_references(dataset.default_references)
    for spec in specs:
        cls = registry.metric_class(spec.split(":", 1)[0])
        if cls.requires_references and not has_refs:
            skipped.append(f"{spec}: needs references, which the dataset has none of")
        elif dataset.kind == "text" and spec.split(":", 1)[0] not in cls.output_only:
            skipped.append(f"{spec}: compares an output with its source, and the dataset rates single texts")
        elif not registry.supports(cls.name, dataset.lang):
            skipped.append(f"{spec}: has no rules for the dataset's language ({dataset.lang})")
        else:
            usable.append(spec)
    return usable, skipped


def _item_split(dataset, split: str | None) -> str | None:
    """The declared split to keep (the one asked, else the dataset's ``default_split``), or None to keep
    every item (none declared, or none asked and no default)."""
    if dataset.item_splits() is None:
        return None
    return split or dataset.default_split


def _trained_on(registry: Registry, specs: list[str]) -> dict[str, tuple[str, ...]]:
    """The learned metrics among ``specs`` and the datasets their shipped weights saw."""
    out = {}
    for spec in specs:
        cls = registry.metric_class(spec.split(":", 1)[0])
        if getattr(cls, "trained_on", ()):
            out[cls.name] = tuple(cls.trained_on)
    return out


def signatures(registry: Registry, specs: list[str]) -> dict[str, str]:
    """Per metric (family) among ``specs``, its printed signature: the settings behind every cell of its
    row (the number of references and the language, which differ by dataset, left out: a metric without
    English rules is shown in the first language it has)."""
    from simpeval.runner import resolve_metrics

    out = {}
    for spec in specs:
        cls = registry.metric_class(spec.split(":", 1)[0])
        lang = ENGLISH if registry.supports(cls.name, ENGLISH) or not cls.languages else cls.languages[0]
        for request in resolve_metrics(registry, [spec], lang=lang):
            out.setdefault(request.metric.name, request.metric.signature())
    return out


def metric_keys(registry: Registry, specs: list[str], lang: str = ENGLISH) -> dict[str, str]:
    """Per metric (family) among ``specs``: the key its scores on texts in ``lang`` are cached under,
    less the inputs (:func:`simpeval.cache.metric_key`: signature with its language and its models'
    fingerprints, formula version, fingerprint of its code)."""
    from simpeval.cache import metric_key
    from simpeval.runner import resolve_metrics

    return {request.metric.name: metric_key(request.metric, request.metric.signature())
            for request in resolve_metrics(registry, specs, lang=lang)} if specs else {}


def _families(registry: Registry, specs: list[str]) -> dict[str, list[str]]:
    """``specs`` grouped by the metric that computes them, in order."""
    groups: dict[str, list[str]] = {}
    for spec in specs:
        groups.setdefault(registry.metric_class(spec.split(":", 1)[0]).name, []).append(spec)
    return groups


class _Counting:
    """A score cache that counts the entries it was asked for: found (read) or not (computed next)."""

    def __init__(self, cache: ScoreCache) -> None:
        self.cache, self.found, self.absent = cache, 0, 0

    def get(self, key: str, check=None):
        value = self.cache.get(key, check)
        if value is None:
            self.absent += 1
        else:
            self.found += 1
        return value

    def put(self, key: str, value) -> None:
        self.cache.put(key, value)


def score_dataset(registry: Registry, dataset, specs: list[str], keys: dict[str, str], cache: ScoreCache,
                  executor: BatchExecutor | None = None, progress=None) -> list[Scoring]:
    """Score ``dataset`` with each metric of ``specs`` in turn through the cache, timing and counting each.

    The cells then read these scores back. A scoring computed here leaves a record of its time and
    load in the cache, which a later run that reads the scores shows beside them.
    """
    from simpeval.cache import check_scoring_record
    from simpeval.metaeval.compute import compute_scores

    out = []
    # the inputs the cells give every metric: references too if any metric needs them (they are in the keys)
    references = any(registry.metric_class(spec.split(":", 1)[0]).requires_references for spec in specs)
    for family, group in _families(registry, specs).items():
        counting = _Counting(cache)
        if progress is not None:
            progress(f"{dataset.name}: scoring with {family}")
        started = time.perf_counter()
        compute_scores(registry, dataset, group, references=dataset.default_references, cache=counting,
                       executor=executor, with_references=references)
        seconds = time.perf_counter() - started
        record_key = _record_key(keys[family], dataset)
        first = None
        if counting.absent:  # partial: an earlier, interrupted run computed the rest
            cache.put(record_key, {"seconds": round(seconds, 1), "load": round(os.getloadavg()[0], 1),
                                   "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                                   "partial": counting.found > 0})
        else:
            first = cache.get(record_key, check_scoring_record)
        out.append(Scoring(family, dataset.name, len(dataset), counting.absent, counting.found, seconds, first))
    return out


def _record_key(metric_key: str, dataset) -> str:
    """Where the time and load of one metric's scoring of ``dataset`` are recorded."""
    from simpeval.cache import scoring_record_key

    return scoring_record_key(metric_key, dataset.name, str(dataset.data_dir))


def _cell_key(plan: Plan, dataset, aspect: str, specs: list[str], keys: list[str]) -> str:
    """A score-cache key naming everything a cell depends on: every metric's cache key (so new
    weights or code recompute the cell), the human scores and items it correlates with, the code
    that computes it (:data:`CELL_CODE`) and the settings."""
    from simpeval.cache import cell_key, derived_key
    from simpeval.codehash import parts_hash

    ratings = derived_key([dataset.keys, dataset.human_scores(aspect).tolist()])
    return cell_key(v=CELL_VERSION, metrics=sorted(keys), code=parts_hash("simpeval", CELL_CODE), ratings=ratings,
                    dataset=dataset.name, aspect=aspect, specs=specs, correlation=plan.correlation,
                    significance=plan.significance, bootstrap=plan.bootstrap, alpha=plan.alpha, seed=plan.seed,
                    split=plan.split, data=str(plan.data_dir.resolve()))


def _cell_from_json(value: dict) -> Cell:
    """A cached cell (its training marks are set afresh by :func:`mark_training`)."""
    entries = [Entry(**e) for e in value.pop("entries")]
    return Cell(**value, entries=entries)
