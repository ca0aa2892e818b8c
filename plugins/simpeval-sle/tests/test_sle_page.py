"""docs/reproduced/sledoc.md's sentence-level tables (SLE, SLE-delta and FKGL on Simplicity-DA simplicity,
Pearson and Spearman) are what benchmarks/sledoc_tables.py computes now, and so they are with numpy's
AVX2/AVX-512 dispatch off (the rerun takes the scores from the first run's cache,
:func:`simpeval.testing.model_score_cache`: SLE's are torch's, FKGL's pure Python). The document tables score OneStopEnglish with the shipped checkpoint for
about 20 minutes and are not regenerated here."""

from __future__ import annotations

from pathlib import Path

import pytest

from simpeval.testing import check_independent_of_simd_dispatch, load_script, model_score_cache, shared_data_dir

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.slow
def test_sentence_level_tables_are_regenerated():
    shared_data_dir("metaeval")
    tables = load_script(ROOT / "benchmarks" / "sledoc_tables.py")
    lines = tables.simplicity_da(str(model_score_cache().directory))
    assert lines[0] == "Pearson:" and "Spearman:" in lines
    assert sum(line.startswith(("| sle |", "| sle-delta |", "| fkgl |")) for line in lines) == 6
    page = tables.OUT_MD.read_text(encoding="utf-8")
    assert "\n".join(lines) in page, "the sentence-level tables differ: regenerate with benchmarks/sledoc_tables.py"


@pytest.mark.slow
def test_the_sentence_level_tables_do_not_depend_on_numpys_simd_dispatch():
    check_independent_of_simd_dispatch(f"{__file__}::test_sentence_level_tables_are_regenerated", cwd=ROOT,
                                       required="metaeval")
