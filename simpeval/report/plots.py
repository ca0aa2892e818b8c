"""The report's figures as self-contained SVG text (text drawn as paths, no fonts or files to fetch).

Figures are built on :class:`matplotlib.figure.Figure` directly, not pyplot, so drawing them
touches no global state and needs no display.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence

from matplotlib.figure import Figure

COLORS = ("#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3", "#937860", "#DA8BC3", "#8C8C8C")


def _svg(fig: Figure) -> str:
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    return buffer.getvalue()


def literal(text: str) -> str:
    """``text`` drawn as written: matplotlib reads ``$...$`` as mathtext (a file name such as
    ``$x^{99999}$.txt`` would be typeset, or fail to parse), so every ``$`` is escaped."""
    return str(text).replace("$", r"\$")


def distribution_svg(values: Mapping[str, Sequence[float]], label: str) -> str:
    """One horizontal box plot per system (NaN left out), the first system on top, mean as a diamond."""
    names = list(values)
    data = [[v for v in values[name] if not math.isnan(v)] or [math.nan] for name in names]
    fig = Figure(figsize=(6.4, 0.9 + 0.38 * len(names)))
    ax = fig.add_subplot()
    box = ax.boxplot(data[::-1], orientation="horizontal", showmeans=True, patch_artist=True, widths=0.6,
                     flierprops={"markersize": 2, "alpha": 0.4},
                     meanprops={"marker": "D", "markerfacecolor": "white", "markeredgecolor": "black", "markersize": 4})
    for k, patch in enumerate(box["boxes"][::-1]):
        patch.set_facecolor(COLORS[k % len(COLORS)])
        patch.set_alpha(0.75)
    ax.set_yticks(range(1, len(names) + 1), [literal(n) for n in names[::-1]])
    ax.set_xlabel(literal(label))
    ax.grid(axis="x", alpha=0.3)
    return _svg(fig)


def stacked_bars_svg(proportions: Mapping[str, Mapping[str, float]], label: str) -> str:
    """One horizontal bar per system, split into its categories' proportions (e.g. word operations)."""
    names = list(proportions)
    categories = list(dict.fromkeys(c for name in names for c in proportions[name]))
    fig = Figure(figsize=(6.4, 1.3 + 0.38 * len(names)))
    ax = fig.add_subplot()
    left = [0.0] * len(names)
    rows = list(range(len(names)))[::-1]
    for k, category in enumerate(categories):
        widths = [proportions[name].get(category, 0.0) for name in names]
        ax.barh(rows, widths, left=left, color=COLORS[k % len(COLORS)], label=literal(category))
        left = [a + b for a, b in zip(left, widths)]
    ax.set_yticks(rows, [literal(n) for n in names])
    ax.set_xlabel(literal(label))
    ax.legend(ncols=min(len(categories), 5), loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False)
    return _svg(fig)
