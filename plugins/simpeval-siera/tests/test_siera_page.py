"""docs/reproduced/siera.md's rows that need no training are what benchmarks/siera_report.py computes now:
FKGL, BLEU and SARI on all 600 Simplicity-DA items and the high-quality subset, and the shipped
checkpoint's correlations; and so they are on the CPU's baseline SIMD as well (numpy's AVX2/AVX-512
dispatch off; the rerun takes the checkpoint's scores from the first run, :func:`simpeval.testing.model_score_cache`,
as torch computes them). The trained rows need the training runs (44 minutes) and are not regenerated here."""

from __future__ import annotations

from pathlib import Path

import pytest

from simpeval.testing import check_independent_of_simd_dispatch, load_script, model_score_cache, shared_data_dir

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.slow
def test_baseline_rows_and_the_shipped_checkpoint_sentence_are_regenerated():
    report = load_script(ROOT / "benchmarks" / "siera_report.py")
    data_dir = shared_data_dir("metaeval")
    items, subsets, human = report.simplicity_da(data_dir)
    assert len(items) == 600 and len(subsets["hq"]) == 215
    page = report.DOC.read_text(encoding="utf-8")
    baselines = report.baseline_scores(data_dir, items)
    rows = [report.baseline_row(name, report.four_cells(values, subsets, human)) for name, values in baselines.items()]
    assert [row.split(" | ")[0] for row in rows] == ["| FKGL", "| BLEU", "| SARI"]
    lines = page.splitlines()
    for row in rows:
        assert row in lines, f"{row} is not on the page: regenerate it with benchmarks/siera_report.py --write"
    shipped = report.shipped_correlations(items, human, cache=model_score_cache())
    sentence = report.shipped_text(shipped, len(items))
    assert sentence in page, f"{sentence!r} is not on the page: regenerate it with benchmarks/siera_report.py --write"


@pytest.mark.slow
def test_the_regenerated_rows_do_not_depend_on_numpys_simd_dispatch():
    name = "test_baseline_rows_and_the_shipped_checkpoint_sentence_are_regenerated"
    check_independent_of_simd_dispatch(f"{__file__}::{name}", cwd=ROOT, required="metaeval")
