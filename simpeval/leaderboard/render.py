"""The leaderboard as Markdown, self-contained HTML (tables and one inline SVG plot) or JSON.

One table per aspect: a row per metric (sub-score), a column per dataset rated on that aspect,
each cell ``r [low, high] (rank)`` with the 95% bootstrap interval and the significance cluster
within that dataset, then the metric's mean rank over those datasets (rows: metrics ranked on
more datasets first, then by mean rank; a mean over fewer than all the datasets shows its count).
``†`` marks a learned metric on a dataset whose items its shipped weights saw in training (the
dataset is named in its ``trained_on``, or shares items with one that is): not a test result,
and left out of every mean rank and of the headline's winners. A summary ranks the metrics by
mean rank over every (dataset, aspect); a headline names, per dataset and aspect, the metric
family that ranks best outside training data, how often each family is in the first cluster,
and how each learned metric does on the data it never saw.
"""

from __future__ import annotations

import io
import math
from collections import defaultdict
from dataclasses import asdict
from html import escape

from simpeval.leaderboard import documents
from simpeval.leaderboard.run import Board, Cell, Plan

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


def rank_order(means: dict[str, tuple[float, int]]) -> list[str]:
    """Metrics ranked over more cells first, then by mean rank: a learned metric's mean over the
    few cells outside its training data is not comparable with one over every cell, so it never
    heads a table it could not have been ranked on in full."""
    return sorted(means, key=lambda m: (-means[m][1], means[m][0]))


def headline(cells: list[Cell], learned: dict[str, tuple[str, ...]] | None = None) -> list[str]:
    """Which family ranks best per (dataset, aspect) outside training data, how stable that is
    across them, and each learned metric on the data it never saw."""
    best: dict[tuple[str, str], str] = {}
    firsts: dict[str, int] = defaultdict(int)
    for cell in cells:
        eligible = [e for e in cell.entries if e.rank is not None and not e.trained_on]
        if not eligible:
            continue
        top = max(eligible, key=_orient)
        text = f"{top.family} ({top.metric}, r = {top.r:.3f})"
        beaten = [e for e in cell.entries if e.trained_on and _orient(e) > _orient(top)]
        if beaten:
            over = max(beaten, key=_orient)
            text += (f"; {over.metric}{TRAINED} reaches r = {over.r:.3f} but saw these items in training "
                     f"({', '.join(over.seen_in)})")
        best[cell.dataset, cell.aspect] = text
        first = min(e.rank for e in eligible)  # the first cluster outside training data
        for family in {e.family for e in eligible if e.rank == first}:
            firsts[family] += 1
    if not best:
        return []
    lines = [f"- {dataset} / {aspect}: {text}" for (dataset, aspect), text in best.items()]
    total = len(best)
    stable = sorted(firsts.items(), key=lambda kv: (-kv[1], kv[0]))
    lines.append("- in the first significance cluster: " + ", ".join(f"{family} {count}/{total}"
                                                                      for family, count in stable))
    lines += [_learned_line(cells, family) for family in sorted(learned or {})]
    return lines


def _learned_line(cells: list[Cell], family: str) -> str:
    """A learned metric's best sub-score per cell: on how many cells it is unmarked, and there its
    ranks; on how many it is marked."""
    clean, marked, firsts = [], 0, 0
    for cell in cells:
        entries = [e for e in cell.entries if e.family == family and e.rank is not None]
        if not entries:
            continue
        if any(e.trained_on for e in entries):
            marked += 1
            continue
        clean.append((cell, min(entries, key=lambda e: e.rank)))
        firsts += clean[-1][1].rank == min(e.rank for e in cell.entries if e.rank is not None and not e.trained_on)
    text = f"- learned {family}: {len(clean)} dataset-aspects outside its training data"
    if clean:
        best_cell, best = max(clean, key=lambda ce: _orient(ce[1]))
        text += (f", first cluster on {firsts}, mean best rank {sum(e.rank for _, e in clean) / len(clean):.1f}, "
                 f"highest |r| {abs(best.r):.3f} ({best.metric} on {best_cell.dataset} / {best_cell.aspect})")
    return text + f"; {marked} marked {TRAINED}" if marked else text


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
        order = {m: i for i, m in enumerate(rank_order(means))}
        metrics.sort(key=lambda m: order.get(m, math.inf))
        columns = ["metric", *(_column(c) for c in group), "mean rank"]
        rows = []
        for metric in metrics:
            found = [next((e for e in cell.entries if e.metric == metric), None) for cell in group]
            mean = means.get(metric)
            rows.append([metric, *(_cell_text(e) for e in found), _mean_text(mean, len(group))])
        tables[aspect] = (columns, rows)
    return tables


def _mean_text(mean: tuple[float, int] | None, cells: int) -> str:
    """``2.40``, or ``4.00 (1 of 5)`` when the metric was ranked on fewer than all the cells."""
    if mean is None:
        return "–"
    return f"{mean[0]:.2f}" if mean[1] == cells else f"{mean[0]:.2f} ({mean[1]} of {cells})"


def _column(cell: Cell) -> str:
    split = "" if cell.split == "all" else f", {cell.split}"
    return f"{cell.dataset} (N={cell.items}{split})"


SUMMARY_COLUMNS = ["metric", "mean rank", "datasets x aspects", f"{TRAINED} left out"]
SUMMARY_NOTE = (f"A learned metric's mean rank is over the cells outside its training data only ({TRAINED} cells "
                "left out): one over a few cells is not comparable with one over every cell, so metrics ranked "
                "on more cells come first, then lower mean ranks.")


def summary_rows(cells: list[Cell]) -> list[list[str]]:
    """Metrics by mean rank over every (dataset, aspect) outside their training data."""
    means = mean_ranks(cells)
    marked = defaultdict(int)
    for cell in cells:
        for entry in cell.entries:
            marked[entry.metric] += entry.trained_on
    return [[metric, f"{mean:.2f}", str(count), str(marked[metric])]
            for metric, (mean, count) in ((m, means[m]) for m in rank_order(means))]


def training_lines(board: Board) -> list[str]:
    """Each learned metric's training data and where it is marked, then the overlaps found."""
    lines = []
    for family, names in sorted(board.trained_on.items()):
        marked = sorted({f"{c.dataset}" for c in board.cells for e in c.entries
                         if e.family == family and e.trained_on})
        lines.append(f"- {family}: trained on {', '.join(names)}; marked {TRAINED} on "
                     + (", ".join(marked) if marked else "no rated dataset"))
    if board.overlaps:
        lines += ["", "Rated items also in a learned metric's training data ((source, output) pairs compared by their "
                  "letters and digits, case folded; a dataset shares all its items with itself):", ""]
        lines += [f"- {o.describe()}" for o in board.overlaps if o.dataset != o.training]
    clean = [t for t in board.checked if not any(o.training == t and o.dataset != t for o in board.overlaps)]
    if clean:
        lines += ["", f"Checked, sharing no item with another dataset on this page: {', '.join(clean)}."]
    if board.unchecked:
        lines += ["", f"Not checked (neither a rated dataset nor a test set simpeval can read): "
                      f"{', '.join(board.unchecked)}; no rated dataset is marked for them."]
    return lines


SIGNATURES_NOTE = ("Each metric's settings (its signature; the number of references, nrefs, is each dataset's own, "
                   "and preset=none in the settings above: today's EASSE defaults).")


def _title(plan: Plan) -> str:
    if plan.level == "document":
        return "Leaderboard for documents: which metric agrees with human judgements of whole documents?"
    if plan.level == "languages":
        return ("Leaderboard in other languages: which metric agrees with human judgements of simplifications "
                "and of readability?")
    return "Leaderboard: which metric agrees with human judgements?"


def _settings(plan: Plan) -> str:
    from simpeval.presets import metric_settings

    split = plan.split or "all items"
    level = f" level={plan.level}" if plan.level != "sentence" else ""
    return (f"correlation={plan.correlation} significance={plan.significance} alpha={plan.alpha} "
            f"bootstrap={plan.bootstrap} seed={plan.seed} items={split}{level} {metric_settings(None)}")


def signature_lines(board: Board) -> list[str]:
    """``name: signature`` per metric, as ``meta-evaluate`` prints them: what each row was computed with."""
    return [f"{name}: {signature}" for name, signature in board.signatures.items()]


def _notes(board: Board, plan: Plan) -> list[str]:
    notes = [f"{m.dataset}: missing. {m.reason}" for m in board.missing]
    notes += [f"metric left out: {m}" for m in plan.left_out]
    # one line per reason and set of datasets, naming the metrics left out for it
    datasets: dict[tuple[str, str], set[str]] = defaultdict(set)
    for cell in board.cells:
        for skipped in cell.skipped:
            spec, why = skipped.split(": ", 1)
            datasets[why, spec].add(cell.dataset)
    specs: dict[tuple[str, tuple[str, ...]], list[str]] = defaultdict(list)
    for (why, spec), names in datasets.items():
        specs[why, tuple(sorted(names))].append(spec)
    notes += [f"left out of {', '.join(names)}: {', '.join(found)} ({why})" for (why, names), found in specs.items()]
    return list(dict.fromkeys(notes))


INTRO = ("Each cell: correlation with the human scores of the dataset's items, its 95% bootstrap interval, "
         "and (in brackets) the metric's significance cluster on that dataset (1 = best; a metric starts a "
         "new cluster when it is significantly worse than one in the current cluster, as WMT ranks metrics). "
         f"{TRAINED} = the metric's shipped weights saw items of that dataset in training (the dataset is in its "
         "training data, or shares items with a dataset that is; see *Training data*): not a test result, and "
         "left out of the mean rank and of the headline's winners.")
HEADLINE_INTRO = ("Best metric family per dataset and aspect (highest |r| outside training data; a negative r "
                  "means lower metric values go with higher human scores, e.g. shorter outputs judged simpler), "
                  "how often each family is in the first cluster, and each learned metric outside its training "
                  "data:")


def render_markdown(board: Board, plan: Plan, footer: list[str] = ()) -> str:
    from simpeval.tables import render

    cells = board.cells
    parts = [f"# {_title(plan)}", "", INTRO, "",
             f"Settings: `{_settings(plan)}`.", ""]
    lines = headline(cells, board.trained_on) + documents.pair_headline(board)
    if lines:
        parts += ["## Headline", "", HEADLINE_INTRO, "", *lines, ""]
    for aspect, (columns, rows) in aspect_tables(cells).items():
        parts += [f"## {aspect}", "", render(columns, rows, "markdown")]
    for name, (columns, rows) in documents.pair_tables(board.pairs).items():
        parts += [f"## {name}: pairwise", "", documents.PAIRS_NOTE, "", render(columns, rows, "markdown")]
    if board.perturbations:
        columns, rows = documents.perturbation_table(board.perturbations)
        parts += ["## Perturbations: which metric catches which error", "", documents.PERTURBATION_NOTE, "",
                  render(columns, rows, "markdown"), *documents.caught_lines(board.perturbations), ""]
    parts += ["## Summary: mean rank over every dataset and aspect", "", SUMMARY_NOTE, "",
              render(SUMMARY_COLUMNS, summary_rows(cells), "markdown")]
    training = training_lines(board)
    if training:
        parts += ["## Training data", "", *training, ""]
    notes = _notes(board, plan)
    if notes:
        parts += ["## Notes", "", *(f"- {n}" for n in notes), ""]
    if board.signatures:
        parts += ["## Signatures", "", SIGNATURES_NOTE, "", *(f"- `{line}`" for line in signature_lines(board)), ""]
    parts += [*footer]
    return "\n".join(parts).rstrip() + "\n"


def render_json(board: Board, plan: Plan) -> str:
    from simpeval.jsontext import dumps

    payload = {"settings": _settings(plan), "metrics": plan.metrics, "left_out": plan.left_out,
               "cells": [asdict(c) for c in board.cells], "missing": [asdict(m) for m in board.missing],
               "trained_on": board.trained_on, "overlaps": [asdict(o) for o in board.overlaps],
               "unchecked": board.unchecked,
               "mean_ranks": {m: {"mean_rank": v, "cells": n} for m, (v, n) in mean_ranks(board.cells).items()},
               "work": asdict(board.work), "pairs": [asdict(r) for r in board.pairs],
               "perturbations": [asdict(r) for r in board.perturbations], "signatures": board.signatures}
    return dumps(payload, indent=2) + "\n"


CSS = """
body { font: 15px/1.45 system-ui, sans-serif; color: #1d2330; margin: 0; background: #f5f6f8; }
main { max-width: 1300px; margin: 0 auto; padding: 24px 28px 48px; background: #fff; }
h2 { border-bottom: 2px solid #e3e6ec; } .meta { color: #5b6475; }
table { border-collapse: collapse; margin: 8px 0; font-variant-numeric: tabular-nums; display: block;
        overflow-x: auto; }
th, td { border: 1px solid #d9dde5; padding: 4px 9px; text-align: right; } th { background: #eef1f6; }
td:first-child { text-align: left; font-weight: 600; } figure { margin: 0; } figure img { max-width: 100%; }
td.trained { color: #7a8294; background: repeating-linear-gradient(135deg, #f4f5f8 0 6px, #e6e8ee 6px 8px); }
"""


def _html_cell(value: str) -> str:
    """A table cell; a training-data cell (ending in the mark) greyed and hatched, with a tooltip."""
    if value.endswith(TRAINED):
        return f'<td class="trained" title="trained on these items: not a test result">{escape(value)}</td>'
    return f"<td>{escape(value)}</td>"


def _html_table(columns: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{escape(c)}</th>" for c in columns)
    body = "".join("<tr>" + "".join(_html_cell(str(v)) for v in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def _html_lines(lines: list[str]) -> list[str]:
    """Markdown-style lines (``- item`` lists and paragraphs) as HTML."""
    out, in_list = [], False
    for line in lines:
        if line.startswith("- ") != in_list:
            out.append("<ul>" if not in_list else "</ul>")
            in_list = not in_list
        if line.startswith("- "):
            out.append(f"<li>{escape(line[2:])}</li>")
        elif line:
            out.append(f"<p>{escape(line)}</p>")
    return out + (["</ul>"] if in_list else [])


def heatmap_svg(cells: list[Cell]) -> str:
    """Metrics (rows) against datasets and aspects (columns): |r| as colour, the rank written in,
    training-data cells hatched and marked."""
    import numpy as np
    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle

    metrics = rank_order(mean_ranks(cells))
    metrics += [m for m in dict.fromkeys(e.metric for c in cells for e in c.entries) if m not in metrics]
    values = np.full((len(metrics), len(cells)), np.nan)
    labels = [[""] * len(cells) for _ in metrics]
    trained = []
    for j, cell in enumerate(cells):
        for entry in cell.entries:
            i = metrics.index(entry.metric)
            if entry.r is not None:
                values[i, j] = abs(entry.r)
                labels[i][j] = f"{entry.rank or ''}{TRAINED if entry.trained_on else ''}"
                if entry.trained_on:
                    trained.append((i, j))
    fig = Figure(figsize=(2.0 + 0.9 * len(cells), 1.2 + 0.3 * len(metrics)))
    ax = fig.add_subplot()
    for i, j in trained:  # hatched: trained on these items
        ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, hatch="///", edgecolor="white", linewidth=0,
                               zorder=2))
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


def render_html(board: Board, plan: Plan, footer: list[str] = ()) -> str:
    import base64

    cells = board.cells
    svg = heatmap_svg(cells) if cells else ""
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>simpeval leaderboard</title><style>{CSS}</style></head><body><main>",
             f"<h1>{escape(_title(plan))}</h1>",
             f'<p class="meta">{escape(INTRO)} Settings: <code>{escape(_settings(plan))}</code></p>']
    lines = headline(cells, board.trained_on) + documents.pair_headline(board)
    if lines:
        parts += ["<h2>Headline</h2>", f"<p>{escape(HEADLINE_INTRO)}</p>", *_html_lines(lines)]
    if svg:
        data = base64.b64encode(svg.encode()).decode()
        parts += ["<h2>Metrics against datasets</h2>",
                  f'<figure><img alt="|r| per metric and dataset" src="data:image/svg+xml;base64,{data}">'
                  f"<figcaption>|r| by colour; the number is the significance cluster; hatched with {TRAINED}: "
                  "trained on these items.</figcaption></figure>"]
    for aspect, (columns, rows) in aspect_tables(cells).items():
        parts += [f"<h2>{escape(aspect)}</h2>", _html_table(columns, rows)]
    for name, (columns, rows) in documents.pair_tables(board.pairs).items():
        parts += [f"<h2>{escape(name)}: pairwise</h2>", f"<p>{escape(documents.PAIRS_NOTE)}</p>",
                  _html_table(columns, rows)]
    if board.perturbations:
        columns, rows = documents.perturbation_table(board.perturbations)
        parts += ["<h2>Perturbations: which metric catches which error</h2>",
                  f"<p>{escape(documents.PERTURBATION_NOTE)}</p>", _html_table(columns, rows),
                  *_html_lines(documents.caught_lines(board.perturbations))]
    parts += ["<h2>Summary: mean rank</h2>", f"<p>{escape(SUMMARY_NOTE)}</p>",
              _html_table(SUMMARY_COLUMNS, summary_rows(cells))]
    training = training_lines(board)
    if training:
        parts += ["<h2>Training data</h2>", *_html_lines(training)]
    notes = _notes(board, plan)
    if notes:
        parts += ["<h2>Notes</h2>", *_html_lines([f"- {n}" for n in notes])]
    if board.signatures:
        parts += ["<h2>Signatures</h2>", f"<p>{escape(SIGNATURES_NOTE)}</p>",
                  "<ul>" + "".join(f"<li><code>{escape(line)}</code></li>" for line in signature_lines(board)) + "</ul>"]
    parts += ['<div class="meta">', *_html_lines(list(footer)), "</div></main></body></html>"]
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
            spread = f"{loads[0]:.1f}" + (f"-{loads[-1]:.1f}" if len(loads) > 1 else "")
            unknown = any(s.status == "cached" and not s.first for s in group)  # no record: time unknown
            at_least = "at least " if unknown or any(f.get("partial") for f in earlier) else ""
            text += (f"; read from the cache, computed earlier in {at_least}{then:.0f} s (load {spread}, "
                     f"{min(f['date'] for f in earlier)})")
        elif not now:
            text += "; read from the cache"
        rows.append(text)
    return lines + (["", "Scoring time per metric (all datasets):", "", *rows] if rows else [])
