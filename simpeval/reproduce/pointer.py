"""Whether a ``meta-evaluate`` run is a published table's setting, in one line for its output.

A run is compared with a published table only when it correlates the same thing: the table's
dataset, human score (aspect, as z-scores), references, split, sentence level, Pearson
correlation over all items (no ``--average-by``) and tie policy. Any other run (``--aspect fluency``, ``--correlation spearman``, ...)
gets no line at all: the paper has no numbers for it. A run of the same data says whether its
metric settings, published per-item scores and significance test are the paper's, and if not,
names the differences, so nobody takes today's defaults (sacrebleu 2, no EASSE scores) for the
paper's numbers.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from simpeval.presets import metric_defaults

if TYPE_CHECKING:
    from simpeval.metaeval.run import Report
    from simpeval.registry import Registry
    from simpeval.reproduce.tables import PublishedTable

__all__ = ["published_line"]


def published_line(report: Report, registry: Registry) -> str:
    """``# published: ...`` for a run of a published table's setting, ``# not the paper's settings:
    ...`` for a run of its data under other settings, ``""`` for anything else (with a newline)."""
    table = _same_data_table(report, registry)
    if table is None:
        return ""
    name = f"{table.title.split(':')[0]} of {table.paper}"
    command = f"simpeval reproduce {table.paper} --table {table.number}"
    missing = [c for c in table.score_columns if not report.signatures.get(c, "").startswith("scores:")]
    published = f"EASSE's published {_families(table, missing)} scores" if missing else ""
    differences = _differences(report, table)
    if not differences:
        rows = f" (its {_families(table, missing)} rows: --scores {table.scores_file})" if missing else ""
        return f"# published: {name} has these settings{rows}; the paper's values beside simpeval's: {command}\n"
    used = "; ".join(differences) + (f"; and {published}" if published else "")
    return f"# not the paper's settings: {name} used {used}; the paper's numbers: {command}\n"


def _same_data_table(report: Report, registry: Registry) -> PublishedTable | None:
    """The published table that correlates exactly what ``report`` correlates, if any."""
    from simpeval.reproduce import find_table

    req = report.request
    if (req.level != "sentence" or req.raw or req.settings.correlation != "pearson" or req.ties != "order"
            or req.settings.average_by != "none"):
        return None
    table = find_table(registry, report.dataset.name, report.references, req.split or "quality")
    if table is None or report.aspect != (table.aspect or report.dataset.aspects[0]):
        return None
    return table


def _differences(report: Report, table: PublishedTable) -> list[str]:
    """The paper's metric settings (when the run computes metrics) and test where this run's differ,
    each with this run's in brackets."""
    req = report.request
    out = []
    tuned = [spec for spec in req.metrics or [] if ":" in spec]
    computed = any(not sig.startswith("scores:") for sig in report.signatures.values())
    if computed and (req.preset != table.preset or tuned):
        paper = f"--preset {table.preset}" if table.preset else "the metrics' defaults"
        here = (f"--preset {req.preset}" if req.preset else f"no preset: {metric_defaults()}") + \
            (f" with -m {','.join(tuned)}" if tuned else "")
        out.append(f"{paper} (here: {here})")
    settings = req.settings
    if (settings.significance, settings.alpha) != (table.significance, table.alpha):
        out.append(f"a {table.significance} test at alpha={table.alpha} "
                   f"(here: significance={settings.significance} alpha={settings.alpha})")
    return out


def _families(table: PublishedTable, columns: list[str]) -> str:
    """``BERTScore/SARI-SAMSA/SAMSA`` for the paper's row names of ``columns``."""
    names = (re.split(r"_| \(", table.labels.get(c, c))[0] for c in columns)
    return "/".join(dict.fromkeys(names))
