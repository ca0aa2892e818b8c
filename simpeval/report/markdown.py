"""The report as Markdown, for papers and READMEs: the tables and the samples (no figures).

In the samples, the words an output added or replaced are **bold** (the alignment of
:mod:`simpeval.analysis`, as in the HTML page).
"""

from __future__ import annotations

import math

from simpeval.report.model import SAMPLE_KINDS, SystemsReport
from simpeval.report.highlight import Span, operation_spans
from simpeval.tables import markdown_text, render

SAMPLE_TITLES = {"random": "Random items", "best": "Best items", "worst": "Worst items"}


def render_markdown(report: SystemsReport) -> str:
    """The whole document."""
    parts = [f"# {markdown_text(report.title)}", "",
             f"{len(report.sources)} items, {len(report.systems)} system(s).", "",
             "## Metrics", "", *([report.test_note(markdown_text), ""] if report.test else []),
             _table(report, report.score_names, "metrics"),
             *_all_pairs(report),
             "## Quality-estimation features and word operations", "",
             _table(report, report.feature_names, "features"),
             "## Samples", "",
             f"Ordered by mean `{report.sample_metric}` over the systems; **added or replaced** words in bold.", ""]
    for kind in SAMPLE_KINDS:
        parts += [f"### {SAMPLE_TITLES[kind]}", ""]
        for sample in (s for s in report.samples if s.kind == kind):
            parts.append(f"- #{sample.index + 1}: {markdown_text(sample.source)}")
            for system, score in zip(report.systems, sample.scores):
                spans = operation_spans(sample.source, system.outputs[sample.index])[1]
                parts.append(f"  - {markdown_text(system.name)} ({_number(score)}): {_marked(spans)}")
        parts.append("")
    parts += ["## Signatures", "", *(f"- `{name}: {sig}`" for name, sig in report.signatures().items())]
    return "\n".join(parts) + "\n"


def _all_pairs(report: SystemsReport) -> list[str]:
    """``--all-pairs``: the ranking table and the pairs of each sub-score."""
    if report.all_pairs is None:
        return []
    from simpeval.allpairs import pair_rows, ranking_rows

    result = report.all_pairs
    parts = ["## All pairs of systems", "", render(*ranking_rows(result), "markdown"), result.note(), ""]
    for sub in result.rankings:
        parts += [f"Pairs on `{sub}` (t-test and win/tie/loss on sentence scores):", "",
                  render(*pair_rows(result, sub), "markdown", digits=4)]
    return parts


def _table(report: SystemsReport, names: list[str], kind: str) -> str:
    rows = []
    for system in report.systems:
        result = getattr(system, kind)
        cells = []
        for n in names:
            mark = system.marks.get(n)
            cells.append(_number(result.corpus_scores[n]) + (f" ({mark})" if mark else ""))
        rows.append([system.name, *cells])
    return render(["system", *names], rows, "markdown")


def _number(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{value:.3f}"


def _marked(spans: list[Span]) -> str:
    return " ".join(f"**{markdown_text(t)}**" if op in ("added", "replaced") else markdown_text(t) for op, t in spans)
