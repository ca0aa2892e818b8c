"""The leaderboard as Markdown, self-contained HTML (tables and one inline SVG plot) or JSON.

One table per aspect: a row per metric (sub-score), a column per dataset rated on that aspect,
each cell ``r [low, high] (rank)`` with the 95% bootstrap interval and the significance cluster
within that dataset, then the metric's mean rank over those datasets (rows sorted by it).
``†`` marks a learned metric on a dataset its shipped weights were trained on: not a test
result. A summary ranks the metrics by mean rank over every (dataset, aspect), and a headline
names, per dataset and aspect, the metric family that ranks best and how often that family
ranks first across all of them.
"""

from __future__ import annotations

import io
import math
from collections import defaultdict
from dataclasses import asdict
from html import escape

from simpeval.leaderboard.run import Cell, Missing, Plan

TRAINED = "†"


def _orient(entry) -> float:
    return abs(entry.r) if entry.r is not None else -math.inf


def mean_ranks(cells: list[Cell]) -> dict[str, tuple[float, int]]:
    """Per metric: mean rank over the cells it was ranked in (trained-on cells left out), and their count."""
    ranks = defaultdict(list)
    for cell in cells:
        for entry in cell.entries:
            if entry.rank is not None and not entry.trained_on:
                ranks[entry.metric].append(entry.rank)
    return {m: (sum(r) / len(r), len(r)) for m, r in ranks.items()}


def headline(cells: list[Cell]) -> list[str]:
    """Which family ranks best per (dataset, aspect), and how stable that is across them."""
    best: dict[tuple[str, str], str] = {}
    firsts: dict[str, int] = defaultdict(int)
    for cell in cells:
        eligible = [e for e in cell.entries if e.rank is not None and not e.trained_on]
        if not eligible:
            continue
        top = max(eligible, key=_orient)
        best[cell.dataset, cell.aspect] = f"{top.family} ({top.metric}, r = {top.r:.3f})"
        for family in {e.family for e in eligible if e.rank == 1}:
            firsts[family] += 1
    if not best:
        return []
    lines = [f"- {dataset} / {aspect}: {text}" for (dataset, aspect), text in best.items()]
    total = len(best)
    stable = sorted(firsts.items(), key=lambda kv: -kv[1])
    lines.append("- in the first significance cluster: " + ", ".join(f"{family} {count}/{total}"
                                                                      for family, count in stable))
    return lines


def _cell_text(entry) -> str:
    if entry is None or entry.r is None:
        return "–"
    interval = f" [{entry.ci_low:.2f}, {entry.ci_high:.2f}]" if entry.ci_low is not None else ""
    rank = f" ({entry.rank})" if entry.rank is not None else ""
    return f"{entry.r:.3f}{interval}{rank}{TRAINED if entry.trained_on else ''}"


def aspect_tables(cells: list[Cell]) -> dict[str, tuple[list[str], list[list[str]]]]:
    """Per aspect: the columns and rows of its table (see the module docstring)."""
    by_aspect: dict[str, list[Cell]] = defaultdict(list)
    for cell in cells:
        by_aspect[cell.aspect].append(cell)
    tables = {}
    for aspect, group in by_aspect.items():
        means = mean_ranks(group)
        metrics = list(dict.fromkeys(e.metric for cell in group for e in cell.entries))
        metrics.sort(key=lambda m: means.get(m, (math.inf, 0))[0])
        columns = ["metric", *(_column(c) for c in group), "mean rank"]
        rows = []
        for metric in metrics:
            found = [next((e for e in cell.entries if e.metric == metric), None) for cell in group]
            mean = means.get(metric)
            rows.append([metric, *(_cell_text(e) for e in found), f"{mean[0]:.2f}" if mean else "–"])
        tables[aspect] = (columns, rows)
    return tables


def _column(cell: Cell) -> str:
    split = "" if cell.split == "all" else f", {cell.split}"
    return f"{cell.dataset} (N={cell.items}{split})"


def summary_rows(cells: list[Cell]) -> list[list[str]]:
    """Metrics by mean rank over every (dataset, aspect)."""
    means = mean_ranks(cells)
    return [[metric, f"{mean:.2f}", str(count)] for metric, (mean, count) in sorted(means.items(),
                                                                                     key=lambda kv: kv[1][0])]


def _settings(plan: Plan) -> str:
    split = plan.split or "all items"
    return (f"correlation={plan.correlation} significance={plan.significance} alpha={plan.alpha} "
            f"bootstrap={plan.bootstrap} seed={plan.seed} items={split}")


def _notes(cells: list[Cell], missing: list[Missing], plan: Plan) -> list[str]:
    notes = [f"{m.dataset}: missing. {m.reason}" for m in missing]
    notes += [f"metric left out: {m}" for m in plan.left_out]
    for cell in cells:
        notes += [f"{cell.dataset} / {cell.aspect}: left out {s}" for s in cell.skipped]
    return list(dict.fromkeys(notes))


def render_markdown(cells: list[Cell], missing: list[Missing], plan: Plan, footer: list[str] = ()) -> str:
    from simpeval.tables import render

    parts = ["# Leaderboard: which metric agrees with human judgements?", "",
             "Each cell: correlation with the human scores of the dataset's items, its 95% bootstrap interval, "
             "and (in brackets) the metric's significance cluster on that dataset (1 = best; a metric starts a "
             "new cluster when it is significantly worse than one in the current cluster, as WMT ranks metrics). "
             f"{TRAINED} = the metric's weights were trained on that dataset: not a test result, and left out of "
             "the mean rank.", "", f"Settings: `{_settings(plan)}`.", ""]
    lines = headline(cells)
    if lines:
        parts += ["## Headline", "", "Best metric family per dataset and aspect (highest |r| outside training data; "
                  "a negative r means lower metric values go with higher human scores, e.g. shorter outputs "
                  "judged simpler):", "", *lines, ""]
    for aspect, (columns, rows) in aspect_tables(cells).items():
        parts += [f"## {aspect}", "", render(columns, rows, "markdown")]
    parts += ["## Summary: mean rank over every dataset and aspect", "",
              render(["metric", "mean rank", "datasets x aspects"], summary_rows(cells), "markdown")]
    notes = _notes(cells, missing, plan)
    if notes:
        parts += ["## Notes", "", *(f"- {n}" for n in notes), ""]
    parts += [*footer]
    return "\n".join(parts).rstrip() + "\n"


def render_json(cells: list[Cell], missing: list[Missing], plan: Plan) -> str:
    from simpeval.jsontext import dumps

    payload = {"settings": _settings(plan), "metrics": plan.metrics, "cells": [asdict(c) for c in cells],
               "missing": [asdict(m) for m in missing],
               "mean_ranks": {m: {"mean_rank": v, "cells": n} for m, (v, n) in mean_ranks(cells).items()}}
    return dumps(payload, indent=2) + "\n"


CSS = """
body { font: 15px/1.45 system-ui, sans-serif; color: #1d2330; margin: 0; background: #f5f6f8; }
main { max-width: 1300px; margin: 0 auto; padding: 24px 28px 48px; background: #fff; }
h2 { border-bottom: 2px solid #e3e6ec; } .meta { color: #5b6475; }
table { border-collapse: collapse; margin: 8px 0; font-variant-numeric: tabular-nums; display: block;
        overflow-x: auto; }
th, td { border: 1px solid #d9dde5; padding: 4px 9px; text-align: right; } th { background: #eef1f6; }
td:first-child { text-align: left; font-weight: 600; } figure { margin: 0; } figure img { max-width: 100%; }
"""


def _html_table(columns: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{escape(c)}</th>" for c in columns)
    body = "".join("<tr>" + "".join(f"<td>{escape(str(v))}</td>" for v in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def heatmap_svg(cells: list[Cell]) -> str:
    """Metrics (rows) against datasets and aspects (columns): |r| as colour, the rank written in."""
    import numpy as np
    from matplotlib.figure import Figure

    metrics = [m for m, _ in sorted(mean_ranks(cells).items(), key=lambda kv: kv[1][0])]
    metrics += [m for m in dict.fromkeys(e.metric for c in cells for e in c.entries) if m not in metrics]
    values = np.full((len(metrics), len(cells)), np.nan)
    labels = [[""] * len(cells) for _ in metrics]
    for j, cell in enumerate(cells):
        for entry in cell.entries:
            i = metrics.index(entry.metric)
            if entry.r is not None:
                values[i, j] = abs(entry.r)
                labels[i][j] = f"{entry.rank or ''}{TRAINED if entry.trained_on else ''}"
    fig = Figure(figsize=(2.0 + 0.9 * len(cells), 1.2 + 0.3 * len(metrics)))
    ax = fig.add_subplot()
    image = ax.imshow(values, aspect="auto", cmap="viridis", vmin=0, vmax=max(0.05, float(np.nanmax(values))
                                                                               if np.isfinite(values).any() else 1))
    for i in range(len(metrics)):
        for j in range(len(cells)):
            if labels[i][j]:
                ax.text(j, i, labels[i][j], ha="center", va="center", fontsize=7,
                        color="white" if values[i, j] < 0.6 * np.nanmax(values) else "black")
    ax.set_xticks(range(len(cells)), [f"{c.dataset}\n{c.aspect}" for c in cells], rotation=60, ha="right",
                  fontsize=8)
    ax.set_yticks(range(len(metrics)), metrics, fontsize=8)
    fig.colorbar(image, ax=ax, fraction=0.03, label="|r|")
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    return buffer.getvalue()


def render_html(cells: list[Cell], missing: list[Missing], plan: Plan, footer: list[str] = ()) -> str:
    import base64

    svg = heatmap_svg(cells) if cells else ""
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>simpeval leaderboard</title><style>{CSS}</style></head><body><main>",
             "<h1>Leaderboard: which metric agrees with human judgements?</h1>",
             f'<p class="meta">Cell: r [95% bootstrap interval] (significance cluster, 1 = best). {TRAINED}: trained '
             f"on that dataset, not a test result. Settings: <code>{escape(_settings(plan))}</code></p>"]
    lines = headline(cells)
    if lines:
        parts += ["<h2>Headline</h2><ul>", *(f"<li>{escape(line[2:])}</li>" for line in lines), "</ul>"]
    if svg:
        data = base64.b64encode(svg.encode()).decode()
        parts += ["<h2>Metrics against datasets</h2>",
                  f'<figure><img alt="|r| per metric and dataset" src="data:image/svg+xml;base64,{data}">'
                  "<figcaption>|r| by colour; the number is the significance cluster.</figcaption></figure>"]
    for aspect, (columns, rows) in aspect_tables(cells).items():
        parts += [f"<h2>{escape(aspect)}</h2>", _html_table(columns, rows)]
    parts += ["<h2>Summary: mean rank</h2>",
              _html_table(["metric", "mean rank", "datasets x aspects"], summary_rows(cells))]
    notes = _notes(cells, missing, plan)
    if notes:
        parts += ["<h2>Notes</h2><ul>", *(f"<li>{escape(n)}</li>" for n in notes), "</ul>"]
    parts += [*(f'<p class="meta">{escape(line)}</p>' for line in footer), "</main></body></html>"]
    return "\n".join(parts) + "\n"


def work_lines(work) -> list[str]:
    """What the run computed and what it read from the score cache: cells, then each metric's
    scorings of the datasets, with their time (in this run, or in the run that computed them)."""
    scorings = work.scorings
    counts = defaultdict(int)
    for scoring in scorings:
        counts[scoring.status] += 1
    lines = [f"This run: {work.cells_computed} cells (dataset x aspect) computed, {work.cells_cached} read from the "
             f"score cache; {len(scorings)} metric x dataset scorings: "
             + ", ".join(f"{counts[s]} {s}" for s in ("computed", "resumed", "cached")) + "."]
    by_metric = defaultdict(list)
    for scoring in scorings:
        by_metric[scoring.metric].append(scoring)
    rows = []
    for metric, group in by_metric.items():
        now = sum(s.seconds for s in group if s.status != "cached")
        earlier = [s.first for s in group if s.status == "cached" and s.first]
        then = sum(f["seconds"] for f in earlier)
        items = sum(s.items for s in group)
        text = f"- {metric}: {len(group)} datasets, {items} items"
        if now:
            fresh = sum(s.items for s in group if s.status != "cached")
            text += f"; {fresh} items scored now in {now:.0f} s"
        if earlier:
            loads = sorted({f["load"] for f in earlier})
            text += (f"; read from the cache, computed earlier in {then:.0f} s (load {loads[0]:.1f}-{loads[-1]:.1f}, "
                     f"{min(f['date'] for f in earlier)})")
        elif not now:
            text += "; read from the cache"
        rows.append(text)
    return lines + (["", "Scoring time per metric (all datasets):", "", *rows] if rows else [])
