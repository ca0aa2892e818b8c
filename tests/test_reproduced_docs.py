"""Documented numbers come from scripts: regenerating a reproduced-paper page changes nothing but its run time."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TIMING = re.compile(r"\(simpeval, \d+ s\)")


def _script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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
