"""docs/reproduced/sledoc.md's sentence-level tables (SLE, SLE-delta and FKGL on Simplicity-DA simplicity,
Pearson and Spearman) are what benchmarks/sledoc_tables.py computes now, and so they are with numpy's
AVX2/AVX-512 dispatch off. The document tables score OneStopEnglish with the shipped checkpoint for
about 20 minutes and are not regenerated here."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from simpeval.testing import run_pytest_under_simd_variants, shared_data_dir, simd_variants

ROOT = Path(__file__).resolve().parents[3]


def _tables():
    spec = importlib.util.spec_from_file_location("sledoc_tables", ROOT / "benchmarks" / "sledoc_tables.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_sentence_level_tables_are_regenerated():
    shared_data_dir("metaeval")
    tables = _tables()
    lines = tables.simplicity_da()
    assert lines[0] == "Pearson:" and "Spearman:" in lines
    assert sum(line.startswith(("| sle |", "| sle-delta |", "| fkgl |")) for line in lines) == 6
    page = tables.OUT_MD.read_text(encoding="utf-8")
    assert "\n".join(lines) in page, "the sentence-level tables differ: regenerate with benchmarks/sledoc_tables.py"


@pytest.mark.slow
def test_the_sentence_level_tables_do_not_depend_on_numpys_simd_dispatch():
    shared_data_dir("metaeval")
    if not simd_variants():
        pytest.skip("numpy dispatches to no SIMD target beyond its baseline on this CPU: nothing to vary")
    ran = run_pytest_under_simd_variants([f"{__file__}::test_sentence_level_tables_are_regenerated"], cwd=ROOT)
    assert "baseline" in ran
