"""The table of ``simpeval evaluate --sys A --sys B ...`` in the terminal, Markdown and LaTeX.

One row per system, one column per sub-score; a cell is the corpus score and, under a paired
test, its 95% interval and the p-value of the test against the first system. Three rules keep
it from misleading:

- every cell of a sub-score has the same number of decimals (:func:`simpeval.tables.column_decimals`),
  so 75.39 never stands beside 6.539;
- a significance mark says which way the difference goes
  (:meth:`simpeval.significance.PairedTest.verdict`): Markdown and LaTeX bold the *better* system
  of each pair that differs significantly (every system is tested against the first), in the
  sub-score's direction: the first system's cell when it beats a system, that system's cell when
  it beats the first; the terminal writes ``better`` or ``worse`` (than the first) after a
  p-value below 0.05, never a bare star that would read as an improvement;
- a terminal table wider than ``width`` (the terminal's; :data:`REDIRECTED_WIDTH` in a file or a pipe,
  where seven systems made a 756-character line) becomes a long table, one row per sub-score and
  system, which any width can show. Markdown, LaTeX, CSV and JSON are always complete.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from simpeval.tables import column_decimals, format_cell, render

if TYPE_CHECKING:
    from simpeval.engine.compare import Comparison

__all__ = ["LEGEND", "REDIRECTED_WIDTH", "TERMINAL_LEGEND", "better_cells", "format_systems"]

REDIRECTED_WIDTH = 160
"""The widest terminal table written to a file or a pipe (read in a pager, a review, an e-mail)."""

LEGEND = "bold: the better system of a pair that differs significantly (p < 0.05; each system against the first)"
TERMINAL_LEGEND = ("better/worse: significantly (p < 0.05) better or worse than the first system, in the metric's "
                   "direction (features without one, such as qe-compression, get no label)")


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
    for r, system in enumerate(comparison.systems[1:], start=1):
        for c, name in enumerate(comparison.score_names, start=1):
            verdict = _verdict(comparison, system, name)
            if verdict is not None:
                cells.add((r, c) if verdict == "better" else (0, c))
    return sorted(cells)


def _verdict(comparison: Comparison, system, name: str) -> str | None:
    paired = system.tests.get(name)
    return None if paired is None else paired.verdict(comparison.higher_is_better.get(name, True))


def _p(comparison: Comparison, system, name: str) -> str:
    """``0.0012 better``: the p-value against the first system and, when significant, which way."""
    verdict = _verdict(comparison, system, name)
    return f"{system.tests[name].p_value:.4f}" + (f" {verdict}" if verdict else "")


def _cell(comparison: Comparison, row: int, name: str, decimals: int, terminal: bool) -> str:
    system = comparison.systems[row]
    cell = format_cell(system.result.corpus_scores[name], decimals)
    interval = system.intervals.get(name)
    if interval is not None:
        cell += f" ({interval.low:.{decimals}f}-{interval.high:.{decimals}f})"
    if name in system.tests:
        cell += f" p={_p(comparison, system, name)}" if terminal else f" p={system.tests[name].p_value:.4f}"
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
                interval = system.intervals.get(name)
                row.append(f"{interval.low:.{digits}f}-{interval.high:.{digits}f}" if interval else "")
                row.append(_p(comparison, system, name) if name in system.tests else "")
            rows.append(row)
    return render(columns, rows, "table")
