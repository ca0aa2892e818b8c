"""The report as one self-contained HTML file: inline CSS, figures as inline SVG images, no script.

Nothing in the page refers to another file or to the network, so it can be mailed, archived or
opened offline, and a browser shows it exactly as written.
"""

from __future__ import annotations

import base64
import math
from html import escape

from simpeval._version import __version__
from simpeval.report.model import SAMPLE_KINDS, SystemsReport
from simpeval.report.highlight import Span, operation_spans
from simpeval.report.wordlabels import LabelledWords, LabelSpan
from simpeval.tables import column_decimals

PLOTTED_FEATURES = ("qe-compression", "qe-levenshtein")
OPERATIONS = ("kept", "deleted", "replaced", "moved")
FEATURE_TITLES = {"qe": "Quality-estimation features", "ops": "Word operations (proportions)"}  # of the source's words: they add up to 1
SAMPLE_TITLES = {"random": "Random items", "best": "Best items", "worst": "Worst items"}

CSS = """
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d2330; margin: 0; background: #f5f6f8; }
main { max-width: 1100px; margin: 0 auto; padding: 24px 28px 48px; background: #fff; }
h1 { font-size: 26px; margin: 0 0 4px; } h2 { font-size: 20px; margin: 32px 0 10px; border-bottom: 2px solid #e3e6ec; }
h3 { font-size: 16px; margin: 20px 0 8px; } .meta { color: #5b6475; margin: 0 0 8px; }
table { border-collapse: collapse; margin: 8px 0; font-variant-numeric: tabular-nums; display: block; overflow-x: auto; }
th, td { border: 1px solid #d9dde5; padding: 4px 9px; text-align: right; vertical-align: top; }
th { background: #eef1f6; } td.name, th.name { text-align: left; font-weight: 600; }
td.best { font-weight: 700; background: #e8f4ea; } .mark { color: #8a5a00; font-size: 12px; display: block; }
.plots { display: flex; flex-wrap: wrap; gap: 12px; } figure { margin: 0; flex: 1 1 460px; }
figure img { max-width: 100%; } figcaption { color: #5b6475; font-size: 13px; }
.sample { border: 1px solid #d9dde5; border-radius: 6px; padding: 8px 12px; margin: 10px 0; }
.sample td { text-align: left; } .sample td.score { text-align: right; white-space: nowrap; }
.source { margin: 0 0 6px; } code { font-size: 12px; color: #3b4252; }
.deleted { background: #fbe0e0; text-decoration: line-through; color: #8c1d1d; }
.added { background: #dff3e2; color: #14532d; } .replaced { background: #fdebc8; color: #6b4400; }
.moved { background: #dde8fa; color: #1f3f7a; } .legend span { padding: 0 5px; margin-right: 6px; }
tr.labels td { border-top: none; font-size: 14px; } .wl0 { background: #ead9fb; color: #4b1d7a; }
.wl1 { background: #d3f0f4; color: #0b4f5c; } .wl2 { background: #fbd9ec; color: #7a1d4f; }
.wl3 { background: #e6f2c8; color: #3d5a0b; } .wl4 { background: #f6e3cc; color: #6b3a00; }
.wl5 { background: #dfe3ea; color: #2c3442; }
"""
LABEL_CLASSES = 6
"""Colours for a metric's own word labels (``wl0`` ...), given in its legend order and reused beyond six."""


def render_html(report: SystemsReport) -> str:
    """The whole page."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(report.title)}</title><style>{CSS}</style></head><body><main>",
        f"<h1>{escape(report.title)}</h1>",
        f'<p class="meta">{len(report.sources)} items, {len(report.systems)} system(s), '
        f'{"with" if report.has_references else "without"} references; simpeval {escape(__version__)}. '
        "Best score per column in bold.</p>",
        "<h2>Metrics</h2>",
        _test_note(report),
        _scores_table(report, report.score_names, "metrics"),
        _all_pairs(report),
        *(f"<h2>{FEATURE_TITLES.get(metric, metric)}</h2>" + _scores_table(report, names, "features")
          for metric, names in _by_metric(report.systems[0].features).items()),
        "<h2>Plots</h2>",
        _plots(report),
        f"<h2>Samples</h2><p class=\"meta\">Ordered by mean <code>{escape(report.sample_metric)}</code> over the "
        "systems. Words coloured by operation (13a tokens, as <code>ops</code> counts them): "
        '<span class="legend"><span class="deleted">deleted</span><span class="replaced">replaced</span>'
        '<span class="moved">moved</span><span class="added">added</span></span>. '
        "The source is coloured too when the report has one system.</p>",
        *(_label_legend(labelled) for labelled in report.labelled_words),
        *(_samples(report, kind) for kind in SAMPLE_KINDS),
        "<h2>Signatures</h2><ul>",
        *(f"<li><code>{escape(name)}: {escape(sig)}</code></li>" for name, sig in report.signatures().items()),
        "</ul></main></body></html>",
    ]
    return "\n".join(parts) + "\n"


def _all_pairs(report: SystemsReport) -> str:
    """``--all-pairs``: the ranking table, then the pairs of each sub-score (folded)."""
    if report.all_pairs is None:
        return ""
    from simpeval.allpairs import pair_rows, ranking_rows

    result = report.all_pairs
    parts = ["<h2>All pairs of systems</h2>", f'<p class="meta">{escape(result.note())}</p>',
             _plain_table(*ranking_rows(result))]
    for sub in result.rankings:
        parts.append(f"<details><summary>pairs on {escape(sub)} (t-test and win/tie/loss on sentence scores)</summary>"
                     + _plain_table(*pair_rows(result, sub)) + "</details>")
    return "\n".join(parts)


def _plain_table(columns: list[str], rows: list[list]) -> str:
    head = "".join(f"<th>{escape(c)}</th>" for c in columns)
    digits = [column_decimals([row[j] for row in rows]) for j in range(len(columns))]
    body = ["<tr>" + "".join(f'<td class="name">{escape(v)}</td>' if isinstance(v, str) and j < 2 else
                             f"<td>{escape(v if isinstance(v, str) else '' if v is None else str(v) if isinstance(v, int) else _number(v, digits[j]))}</td>"
                             for j, v in enumerate(row)) + "</tr>" for row in rows]
    return "<table><tr>" + head + "</tr>" + "".join(body) + "</table>"


def _by_metric(result) -> dict[str, list[str]]:
    """Sub-score names grouped by the metric whose signature they carry (``qe``, ``ops``)."""
    groups: dict[str, list[str]] = {}
    for name in result.score_names:
        groups.setdefault(result.signatures[name].split("|", 1)[0], []).append(name)
    return groups


def _test_note(report: SystemsReport) -> str:
    return f'<p class="meta">{escape(report.test_note())}</p>' if report.test else ""


def _best(values: list[float], higher: bool | None) -> float | None:
    if higher is None:  # a feature without a direction has no best
        return None
    finite = [v for v in values if not math.isnan(v)]
    return (max if higher else min)(finite) if len(finite) > 1 else None


def _scores_table(report: SystemsReport, names: list[str], kind: str) -> str:
    rows = ['<table><tr><th class="name">system</th>' + "".join(f"<th>{escape(n)}</th>" for n in names) + "</tr>"]
    results = [getattr(s, kind) for s in report.systems]
    # features describe outputs rather than judge them: no best
    best = {n: _best([r.corpus_scores[n] for r in results], results[0].higher_is_better[n]) if kind == "metrics"
            else None for n in names}
    digits = {n: column_decimals([r.corpus_scores[n] for r in results]) for n in names}
    for system, result in zip(report.systems, results):
        cells = []
        for n in names:
            value = result.corpus_scores[n]
            css = ' class="best"' if best[n] is not None and value == best[n] else ""
            mark = system.marks.get(n)
            note = f'<span class="mark">{escape(mark)}</span>' if mark else ""
            cells.append(f"<td{css}>{_number(value, digits[n])}{note}</td>")
        rows.append(f'<tr><td class="name">{escape(system.name)}</td>' + "".join(cells) + "</tr>")
    return "\n".join(rows) + "</table>"


def _number(value: float, digits: int) -> str:
    """``value`` with the decimals its metric uses in every cell (:func:`simpeval.tables.column_decimals`)."""
    return "n/a" if math.isnan(value) else f"{value:.{digits}f}"


def _figure(svg: str, caption: str) -> str:
    data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    return (f'<figure><img alt="{escape(caption)}" src="data:image/svg+xml;base64,{data}">'
            f"<figcaption>{escape(caption)}</figcaption></figure>")


def _plots(report: SystemsReport) -> str:
    from simpeval.report.plots import distribution_svg

    figures = []
    for name in (n for n in PLOTTED_FEATURES if n in report.feature_names):
        values = {s.name: s.features.sentence_scores[name] for s in report.systems}
        figures.append(_figure(distribution_svg(values, name), f"Distribution of {name} per sentence"))
    signatures = report.systems[0].metrics.signatures
    for name in (n for n in report.score_names if signatures[n].split("|", 1)[0] == n):
        values = {s.name: s.metrics.sentence_scores[name] for s in report.systems}
        figures.append(_figure(distribution_svg(values, name), f"Sentence-level {name} per system"))
    if all(f"ops-{op}" in report.feature_names for op in OPERATIONS):
        from simpeval.report.plots import stacked_bars_svg

        shares = {s.name: {op: s.features.corpus_scores[f"ops-{op}"] for op in OPERATIONS} for s in report.systems}
        figures.append(_figure(stacked_bars_svg(shares, "share of the source's words"),
                               "Word operations per system (ops; added words are in the table)"))
    return '<div class="plots">' + "\n".join(figures) + "</div>"


def _spans(spans: list[Span]) -> str:
    return " ".join(escape(text) if op == "kept" else f'<span class="{op}">{escape(text)}</span>'
                    for op, text in spans)


def _label_class(labelled: LabelledWords, label: str) -> str:
    return f"wl{list(labelled.legend).index(label) % LABEL_CLASSES}"


def _label_legend(labelled: LabelledWords) -> str:
    """The legend of one metric's word labels (its description of each as the tooltip)."""
    items = "".join(f'<span class="{_label_class(labelled, label)}" title="{escape(meaning)}">{escape(label)}</span>'
                    for label, meaning in labelled.legend.items())
    return (f'<p class="meta">Under each output, its words coloured by the labels of '
            f'<code>{escape(labelled.metric)}</code>: <span class="legend">{items}</span>.</p>')


def _label_row(labelled: LabelledWords, spans: list[LabelSpan]) -> str:
    text = "".join(escape(piece) if label is None else
                   f'<span class="{_label_class(labelled, label)}" title="{escape(label)}">{escape(piece)}</span>'
                   for label, piece in spans)
    return (f'<tr class="labels"><td class="name"></td><td>{text}</td>'
            f'<td class="score"><code>{escape(labelled.metric)}</code></td></tr>')


def _samples(report: SystemsReport, kind: str) -> str:
    out = [f"<h3>{SAMPLE_TITLES[kind]}</h3>"]
    samples = [s for s in report.samples if s.kind == kind]
    digits = column_decimals([score for s in samples for score in s.scores])  # all of one metric
    for sample in samples:
        rows = []
        for position, (system, score) in enumerate(zip(report.systems, sample.scores)):
            sys_spans = operation_spans(sample.source, system.outputs[sample.index])[1]
            rows.append(f'<tr><td class="name">{escape(system.name)}</td><td>{_spans(sys_spans)}</td>'
                        f'<td class="score">{_number(score, digits)}</td></tr>')
            rows += [_label_row(labelled, labelled.spans[(position, sample.index)])
                     for labelled in report.labelled_words if (position, sample.index) in labelled.spans]
        # with one system, mark what it dropped from the source; with several, the source stays plain
        only = report.systems[0].outputs[sample.index] if len(report.systems) == 1 else None
        source = escape(sample.source) if only is None else _spans(operation_spans(sample.source, only)[0])
        refs = "".join(f"<li>{escape(r)}</li>" for r in sample.references)
        out.append(
            f'<div class="sample"><p class="source"><b>#{sample.index + 1}</b> {source}</p>'
            f'<table><tr><th class="name">system</th><th class="name">output</th>'
            f"<th>{escape(report.sample_metric)}</th></tr>{''.join(rows)}</table>"
            + (f"<details><summary>{len(sample.references)} references</summary><ul>{refs}</ul></details>" if refs else "")
            + "</div>"
        )
    return "\n".join(out)
