"""A :class:`~simpeval.reproduce.tables.Comparison` as text: title, command, table, differences, notes."""

from __future__ import annotations

from pathlib import Path

from simpeval.reproduce.tables import Comparison

WINNERS = "not significantly outperformed by any other metric (Williams test, p < 0.05)"


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
    if fmt == "markdown":
        legend = f"Bold: {WINNERS}; {diff}." if tested else f"{diff[0].upper()}{diff[1:]}."
        return "\n".join([f"### {table.title}", "", f"`{command}`", "", text, legend,
                          *("\n" + n for n in notes)]) + "\n"
    legend = f"* = {WINNERS}; {diff}" if tested else diff
    return "\n".join([table.title, f"$ {command}", text + legend, *notes]) + "\n"
