"""The report as Markdown, for papers and READMEs: the tables and the samples (no figures).

Changed words are marked as in the HTML page: source words an output dropped are ~~struck~~,
words it added are **bold**.
"""

from __future__ import annotations

import math

from simpeval.report.model import SAMPLE_KINDS, SystemsReport
from simpeval.report.worddiff import Span, word_diff
from simpeval.tables import render

SAMPLE_TITLES = {"random": "Random items", "best": "Best items", "worst": "Worst items"}


def render_markdown(report: SystemsReport) -> str:
    """The whole document."""
    parts = [f"# {report.title}", "",
             f"{len(report.sources)} items, {len(report.systems)} system(s).", "",
             "## Metrics", "", _table(report, report.score_names, "metrics"),
             "## Quality-estimation features", "", _table(report, report.feature_names, "features"),
             "## Samples", "",
             f"Ordered by mean `{report.sample_metric}` over the systems; ~~dropped~~ and **added** words marked.", ""]
    for kind in SAMPLE_KINDS:
        parts += [f"### {SAMPLE_TITLES[kind]}", ""]
        for sample in (s for s in report.samples if s.kind == kind):
            parts.append(f"- #{sample.index + 1}: {_escape(sample.source)}")
            for system, score in zip(report.systems, sample.scores):
                spans = word_diff(sample.source, system.outputs[sample.index])[1]
                parts.append(f"  - {system.name} ({_number(score)}): {_marked(spans, '**')}")
        parts.append("")
    parts += ["## Signatures", "", *(f"- `{name}: {sig}`" for name, sig in report.signatures().items())]
    return "\n".join(parts) + "\n"


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


def _escape(text: str) -> str:
    return "".join("\\" + c if c in "\\`*_[]<>|~" else c for c in text)


def _marked(spans: list[Span], mark: str) -> str:
    return " ".join(f"{mark}{_escape(t)}{mark}" if changed else _escape(t) for changed, t in spans)
