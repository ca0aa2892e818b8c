"""Leave-one-dataset-out folds as a markdown table, a checkpoint's JSON record, a model-card section.

Every trainer (lens-mini, lens-cla-mini, SIERA, SLE, simpq) and every benchmark that writes
``docs/reproduced/*-loo.md`` renders its folds here, each judged by the one judge
(:meth:`simpeval.learning.loo.Fold.row`, :mod:`simpeval.learning.verdict`): the learned metric's
signed r beside the strongest non-learned registry baseline on the same items, win or loss.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

from simpeval.learning.loo import Fold, mean_r, pearson
from simpeval.learning.record import JUDGED_HEADER, row_cells

__all__ = ["HEADER", "machine_record", "folds_from_record", "folds_from_table", "folds_record", "loo_table", "rejudged",
           "replace_section", "replace_table", "write_card_section"]

HEADER = ("| trainer | left-out dataset | n | shared rows not trained on | chosen | " + " | ".join(JUDGED_HEADER) + " |")
"""The learned metric's r is signed (a trainer's prediction of the labels: a negative r on a dataset is a
failure there, by its full size); a baseline counts in its best orientation (``-name``: sign flipped).
"Shared rows": rows of the other datasets that are items of the left-out one, kept out of that fold."""


def _signed(value: float) -> str:
    return "n/a" if value != value else f"{value:+.3f}"


def _row(label: str, fold: Fold) -> str:
    cells = row_cells(fold.row(label))
    return f"| {label} | {fold.left_out} | {fold.n} | {fold.dropped} | {fold.chosen or '-'} | " + " | ".join(cells) + " |"


def loo_table(results: Sequence[tuple[str, Sequence[Fold]]]) -> list[str]:
    """Markdown lines: one row per (trainer, left-out dataset), then each trainer's mean left-out r."""
    rows = [_row(label, fold) for label, folds in results for fold in folds]
    means = [f"- `{label}`: mean left-out r {_signed(mean_r(folds))} over {len(folds)} datasets."
             for label, folds in results]
    return [HEADER, "|" + "---|" * HEADER.count(" | ") + "---|", *rows, "", *means]


def folds_from_table(text: str) -> list[tuple[str, Fold]]:
    """The folds a :func:`loo_table` in ``text`` shows, without their baselines: ``(trainer, fold)`` per row.

    A trainer's benchmark re-judges the folds of its last run with it (``--rejudge``): training is what
    costs, and a fold's trainer, dataset, n, shared rows, choice and r are what it produced."""
    folds = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) > 6 and cells[2].isdigit() and cells[3].isdigit():
            chosen = "" if cells[4] == "-" else cells[4]
            folds.append((cells[0], Fold(cells[1], int(cells[2]), float(cells[5]), {}, chosen, int(cells[3]))))
    return folds


def rejudged(text: str, baselines: Mapping[str, Mapping[str, np.ndarray]],
             labels: Mapping[str, np.ndarray]) -> list[tuple[str, list[Fold]]]:
    """The folds of ``text``'s table (:func:`folds_from_table`), per trainer, each with the baselines'
    r on its left-out dataset (``baselines``: dataset -> per-item scores; ``labels``: dataset -> labels)."""
    results: dict[str, list[Fold]] = {}
    for label, fold in folds_from_table(text):
        base = {k: pearson(v, labels[fold.left_out]) for k, v in baselines[fold.left_out].items()}
        results.setdefault(label, []).append(replace(fold, baselines=base))
    return list(results.items())


def replace_table(text: str, table: Sequence[str]) -> str:
    """``text`` with the rows of its :func:`loo_table` (header to last row) replaced by those of ``table``; the
    mean lines below stay as the run wrote them (from unrounded r, which the table no longer holds)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| trainer |"))
    end = next((i for i in range(start, len(lines)) if not lines[i].startswith("|")), len(lines))
    rows = [line for line in table[: next((i for i, t in enumerate(table) if not t.startswith("|")), len(table))]]
    return "\n".join([*lines[:start], *rows, *lines[end:]]) + ("\n" if text.endswith("\n") else "")


def folds_record(folds: Sequence[Fold]) -> list[dict]:
    """The folds as a checkpoint's training record stores them (JSON, rounded to 4 decimals)."""
    return [{"left_out": f.left_out, "n": f.n, "r": round(f.r, 4), **({"chosen": f.chosen} if f.chosen else {}),
             "dropped": f.dropped, "baselines": {k: round(v, 4) for k, v in f.baselines.items()}} for f in folds]


def folds_from_record(record: Sequence[dict]) -> list[Fold]:
    """The folds :func:`folds_record` stored (a card is rewritten from a checkpoint's record)."""
    return [Fold(f["left_out"], f["n"], f["r"], dict(f["baselines"]), f.get("chosen", ""), f.get("dropped", 0))
            for f in record]


def replace_section(text: str, heading: str, section: str) -> str:
    """``text`` with the ``## heading`` section (up to the next ``## ``) replaced by ``section``, or appended."""
    marker = f"## {heading}"
    block = f"{marker}\n{section.strip()}\n"
    pattern = re.compile(rf"^{re.escape(marker)}\n.*?(?=^## |\Z)", re.M | re.S)
    if pattern.search(text):
        return pattern.sub(lambda _: block + "\n", text, count=1).rstrip("\n") + "\n"
    return text.rstrip("\n") + "\n\n" + block


def write_card_section(card: Path, heading: str, section: str) -> None:
    """Replace (or add) one section of a model card in place (a missing card starts with just it)."""
    from simpeval.cache import write_atomic

    text = card.read_text(encoding="utf-8") if card.exists() else ""
    write_atomic(card, replace_section(text, heading, section).lstrip("\n"))


def machine_record() -> dict[str, str]:
    """Where and when a checkpoint was trained, as its record keeps it: machine, load average, date (UTC)."""
    import platform
    from datetime import datetime, timezone

    try:
        load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        load = "unknown"
    return {"machine": f"{platform.machine()}, {platform.processor() or 'cpu'}, torch CPU", "load_average": load,
            "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}
