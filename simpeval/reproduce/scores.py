"""A published table of system scores (SARI, BLEU, ... per system), the ``evaluate`` runs that
recompute it, and the comparison.

A :class:`ScoreTable` holds a paper's numbers per system and metric and the exact settings behind
them (test set, preset, ``-m`` specs, which output file each system's row scored), so the command
printed beside the table and the numbers simpeval prints cannot drift apart. A metric simpeval
cannot compute (a model that does not install offline) stays in the table with no value and the
reason (:attr:`ScoreTable.unavailable`).
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from simpeval.reproduce.paper import Paper, Reproduction

if TYPE_CHECKING:
    from simpeval.cache import ScoreCache
    from simpeval.registry import Registry

SOURCE = None
"""A system's output file that is the originals themselves (the paper's ``src2src`` baseline)."""


@dataclass(frozen=True)
class ScoreTable:
    """One table of system scores and how simpeval recomputes each row."""

    paper: str
    key: str  # --table value
    title: str
    level: str  # "sentence" or "document": what one line of the test set is
    test_set: str  # -t
    preset: str | None
    metrics: Mapping[str, str]  # the paper's column -> the -m spec whose corpus score it is
    systems: Mapping[str, str | None]  # the paper's row -> output file in the test set's systems directory
    values: Mapping[str, Mapping[str, float]]  # row -> column -> published value
    unavailable: Mapping[str, str] = field(default_factory=dict)  # column -> why simpeval has no value
    note: str = ""

    def output_path(self, data_dir: Path, system: str) -> Path:
        """The file ``--sys`` scores for row ``system`` (the originals for a source baseline)."""
        from simpeval.datasets.testsets import lookup_test_set

        spec = lookup_test_set(self.test_set)
        name = self.systems[system]
        return Path(data_dir) / (spec.orig if name is SOURCE else f"{spec.systems}/{name}")

    def arguments(self, data_dir: Path, system: str) -> list[str]:
        """The ``simpeval evaluate`` arguments that recompute row ``system``."""
        args = ["-t", self.test_set, "--sys", str(self.output_path(data_dir, system))]
        if self.preset:
            args += ["--preset", self.preset]
        return args + ["-m", ",".join(spec for column, spec in self.metrics.items() if column not in self.unavailable)]

    def command(self, data_dir: Path, system: str) -> str:
        return shlex.join(["simpeval", "evaluate", *self.arguments(data_dir, system)])

    def compute(self, registry: Registry, data_dir: Path, cache: ScoreCache | None = None) -> ScoreComparison:
        """simpeval's corpus scores of every row, as :meth:`command` computes them."""
        from simpeval.datasets.testsets import load_test_set, lookup_test_set
        from simpeval.runner import evaluate, parse_metric_specs, resolve_metrics

        test_set = load_test_set(Path(data_dir), self.test_set)
        specs = {column: spec for column, spec in self.metrics.items() if column not in self.unavailable}
        requests = resolve_metrics(registry, list(specs.values()), self.preset, lookup_test_set(self.test_set).lang)
        names = {column: registry.resolve(name, options, self.preset)[0]
                 for column, (name, options) in zip(specs, parse_metric_specs(list(specs.values())))}
        ours: dict[str, dict[str, float]] = {}
        for system, file in self.systems.items():
            outputs = test_set.sources if file is SOURCE else _read_lines(self.output_path(data_dir, system))
            result = evaluate(requests, test_set.sources, outputs, test_set.references, sentence_level=False,
                              corpus_level=True, cache=cache)
            ours[system] = {column: float(result.corpus_scores[name]) for column, name in names.items()}
        return ScoreComparison(self, ours)


def _read_lines(path: Path) -> list[str]:
    from simpeval.datasets.testsets import read_data_lines

    return read_data_lines(path)


@dataclass
class ScoreComparison(Reproduction):
    """simpeval's corpus scores beside a :class:`ScoreTable`'s."""

    table: ScoreTable
    ours: dict[str, dict[str, float]]  # row -> column -> simpeval's value

    def value(self, system: str, column: str) -> float | None:
        return None if column in self.table.unavailable else self.ours[system][column]

    def difference(self, system: str, column: str) -> float | None:
        ours = self.value(system, column)
        return None if ours is None else ours - self.table.values[system][column]

    def max_difference(self) -> float:
        """Largest |simpeval - published| over every cell simpeval computes."""
        return max(abs(d) for system in self.table.values for column in self.table.values[system]
                   if (d := self.difference(system, column)) is not None)

    def cells(self) -> list[dict[str, Any]]:
        table = self.table
        cells = []
        for system, row in table.values.items():
            for column, published in row.items():
                cell = {"table": table.key, "level": table.level, "system": system, "metric": column,
                        "published": published, "simpeval": self.value(system, column)}
                if column in table.unavailable:
                    cell["note"] = table.unavailable[column]
                cells.append(cell)
        return cells

    def render(self, fmt: str, data_dir: Path) -> str:
        from simpeval.tables import render

        table = self.table
        columns = ["system", *(f"{c} {side}" for c in table.metrics for side in ("paper", "ours")), "max diff"]
        rows = []
        for system, row in table.values.items():
            cells: list[Any] = [system]
            for column in table.metrics:
                ours = self.value(system, column)
                cells += [row[column], "n/a" if ours is None else round(ours, 3)]
            diffs = [abs(d) for c in table.metrics if (d := self.difference(system, c)) is not None]
            rows.append([*cells, round(max(diffs), 3)])
        if fmt == "csv":
            return render(["table", *columns], [[table.key, *row] for row in rows], "csv")
        text = render(columns, rows, fmt, digits=3)
        commands = [f"{system}: {table.command(data_dir, system)}" for system in table.values]
        notes = [f"{column} n/a: {why}." for column, why in table.unavailable.items()] + ([table.note] if table.note
                                                                                            else [])
        diff = f"max |ours - paper| = {self.max_difference():.3f}"
        if fmt == "markdown":
            return "\n".join([f"### {table.title}", "", text, diff + ".", "",
                              *(f"- `{c.split(': ', 1)[1]}` ({c.split(':')[0]})" for c in commands), "",
                              *notes]) + "\n"
        return "\n".join([table.title, text + diff, *(f"$ {c}" for c in commands), *notes]) + "\n"


@dataclass(frozen=True)
class ScorePaper(Paper):
    """A paper whose tables are system scores, each a :class:`ScoreTable`."""

    name: str
    title: str
    tables: Mapping[str, ScoreTable]

    def table_numbers(self) -> list[str]:
        return list(self.tables)

    def reproduce(self, registry: Registry, data_dir: Path, cache: ScoreCache | None = None,
                  numbers: tuple[str, ...] = ()) -> list[Reproduction]:
        return [table.compute(registry, data_dir, cache) for key, table in self.tables.items()
                if not numbers or key in numbers]
