"""benchmarks/learned_heldout.py: why its sle-delta row on SimpEval_past was NaN, and that it is not any more.

SimpEval_past holds one empty system output; SLE has no sentence to read in it, so ``sle-delta`` is NaN
for that item (by design: undefined, not zero). The page's correlation leaves such items out and
says how many items were scored, instead of turning the whole row into NaN.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from simpeval.testing import load_script, shared_data_dir

ROOT = Path(__file__).resolve().parents[1]


def test_an_unscored_item_is_left_out_and_counted():
    heldout = load_script(ROOT / "benchmarks" / "learned_heldout.py")
    r, scored = heldout.correlation([1.0, 2.0, math.nan, 3.0], [2.0, 4.0, 100.0, 7.0])
    assert r == pytest.approx(0.9933, abs=1e-4) and scored == 3


def test_simpeval_past_has_the_empty_output_sle_delta_cannot_score():
    from simpeval_sle.plugin import SleDelta

    heldout = load_script(ROOT / "benchmarks" / "learned_heldout.py")
    sources, outputs, references, labels = heldout.rated(shared_data_dir("simpeval"), "simpeval-past")
    empty = [i for i, output in enumerate(outputs) if not output.strip()]
    assert len(empty) == 1 and len(outputs) == 2200
    scores = SleDelta().sentence_scores([sources[empty[0]]] * 2, ["", sources[empty[0]]])["sle-delta"]
    assert math.isnan(scores[0]) and scores[1] == pytest.approx(0.0, abs=1e-6)
    page = (ROOT / "docs" / "reproduced" / "learned-heldout.md").read_text(encoding="utf-8")
    assert "| sle-delta | simpeval-past | 2199 of 2200 |" in page and "nan" not in page


def test_items_shared_with_the_training_data_are_found_and_counted():
    """Simplicity-DA is outside lens-mini's trained_on, but 140 of its 600 (source, output) pairs are
    SimpEval_past items lens-mini was trained on (63 by whitespace alone: the datasets tokenise and
    truecase them differently): the page gives r again without them."""
    from simpeval_lens.plugin import LensMini
    from simpeval_siera.plugin import Siera

    heldout = load_script(ROOT / "benchmarks" / "learned_heldout.py")
    data_dir = shared_data_dir("simpeval")
    sources, outputs, _, _ = heldout.rated(data_dir, "simplicity-da")
    keep, unknown = heldout.unseen(LensMini(), sources, outputs, data_dir)
    assert (int((~keep).sum()), unknown) == (140, [])
    keep, unknown = heldout.unseen(Siera(), sources, outputs, data_dir)  # ASSET-valid (source, reference) pairs
    assert (int((~keep).sum()), unknown) == (0, [])
    page = (ROOT / "docs" / "reproduced" / "learned-heldout.md").read_text(encoding="utf-8")
    assert "| lens-mini | simplicity-da | 600 | +0.492 |" in page and "| 140 | +0.479 |" in page
