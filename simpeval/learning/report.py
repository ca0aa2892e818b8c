"""One way to show a leave-one-dataset-out result: the markdown table, its JSON record, its model-card section.

Every trainer (lens-mini, lens-cla-mini, SIERA, SLE) and every benchmark that writes
``docs/reproduced/*-loo.md`` renders its folds here, so the pages and the cards read alike and
a reader compares the learned metric with the best simple baseline on each left-out dataset.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from simpeval.learning.baselines import NAMES
from simpeval.learning.loo import Fold, mean_r

__all__ = ["HEADER", "folds_from_record", "folds_record", "loo_table", "replace_section", "write_card_section"]

HEADER = ("| trainer | left-out dataset | n | shared rows not trained on | chosen | r | FKGL r | compression r | SARI r | "
          "best baseline abs(r) | r >= best? |")
"""The learned metric's r is signed (its direction is fixed: higher means simpler, so a negative r on a
dataset is a failure there); a baseline counts by its absolute r (its sign can be flipped by hand).
"Shared rows": rows of the other datasets that are items of the left-out one, kept out of that fold."""


def _signed(value: float) -> str:
    return "n/a" if value != value else f"{value:+.3f}"


def _row(label: str, fold: Fold) -> str:
    name, value = fold.best_baseline if fold.baselines else ("none", float("nan"))
    verdict = "yes" if fold.r >= abs(value) else f"no ({fold.r - abs(value):+.3f})"
    baselines = " | ".join(_signed(fold.baselines.get(b, float("nan"))) for b in NAMES)
    return (f"| {label} | {fold.left_out} | {fold.n} | {fold.dropped} | {fold.chosen or '-'} | {_signed(fold.r)} | "
            f"{baselines} | {name} {abs(value):.3f} | {verdict} |")


def loo_table(results: Sequence[tuple[str, Sequence[Fold]]]) -> list[str]:
    """Markdown lines: one row per (trainer, left-out dataset), then each trainer's mean left-out r."""
    rows = [_row(label, fold) for label, folds in results for fold in folds]
    means = [f"- `{label}`: mean left-out r {_signed(mean_r(folds))} over {len(folds)} datasets."
             for label, folds in results]
    return [HEADER, "|" + "---|" * HEADER.count(" | ") + "---|", *rows, "", *means]


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
