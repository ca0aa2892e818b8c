"""docs/reproduced/kwak-2024.md's rows of the shipped checkpoints (and their model card's) are what the
shipped metrics score now, and so they are with numpy's AVX2/AVX-512 dispatch off: the seven Table 1
columns (LENS's pairwise tau on SimpEval_2022 per sentence type, Pearson on WIKI-DA per aspect).
The other seeds' rows need the training runs (about 50 minutes) and are not regenerated here.
The rerun with numpy's dispatch off takes the two models' scores from the first run
(:func:`simpeval.testing.model_score_cache`: torch computes them) and recomputes the correlations."""

from __future__ import annotations

from pathlib import Path

import pytest

from simpeval_lens.plugin import CHECKPOINTS

from simpeval.registry import load_registry
from simpeval.testing import check_independent_of_simd_dispatch, load_script, model_score_cache, shared_data_dir

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.slow
def test_shipped_rows_are_regenerated():
    paper = load_script(ROOT / "benchmarks" / "reproduce_kwak_2024.py")
    data_dir = shared_data_dir("simpeval")
    ours = paper.rows(load_registry(), data_dir, dict(paper.SHIPPED_METRICS), cache=model_score_cache())
    page = paper.DOC.read_text(encoding="utf-8").splitlines()
    card = (CHECKPOINTS / "MODEL_CARD.md").read_text(encoding="utf-8").splitlines()
    assert list(ours) == list(paper.SHIPPED)
    for variant, values in ours.items():
        assert len(values) == len(paper.COLUMNS) == 7, (variant, values)
        cells = " | ".join(f"{v:.3f}" for v in values) + " |"
        shipped = [line for line in page if line.startswith(f"| {paper.seed_label(variant)} (shipped) |")]
        assert len(shipped) == 1 and shipped[0].endswith(f" | {cells}"), (
            f"{variant}: the page's shipped row is {shipped}, the checkpoint scores {cells}: "
            "regenerate with benchmarks/reproduce_kwak_2024.py")
        assert f"| `{paper.SHIPPED[variant]}` (shipped) | {cells}" in card


@pytest.mark.slow
def test_the_shipped_rows_do_not_depend_on_numpys_simd_dispatch():
    check_independent_of_simd_dispatch(f"{__file__}::test_shipped_rows_are_regenerated", cwd=ROOT,
                                       required="simpeval")
