"""The document level of the leaderboard: pairwise datasets and the perturbation table.

``simpeval leaderboard --level document`` correlates metrics with the rated document datasets
(dwiki-2025's aspects, as the sentence board does) and adds what correlations cannot show:
how often each metric prefers the output humans preferred on a pairwise dataset (cochrane-pairs),
and, per perturbation set, how often it prefers the unperturbed document: *which metric catches
which error*. A metric *catches* a perturbation when the 95% bootstrap interval of that share lies
above one half. This module turns :class:`~simpeval.leaderboard.run.Board`'s pair records into
table rows and headline lines; :mod:`simpeval.leaderboard.render` places them on the page.
"""

from __future__ import annotations

from collections import defaultdict

from simpeval.datasets.dwiki import PERTURBATIONS

PAIRS_NOTE = ("Accuracy: the share of pairs where the metric scores the output the raters preferred strictly better, "
              "in the metric's own direction; [95% bootstrap interval over pairs]; ties (equal scores) are counted "
              "apart, not as agreement.")
PERTURBATION_NOTE = ("Each cell: the share of the set's pairs (60 in each released set) where the metric scores the "
                     "unperturbed document better, in its own direction; ✓ = it catches the error (the 95% bootstrap "
                     "interval lies above 0.5); (t=...) = the share of ties, where it cannot tell the two apart. The "
                     "sets put one error into a ChatGPT simplification (Maddela & Alva-Manchego 2025); four coherence "
                     "pairs hold the same text twice, so every metric ties on them.")
CATCH = "✓"


def catches(record) -> bool:
    """Whether the metric prefers the unperturbed (or human-preferred) output significantly more often than not."""
    return record.ci_low is not None and record.ci_low > 0.5


def _share(record) -> str:
    if record.agree != record.agree:  # nan: no pair scored
        return "–"
    ties = f" (t={record.ties:.2f})" if record.ties else ""
    return f"{record.agree:.2f}{CATCH if catches(record) else ''}{ties}"


def pair_tables(records: list) -> dict[str, tuple[list[str], list[list[str]]]]:
    """Per pairwise dataset: columns and rows (metrics by accuracy, best first)."""
    by_dataset = defaultdict(list)
    for record in records:
        by_dataset[record.dataset].append(record)
    tables = {}
    for name, group in by_dataset.items():
        rows = [[r.metric, f"{r.agree:.3f}" + (f" [{r.ci_low:.3f}, {r.ci_high:.3f}]" if r.ci_low is not None else ""),
                 f"{r.ties:.3f}", str(r.n)]
                for r in sorted(group, key=lambda r: -r.agree if r.agree == r.agree else 1)]
        tables[name] = (["metric", "accuracy [95% CI]", "ties", "pairs"], rows)
    return tables


def perturbation_table(records: list) -> tuple[list[str], list[list[str]]]:
    """Metrics x perturbation sets; rows ordered by how many perturbations the metric catches, then its mean share."""
    sets = [name for name in PERTURBATIONS if any(r.dataset == name for r in records)]
    by_metric = defaultdict(dict)
    for record in records:
        by_metric[record.metric][record.dataset] = record

    def order(metric: str) -> tuple:
        row = by_metric[metric].values()
        shares = [r.agree for r in row if r.agree == r.agree]
        return (-sum(catches(r) for r in row), -(sum(shares) / len(shares) if shares else 0.0))

    rows = [[metric, *(_share(by_metric[metric][s]) if s in by_metric[metric] else "–" for s in sets),
             f"{sum(catches(r) for r in by_metric[metric].values())}/{len(sets)}"]
            for metric in sorted(by_metric, key=order)]
    return ["metric", *sets, "caught"], rows


def caught_lines(records: list) -> list[str]:
    """Per perturbation: the metrics that catch it (or that none does)."""
    lines = []
    for name in PERTURBATIONS:
        group = [r for r in records if r.dataset == name]
        if not group:
            continue
        best = [r.metric for r in sorted(group, key=lambda r: -r.agree) if catches(r)]
        lines.append(f"- {name}: " + (f"caught by {len(best)} of {len(group)} metrics ({', '.join(best)})" if best
                                       else f"caught by none of the {len(group)} metrics"))
    return lines


def pair_headline(board) -> list[str]:
    """Headline lines for the pairwise datasets (best accuracy) and the perturbations (most caught)."""
    lines = []
    for name, (_, rows) in pair_tables(board.pairs).items():
        if rows:
            lines.append(f"- {name}: highest accuracy {rows[0][0]} {rows[0][1]}")
    if board.perturbations:
        _, rows = perturbation_table(board.perturbations)
        most = rows[0][-1]
        leaders = [row[0] for row in rows if row[-1] == most]
        lines.append(f"- perturbations: the most caught ({most}) by {', '.join(leaders)}")
    return lines
