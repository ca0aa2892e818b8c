"""The shared table renderer and atomic writes."""

from __future__ import annotations

import os
import stat

from simpeval.cache import write_atomic
from simpeval.tables import render

COLUMNS = ["metric", "r_all", "n"]
ROWS = [["bleu_x", 0.61749, 600], ["sari & co", float("nan"), 600]]


def test_latex_escapes_cells_but_not_separators():
    lines = render(COLUMNS, ROWS, "latex", emphasis={(0, 1)}, digits=3).splitlines()
    assert lines[0] == r"\begin{tabular}{lrr}"
    assert lines[2] == r"metric & r\_all & n \\"
    assert lines[4] == r"bleu\_x & \textbf{0.617} & 600 \\"
    assert lines[5] == r"sari \& co & nan & 600 \\"


def test_markdown_bold_and_terminal_star():
    assert render(COLUMNS, ROWS, "markdown", emphasis={(0, 1)}, digits=2).splitlines()[2] == "| bleu_x | **0.62** | 600 |"
    assert render(COLUMNS, ROWS, "table", emphasis={(0, 1)}, digits=2).splitlines()[2] == "bleu_x     0.62*  600"


def test_csv_keeps_full_precision():
    assert render(COLUMNS, ROWS, "csv").splitlines() == ["metric,r_all,n", "bleu_x,0.61749,600", "sari & co,nan,600"]


def test_atomic_write_leaves_no_temporary_file_and_honours_umask(tmp_path):
    target = tmp_path / "out" / "result.csv"
    old = os.umask(0o022)
    try:
        write_atomic(target, "a,b\n")
    finally:
        os.umask(old)
    assert target.read_text() == "a,b\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    assert [p.name for p in target.parent.iterdir()] == ["result.csv"]
