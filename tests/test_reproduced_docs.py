"""Documented numbers come from scripts: regenerating a reproduced-paper page changes nothing but its run time,
on any CPU: the regeneration is run again with numpy's AVX2/AVX-512 dispatch switched off."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from simpeval.testing import run_pytest_under_simd_variants, simd_variants

ROOT = Path(__file__).resolve().parents[1]
TIMING = re.compile(r"\(simpeval, \d+ s\)")


def _script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_alva_manchego_2021_page_is_what_its_script_writes(data_dir):
    """Every table, tie range, reliability figure and prose number of the page, recomputed."""
    generated = _script("reproduce_alva_manchego_2021").page(data_dir)
    committed = (ROOT / "docs" / "reproduced" / "alva-manchego-2021.md").read_text(encoding="utf-8")
    assert TIMING.search(committed), "the page should say how long its script ran"
    generated_lines = TIMING.sub("(simpeval, N s)", generated).splitlines()
    committed_lines = TIMING.sub("(simpeval, N s)", committed).splitlines()
    differing = [(i + 1, ours, theirs) for i, (ours, theirs) in enumerate(zip(generated_lines, committed_lines))
                 if ours != theirs]
    assert not differing, f"line {differing[0][0]} differs: regenerate with benchmarks/reproduce_alva_manchego_2021.py"
    assert len(generated_lines) == len(committed_lines)


@pytest.mark.slow
def test_pages_are_the_same_without_numpys_simd_dispatch(data_dir):
    """A number that depends on the CPU (a quicksort's tie order under AVX-512, a SIMD reduction) would
    differ between this machine's dispatch and the baseline's, and fail the regeneration there."""
    if not simd_variants():
        pytest.skip("numpy dispatches to no SIMD target beyond its baseline on this CPU: nothing to vary")
    ran = run_pytest_under_simd_variants([f"{__file__}::test_alva_manchego_2021_page_is_what_its_script_writes"],
                                         cwd=ROOT)
    assert "baseline" in ran


@pytest.mark.slow
def test_stodden_2023_page_is_what_its_script_writes(data_dir):
    """DEplain's tables, the commands and the other settings' numbers, recomputed."""
    generated = _script("reproduce_stodden_2023").page(data_dir)
    committed = (ROOT / "docs" / "reproduced" / "stodden-2023.md").read_text(encoding="utf-8")
    assert TIMING.search(committed), "the page should say how long its script ran"
    assert TIMING.sub("(simpeval, N s)", generated) == TIMING.sub("(simpeval, N s)", committed), \
        "regenerate with benchmarks/reproduce_stodden_2023.py"
