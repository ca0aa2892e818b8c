"""A published correlation table, the ``meta-evaluate`` run that reproduces it, the comparison as
text, and the paper (:class:`CorrelationPaper`) that holds such tables.

A :class:`PublishedTable` holds a paper's absolute correlations and the exact settings behind
them. The same object gives the command line a user can type (:meth:`PublishedTable.command`)
and the library :class:`~simpeval.metaeval.run.Request` that ``simpeval reproduce`` runs, so the
printed command and the printed numbers cannot drift apart.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from simpeval.reproduce.paper import Paper, Reproduction

if TYPE_CHECKING:
    from simpeval.cache import ScoreCache
    from simpeval.metaeval.run import Report, Request
    from simpeval.registry import Registry

WINNERS = "not significantly outperformed by any other metric (Williams test, p < 0.05)"


@dataclass(frozen=True)
class PublishedTable:
    """One table of a paper: its correlations and how simpeval recomputes them."""

    paper: str  # name for ``simpeval reproduce``
    key: str  # ``--table`` value, plus ``-<references>`` where one table has several parts
    title: str
    dataset: str
    references: str
    split: str  # --split
    splits: tuple[str, ...]  # the paper's columns, in its order
    values: Mapping[str, tuple[float, ...]]  # metric -> r (|r| unless signed) per column, in the paper's row order
    labels: Mapping[str, str]  # metric -> the paper's row name
    computed: tuple[str, ...]  # -m metrics simpeval computes
    preset: str | None = None
    scores_file: str | None = None  # published per-item scores, relative to the data directory
    score_columns: tuple[str, ...] = ()
    note: str = ""
    aspect: str | None = None  # the human score correlated; None: the dataset's first aspect
    significance: str = "williams"  # the paper's pairwise test (it decides the bold cells, not r)
    alpha: float = 0.05
    correlation: str = "pearson"  # --correlation
    signed: bool = False  # the paper prints signed correlations (else absolute ones)

    @property
    def number(self) -> str:
        """The table's number in the paper (``11`` for ``11-all``)."""
        return self.key.split("-", 1)[0]

    def arguments(self, data_dir: Path) -> list[str]:
        """The ``simpeval meta-evaluate`` arguments that recompute this table."""
        args = ["--dataset", self.dataset, "--references", self.references, "--split", self.split]
        if self.aspect:
            args += ["--aspect", self.aspect]
        if self.correlation != "pearson":
            args += ["--correlation", self.correlation]
        if self.significance != "williams":
            args += ["--significance", self.significance]
        if self.preset:
            args += ["--preset", self.preset]
        args += ["-m", ",".join(self.computed)]
        if self.scores_file:
            args += ["--scores", str(Path(data_dir) / self.scores_file), "--score-columns", ",".join(self.score_columns)]
        return args

    def command(self, data_dir: Path) -> str:
        """The full command line, quoted for a POSIX shell."""
        return shlex.join(["simpeval", "meta-evaluate", *self.arguments(data_dir)])

    def request(self, data_dir: Path, cache: ScoreCache | None = None) -> Request:
        """The library request equal to :meth:`arguments` (``meta-evaluate``'s defaults elsewhere)."""
        from simpeval.metaeval.engine import Settings
        from simpeval.metaeval.run import Request

        return Request(
            dataset=self.dataset, data_dir=Path(data_dir), metrics=list(self.computed), references=self.references,
            split=self.split, preset=self.preset, aspect=self.aspect,
            settings=Settings(correlation=self.correlation, significance=self.significance, alpha=self.alpha),
            scores=[Path(data_dir) / self.scores_file] if self.scores_file else [],
            score_columns=list(self.score_columns) if self.scores_file else None, cache=cache,
        )


@dataclass
class Comparison:
    """simpeval's correlations and winners beside a :class:`PublishedTable`'s numbers."""

    table: PublishedTable
    ours: dict[str, list[float]]
    winners: dict[str, list[bool]]
    warnings: list[str] = field(default_factory=list)

    def difference(self, metric: str) -> float | None:
        """Largest |ours - paper| over the row's columns; None if simpeval has no such row."""
        if metric not in self.ours:
            return None
        return max(abs(o - p) for o, p in zip(self.ours[metric], self.table.values[metric]))

    def max_difference(self) -> float:
        """Largest |ours - paper| over every row both have."""
        return max(d for d in map(self.difference, self.table.values) if d is not None)

    def rows(self) -> tuple[list[str], list[list], list[tuple[int, int]]]:
        """Columns, rows and emphasised (winner) cells for :func:`simpeval.tables.render`.

        A row the paper has but simpeval cannot compute (no weights, no published scores) reads ``n/a``.
        """
        splits = self.table.splits
        columns = ["metric", *(f"{s} ours" for s in splits), *(f"{s} paper" for s in splits), "max diff"]
        rows, emphasis = [], []
        for i, (metric, paper) in enumerate(self.table.values.items()):
            label = self.table.labels.get(metric, metric)
            if metric not in self.ours:
                rows.append([label, *(["n/a"] * len(splits)), *paper, "-"])
                continue
            rows.append([label, *self.ours[metric], *paper, self.difference(metric)])
            emphasis += [(i, 1 + k) for k, won in enumerate(self.winners[metric]) if won]
        return columns, rows, emphasis

    def render(self, fmt: str, data_dir: Path) -> str:
        """The table as text (see :func:`format_comparison`)."""
        return format_comparison(self, data_dir, fmt)

    def cells(self) -> list[dict]:
        """One record per published value: table, metric, column, published and simpeval's (None: n/a)."""
        table = self.table
        return [{"paper": table.paper, "table": table.key, "metric": table.labels.get(metric, metric),
                 "split": split, "published": paper[k],
                 "simpeval": self.ours[metric][k] if metric in self.ours else None}
                for metric, paper in table.values.items() for k, split in enumerate(table.splits)]


def compare(table: PublishedTable, report: Report) -> Comparison:
    """simpeval's numbers from ``report`` (the run of ``table.request``) beside the paper's."""
    result = report.result
    sign = (lambda r: r) if table.signed else abs
    ours = {m: [sign(result.record(m, s).r) for s in table.splits] for m in result.metrics}
    winners = {m: [result.record(m, s).winner for s in table.splits] for m in result.metrics}
    return Comparison(table, ours, winners, list(result.warnings))



def reproduce(table: PublishedTable, registry, data_dir: Path,
              cache: ScoreCache | None = None) -> tuple[Comparison, Report]:
    """Run ``table``'s meta-evaluation and compare it with the paper; also return the full report."""
    from simpeval.metaeval.run import run_meta_evaluation

    report = run_meta_evaluation(registry, table.request(data_dir, cache))
    return compare(table, report), report


def format_comparison(comparison: Comparison, data_dir: Path, fmt: str = "table") -> str:
    """``comparison`` as a terminal table, Markdown or CSV (CSV: the table only, full precision)."""
    from simpeval.tables import render

    columns, rows, emphasis = comparison.rows()
    table = comparison.table
    tested = table.significance != "none"  # the paper marked no winners: nor does simpeval
    emphasis = emphasis if tested else []
    if fmt == "csv":
        return render(["table", *columns], [[table.key, *row] for row in rows], "csv")
    text = render(columns, rows, fmt, emphasis=emphasis, digits=3)
    command = table.command(data_dir)
    diff = f"max |ours - paper| = {comparison.max_difference():.3f}"
    notes = [table.note] if table.note else []
    # what meta-evaluate warns of explains a gap too (833 of Structural Simplicity's items tie at the median:
    # Low and High depend on the dataset's order, All does not)
    notes += [f"note: {warning}" for warning in comparison.warnings]
    if fmt == "markdown":
        legend = f"Bold: {WINNERS}; {diff}." if tested else f"{diff[0].upper()}{diff[1:]}."
        return "\n".join([f"### {table.title}", "", f"`{command}`", "", text, legend,
                          *("\n" + n for n in notes)]) + "\n"
    legend = f"* = {WINNERS}; {diff}" if tested else diff
    return "\n".join([table.title, f"$ {command}", text + legend, *notes]) + "\n"


@dataclass(frozen=True)
class CorrelationPaper(Paper):
    """A paper whose tables are correlations with human ratings, each a :class:`PublishedTable`."""

    name: str
    title: str
    tables: Mapping[str, PublishedTable]  # keyed by PublishedTable.key

    def table_numbers(self) -> list[str]:
        return list(dict.fromkeys(table.number for table in self.tables.values()))

    def reproduce(self, registry: Registry, data_dir: Path, cache: ScoreCache | None = None,
                  numbers: tuple[str, ...] = ()) -> list[Reproduction]:
        return [reproduce(table, registry, data_dir, cache)[0] for table in self.tables.values()
                if not numbers or table.number in numbers]
