"""Render rows of results as a terminal table, Markdown, LaTeX or CSV.

One renderer serves ``evaluate``, ``metrics list`` and ``meta-evaluate``;
emphasised cells (the winners of a meta-evaluation) are bold in Markdown and
LaTeX and starred in the terminal.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Collection, Sequence
from typing import Any

FORMATS = ("table", "markdown", "latex", "csv")


def format_cell(value: Any, digits: int = 4) -> str:
    """Floats with ``digits`` decimals (``nan`` for NaN), anything else as ``str``."""
    if isinstance(value, float):
        return "nan" if math.isnan(value) else f"{value:.{digits}f}"
    return "" if value is None else str(value)


def column_decimals(values: Collection[Any]) -> int:
    """Decimals shared by every cell of one metric: 2 when its largest magnitude is at least 1
    (BLEU 75.39 and SARI-add 6.54 alike), 3 for a metric below 1 (a ratio such as 0.941)."""
    finite = [abs(v) for v in values if isinstance(v, (int, float)) and math.isfinite(v)]
    return 2 if finite and max(finite) >= 1 else 3


def csv_cells(row: Sequence[Any]) -> list[Any]:
    """A row as CSV writes it: floats at full precision (``repr``), text made inert, anything else as it is."""
    return [repr(v) if isinstance(v, float) else csv_text(v) if isinstance(v, str) else v for v in row]


# Escaping, in one place: text from file names, document ids and score columns reaches every
# format, and must stay text there (never a formula, a LaTeX command, HTML or a table break).

_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_text(text: str) -> str:
    """A text cell a spreadsheet will not run: one starting like a formula (``=``, ``+``, ``-``, ``@``)
    gets a leading apostrophe (OWASP's advice). Numbers never pass through here."""
    return "'" + text if text.startswith(_FORMULA_STARTS) else text


_MARKDOWN_SPECIAL = set("\\`*[]<>|&")  # "_" inside a word is no emphasis (CommonMark)


def markdown_text(text: str) -> str:
    """Text shown literally in a Markdown table or list: Markdown and HTML characters escaped, a line
    break (which would end the table row) written as a space."""
    flat = " ".join(text.splitlines())
    return "".join("\\" + c if c in _MARKDOWN_SPECIAL else c for c in flat)


_LATEX = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "_": r"\_", "%": r"\%", "&": r"\&", "#": r"\#",
          "$": r"\$", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "\n": " ", "\r": " "}


def latex_text(text: str) -> str:
    """Text typeset literally in LaTeX: every special character escaped (``\\input{x}`` stays text)."""
    return text.translate(str.maketrans(_LATEX))


def render(
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
    fmt: str = "table",
    *,
    emphasis: Collection[tuple[int, int]] = (),
    digits: int = 4,
) -> str:
    """Render ``rows`` under ``columns``.

    :param fmt: one of :data:`FORMATS`. CSV keeps full float precision.
    :param emphasis: ``(row, column)`` indices of cells to emphasise.
    :param digits: decimals of floats in every format but CSV.
    """
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(csv_cells(columns))
        writer.writerows(map(csv_cells, rows))
        return buffer.getvalue()
    marks = {"table": "{}*", "markdown": "**{}**", "latex": "\\textbf{{{}}}"}
    if fmt not in marks:
        raise ValueError(f"unknown format {fmt!r}; choose from {', '.join(FORMATS)}")
    escape = {"markdown": markdown_text, "latex": latex_text}.get(fmt, str)
    columns = [escape(str(c)) for c in columns]
    cells = [[escape(format_cell(v, digits)) for v in row] for row in rows]
    for r, c in emphasis:
        cells[r][c] = marks[fmt].format(cells[r][c])
    if fmt == "markdown":
        lines = ["| " + " | ".join(columns) + " |", "|" + "|".join("---" for _ in columns) + "|"]
        lines += ["| " + " | ".join(row) + " |" for row in cells]
        return "\n".join(lines) + "\n"
    if fmt == "latex":
        head = " & ".join(columns)
        body = [" & ".join(row) + r" \\" for row in cells]
        spec = "l" + "r" * (len(columns) - 1)
        return "\n".join([rf"\begin{{tabular}}{{{spec}}}", r"\toprule", head + r" \\", r"\midrule", *body, r"\bottomrule", r"\end{tabular}"]) + "\n"
    widths = [max(len(str(c)), *(len(row[i]) for row in cells)) if cells else len(str(c)) for i, c in enumerate(columns)]
    numeric = [bool(rows) and all(isinstance(row[i], (int, float)) for row in rows) for i in range(len(columns))]
    def line(values: Sequence[str]) -> str:
        return "  ".join(v.rjust(w) if num else v.ljust(w) for v, w, num in zip(values, widths, numeric)).rstrip()
    return "\n".join([line(columns), line(["-" * w for w in widths]), *(line(row) for row in cells)]) + "\n"
