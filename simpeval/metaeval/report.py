"""Format a meta-evaluation as the paper's tables (metrics x splits) or as JSON records.

In every table format a cell is the signed correlation of a metric with the human score on a
split, followed by ``(n=...)`` when it was computed on fewer items than the split's N (a metric
undefined on some items); winners (not significantly outperformed by any other metric) are bold in Markdown and
LaTeX and starred in the terminal. With ``--bootstrap N`` each split has a column of percentile
intervals ``(low, high)`` beside it (CSV: a low and a high column, full precision). Without a test (``--significance none``) nothing is marked and
the legend says so. JSON is a list of records
``{"metric", "split", "n", "r", "p_value", "winner", ...}``, one per (metric, split); ``winner`` is
``null`` without a test.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from simpeval.jsontext import dumps
from simpeval.presets import metric_settings

if TYPE_CHECKING:
    from simpeval.metaeval.run import Report


def _number(value: float | None) -> float | None:
    return None if value is None or math.isnan(value) else value


def tested(report: Report) -> bool:
    """Whether a significance test decided the winners (``--significance none``: no winners)."""
    return report.request.settings.significance != "none"


def records(report: Report) -> list[dict]:
    """The JSON records of ``report``."""
    out = []
    for rec in report.result.records:
        row = {
            "metric": rec.metric,
            "split": rec.split,
            "n": rec.n,
            "r": _number(rec.r),
            "p_value": _number(rec.p_value),
            "winner": rec.winner if tested(report) else None,
            "abs_r": _number(abs(rec.r)),
            "signature": report.signatures.get(rec.metric, ""),
        }
        if rec.ci_low is not None:
            row["ci_low"], row["ci_high"] = rec.ci_low, rec.ci_high
        row.update(_extras(rec, report.request.settings))
        out.append(row)
    return out


def _extras(rec, settings) -> dict:
    """The fields of the issue-19 statistics: averaging, acc23-opt threshold, tie epsilon, rank."""
    row: dict = {"average_by": settings.average_by}
    if rec.groups is not None:
        row["groups"], row["groups_dropped"] = rec.groups, rec.dropped
    if rec.threshold is not None:
        row["threshold"] = rec.threshold
    if settings.correlation in ("kendall-23", "acc23"):
        row["tie_epsilon"] = settings.tie_epsilon
    if rec.rank is not None:
        row["rank"] = rec.rank
    return row


def settings_line(report: Report) -> str:
    """What was correlated with what, and how the metrics were set, in one line."""
    req = report.request
    scale = "raw" if req.raw or not report.dataset.has_standardized(report.aspect) else "z-scores"
    settings = req.settings
    return (
        f"dataset={report.dataset.name} aspect={report.aspect} ({scale}) references={report.references} "
        f"level={req.level} correlation={settings.correlation} significance={settings.significance} "
        f"alpha={settings.alpha}{_statistic_settings(report)} {metric_settings(req.preset)}"
    )


def _statistic_settings(report: Report) -> str:
    """The averaging (when not none), the resamples and seed of the tests that resample, the tie epsilon, the acc23-opt thresholds chosen, and the groups
    averaging dropped, if any."""
    settings = report.request.settings
    parts = [f"average-by={settings.average_by}"] if settings.average_by != "none" else []
    if settings.significance == "permutation":
        parts.append(f"resamples={settings.resamples}")
    if settings.bootstrap:
        parts.append(f"bootstrap={settings.bootstrap}")
    if settings.significance == "permutation" or settings.bootstrap:
        parts.append(f"seed={report.request.seed}")
    if settings.correlation in ("kendall-23", "acc23"):
        parts.append(f"tie-epsilon={settings.tie_epsilon:g}")
    if settings.correlation == "acc23-opt":
        chosen = [f"{r.metric}/{r.split}:{r.threshold:.4g}" for r in report.result.records if r.threshold is not None]
        parts.append("thresholds=" + ",".join(chosen) + (f" pair-sample={settings.tie_sample:g}"
                                                        if settings.tie_sample < 1 else ""))
    dropped = [f"{r.metric}/{r.split}:{r.dropped}" for r in report.result.records if r.dropped]
    if dropped:
        parts.append("groups-dropped=" + ",".join(dropped))
    return "".join(" " + p for p in parts)


def provenance(report: Report) -> list[str]:
    """The settings line, then each metric's signature (or the ``--scores`` file it came from)."""
    return [settings_line(report), *(f"{m}: {report.signatures[m]}" for m in report.result.metrics
                                     if m in report.signatures)]


def _interval_cells(rec, fmt: str, digits: int) -> list:
    """A record's bootstrap interval: ``(low, high)`` in a table (empty where r is undefined), its two
    bounds in CSV (None: an empty cell)."""
    if fmt == "csv":
        return [rec.ci_low, rec.ci_high]
    if rec.ci_low is None:
        return [""]
    return [f"({rec.ci_low:.{digits}f}, {rec.ci_high:.{digits}f})"]


def _legend(report: Report, fmt: str, ranked: bool = False) -> str:
    """What the marked cells (and ranks) mean in ``fmt``, or that nothing is marked without a test."""
    if not tested(report):
        text = "no significance test (--significance none): no cell is marked"
    else:
        winners = "not significantly outperformed by any other metric"
        if ranked:
            winners += ("; rank: significance cluster (a metric starts a new cluster when significantly worse "
                        "than one in the current cluster, as WMT ranks metrics)")
        text = {"table": f"* = {winners}", "markdown": f"Bold: {winners}.", "latex": f"bold: {winners}"}.get(fmt, "")
    return f"% {text}" if fmt == "latex" else text


def format_report(report: Report, fmt: str = "table", digits: int = 3) -> str:
    """``report`` in format ``fmt`` (one of :data:`FORMATS`)."""
    if fmt == "json":
        return dumps(records(report), indent=2) + "\n"
    from simpeval.tables import format_cell, render

    result = report.result
    splits = result.splits
    sizes = {name: len(idx) for name, idx in report.split.groups.items()}
    # a metric undefined on some items (a sparse --scores column) is correlated on fewer
    # than the split's N items: its cell says so (CSV: an "n (split)" column after the split)
    short = {s for s in splits if any(result.record(m, s).n != sizes[s] for m in result.metrics)}
    ranked = report.request.settings.rank
    # --bootstrap: each split's interval beside its r (CSV: its two bounds, at full precision)
    bounded = any(rec.ci_low is not None for rec in result.records)
    ci = f"{report.request.settings.ci_level * 100:g}% CI"
    columns = ["metric"]
    for s in splits:
        columns += [f"{s} (N={sizes[s]})", *([f"n ({s})"] if fmt == "csv" and s in short else []),
                    *(([f"{ci} low ({s})", f"{ci} high ({s})"] if fmt == "csv" else [f"{ci} ({s})"])
                      if bounded else []),
                    *([f"rank ({s})"] if ranked else [])]
    rows, emphasis = [], []
    for i, metric in enumerate(result.metrics):
        row: list = [metric]
        for split in splits:
            rec = result.record(metric, split)
            if rec.winner and tested(report):
                emphasis.append((i, len(row)))
            if fmt == "csv":
                row += [rec.r, *([rec.n] if split in short else [])]
            elif rec.n != sizes[split]:
                row.append(f"{format_cell(rec.r, digits)} (n={rec.n})")
            else:
                row.append(rec.r)
            if bounded:
                row += _interval_cells(rec, fmt, digits)
            if ranked:
                row.append("" if rec.rank is None else rec.rank)
        rows.append(row)
    text = render(columns, rows, fmt, emphasis=emphasis, digits=digits)
    settings, *signatures = provenance(report)
    legend = _legend(report, fmt, ranked)
    if fmt == "table":
        return "\n".join([f"# {settings}", text + legend, *(f"# {s}" for s in signatures)]) + "\n"
    if fmt == "markdown":
        lines = [text, f"{legend} Settings: `{settings}`.", "", *(f"- `{s}`" for s in signatures)]
        return "\n".join(lines) + "\n"
    if fmt == "latex":
        return "\n".join([f"% {settings}", text + legend, *(f"% {s}" for s in signatures)]) + "\n"
    return text  # csv stays machine-readable: the CLI prints the provenance on standard error
