"""A reproduced table prints what meta-evaluate warns of: the reason a gap exists (issue 28: Table 7's 0.097 on
Low/High, where 833 of Structural Simplicity's items tie at the median, was shown without it)."""

from __future__ import annotations

from pathlib import Path

from simpeval.reproduce.alva_manchego_2021 import TABLES
from simpeval.reproduce.tables import Comparison, format_comparison

TIES = "833 of 1750 items tie at the median score 0: Low/High are ill-defined"


def test_warnings_are_notes_under_the_table():
    table = TABLES["7"]
    paper = table.values["fkgl"]
    comparison = Comparison(table, {"fkgl": [v + 0.097 for v in paper]}, {"fkgl": [False] * len(paper)}, [TIES])
    for fmt in ("table", "markdown"):
        assert f"note: {TIES}" in format_comparison(comparison, Path("."), fmt)
