"""The table of ``simpeval evaluate --sys A --sys B ...`` in the terminal, Markdown and LaTeX.

One row per system, one column per sub-score; a cell is the corpus score and, under a paired
test, its 95% interval and the p-value of the test against the first system. Three rules keep
it from misleading:

- every cell of a sub-score has the same number of decimals (:func:`simpeval.tables.column_decimals`),
  so 75.39 never stands beside 6.539;
- Markdown and LaTeX bold the *better* system of each pair that differs significantly (every
  system is tested against the first), in the sub-score's direction: the first system's cell when
  it beats a system, that system's cell when it beats the first; the terminal writes ``*`` after
  a p-value below 0.05;
- in the terminal, a table wider than ``width`` (the terminal's) becomes a long table, one row per
  sub-score and system, which any width can show. Markdown, LaTeX, CSV and JSON are always complete.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from simpeval.tables import column_decimals, format_cell, render

if TYPE_CHECKING:
    from simpeval.compare import Comparison

__all__ = ["LEGEND", "better_cells", "format_systems"]

LEGEND = "bold: the better system of a pair that differs significantly (p < 0.05; each system against the first)"


def format_systems(comparison: Comparison, fmt: str, width: int | None = None) -> str:
    """``comparison`` as a ``table``, ``markdown`` or ``latex`` table (see the module docstring)."""
    names = comparison.score_names
    decimals = {name: column_decimals([s.result.corpus_scores[name] for s in comparison.systems]) for name in names}
    rows = [[system.name, *(_cell(comparison, r, name, decimals[name], fmt == "table") for name in names)]
            for r, system in enumerate(comparison.systems)]
    if fmt != "table":
        return render(["system", *names], rows, fmt, emphasis=better_cells(comparison))
    wide = render(["system", *names], rows, "table")
    if width is None or max(map(len, wide.splitlines())) <= width:
        return wide
    return _long(comparison, decimals)


def better_cells(comparison: Comparison) -> list[tuple[int, int]]:
    """``(row, column)`` of the better system of every significantly different pair (column 0: names)."""
    cells = set()
    baseline = comparison.baseline.result.corpus_scores
    for r, system in enumerate(comparison.systems[1:], start=1):
        for c, name in enumerate(comparison.score_names, start=1):
            paired = system.tests.get(name)
            if paired is None or not paired.significant():
                continue
            higher = comparison.higher_is_better.get(name, True)
            wins = (system.result.corpus_scores[name] > baseline[name]) == higher
            cells.add((r, c) if wins else (0, c))
    return sorted(cells)


def _cell(comparison: Comparison, row: int, name: str, decimals: int, star: bool) -> str:
    system = comparison.systems[row]
    cell = format_cell(system.result.corpus_scores[name], decimals)
    interval = system.intervals.get(name)
    if interval is not None:
        cell += f" ({interval.low:.{decimals}f}-{interval.high:.{decimals}f})"
    paired = system.tests.get(name)
    if paired is not None:
        cell += f" p={paired.p_value:.4f}" + ("*" if star and paired.significant() else "")
    return cell


def _long(comparison: Comparison, decimals: dict[str, int]) -> str:
    """One row per sub-score and system: metric, system, score[, 95% interval, p]."""
    tested = any(system.tests for system in comparison.systems)
    columns = ["metric", "system", "score", *(["95% interval", "p"] if tested else [])]
    rows = []
    for name in comparison.score_names:
        digits = decimals[name]
        for system in comparison.systems:
            row = [name, system.name, format_cell(system.result.corpus_scores[name], digits)]
            if tested:
                interval, paired = system.intervals.get(name), system.tests.get(name)
                row.append(f"{interval.low:.{digits}f}-{interval.high:.{digits}f}" if interval else "")
                row.append(f"{paired.p_value:.4f}" + ("*" if paired.significant() else "") if paired else "")
            rows.append(row)
    return render(columns, rows, "table")
