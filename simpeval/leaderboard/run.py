"""Every metric on every human-rated dataset and aspect: the cells of ``simpeval leaderboard``.

A *cell* is one (dataset, aspect): every metric's correlation with the human scores over the
dataset's items (``--split none``), its 95% bootstrap interval, and its significance cluster
among the metrics of that cell (:func:`simpeval.ranks.cluster_ranks`, via ``meta-evaluate
--rank``). Each cell is computed by :func:`simpeval.metaeval.run.run_meta_evaluation`, so metric
scores go through the runner, its score cache and ``--jobs``/``--dask``; the finished cell is
stored in the score cache too, under a key naming everything it depends on, so an interrupted
leaderboard resumes where it stopped and a finished one is re-rendered for free.

A dataset whose files are missing becomes a :class:`Missing` entry with the loader's message
(which says where to get it). A reference-based metric is left out of a dataset without
references. A learned metric whose ``trained_on`` names the dataset is marked on it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from simpeval.errors import UsageError

if TYPE_CHECKING:
    from simpeval.cache import ScoreCache
    from simpeval.parallel import BatchExecutor
    from simpeval.registry import Registry

CELL_VERSION = "1"  # bump when a cell's content changes for the same inputs


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
    trained_on: bool = False  # its weights saw this dataset in training


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
class Missing:
    """A registered dataset that could not be loaded, and how to get it."""

    dataset: str
    reason: str


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


def run_leaderboard(registry: Registry, plan: Plan, cache: ScoreCache | None = None,
                    executor: BatchExecutor | None = None, progress=None) -> tuple[list[Cell], list[Missing]]:
    """Every cell of ``plan`` (cached cells reused), and the datasets that are missing."""
    from simpeval.metaeval.engine import Settings
    from simpeval.metaeval.run import Request, run_meta_evaluation

    cells, missing = [], []
    for name in plan.datasets or sorted(registry.datasets):
        try:
            dataset = registry.dataset_class(name)(plan.data_dir)
            len(dataset)  # reads the files
        except UsageError as exc:
            missing.append(Missing(name, str(exc)))
            continue
        specs, skipped = _usable(registry, plan.metrics, dataset)
        item_split = _item_split(dataset, plan.split)
        for aspect in dataset.aspects:
            key = _cell_key(registry, plan, name, aspect, specs)
            stored = cache.get(key) if cache is not None else None
            if stored is not None:
                cells.append(_cell_from_json(stored))
                continue
            if progress is not None:
                progress(f"{name} / {aspect}")
            cell = Cell(name, aspect, len(dataset), dataset.default_references, item_split or "all", [], skipped)
            if specs:
                settings = Settings(correlation=plan.correlation, significance=plan.significance, alpha=plan.alpha,
                                    bootstrap=plan.bootstrap, rank=True)
                report = run_meta_evaluation(registry, Request(
                    dataset=name, data_dir=plan.data_dir, metrics=specs, aspect=aspect, split="none",
                    settings=settings, seed=plan.seed, cache=cache, executor=executor, item_split=item_split))
                trained = _trained_on(registry, specs, name)
                for rec in report.result.records:
                    family = report.signatures.get(rec.metric, rec.metric).split("|", 1)[0]
                    cell.entries.append(Entry(rec.metric, family, _finite(rec.r), rec.ci_low, rec.ci_high, rec.rank,
                                              rec.n, family in trained))
            if cache is not None:
                cache.put(key, asdict(cell))
            cells.append(cell)
    return cells, missing


def _finite(value: float) -> float | None:
    return None if value != value else float(value)


def _usable(registry: Registry, specs: list[str], dataset) -> tuple[list[str], list[str]]:
    """The specs that can score ``dataset`` (reference-based ones need its references), and the others."""
    usable, skipped = [], []
    has_refs = dataset.default_references is not None and dataset.has_references(dataset.default_references)
    for spec in specs:
        cls = registry.metric_class(spec.split(":", 1)[0])
        if cls.requires_references and not has_refs:
            skipped.append(f"{spec}: needs references, which {dataset.name} has none of")
        else:
            usable.append(spec)
    return usable, skipped


def _item_split(dataset, split: str | None) -> str | None:
    """The declared split to keep, or None to keep every item (no split asked, or none declared)."""
    if split is None or dataset.item_splits() is None:
        return None
    return split


def _trained_on(registry: Registry, specs: list[str], dataset: str) -> set[str]:
    """Names of the metrics among ``specs`` whose shipped weights saw ``dataset``."""
    out = set()
    for spec in specs:
        cls = registry.metric_class(spec.split(":", 1)[0])
        if dataset in getattr(cls, "trained_on", ()):
            out.add(cls.name)
    return out


def _cell_key(registry: Registry, plan: Plan, dataset: str, aspect: str, specs: list[str]) -> str:
    """A score-cache key naming everything a cell depends on (versions of simpeval and of every plugin)."""
    from simpeval._version import __version__

    versions = sorted(f"{info.name}={getattr(info, 'version', '')}" for info in registry.plugins)
    payload = {"kind": "leaderboard-cell", "v": CELL_VERSION, "simpeval": __version__, "plugins": versions,
               "dataset": dataset, "aspect": aspect, "specs": specs, "correlation": plan.correlation,
               "significance": plan.significance, "bootstrap": plan.bootstrap, "alpha": plan.alpha,
               "seed": plan.seed, "split": plan.split, "data": str(plan.data_dir.resolve())}
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def _cell_from_json(value: dict) -> Cell:
    entries = [Entry(**e) for e in value.pop("entries")]
    return Cell(**value, entries=entries)
