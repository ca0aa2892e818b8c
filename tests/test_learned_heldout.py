"""benchmarks/learned_heldout.py (through :mod:`simpeval.learning.heldout` and the judge,
:mod:`simpeval.learning.verdict`): why its sle-delta row on SimpEval_past was NaN, and that it is not any more.

SimpEval_past holds one empty system output; SLE has no sentence to read in it, so ``sle-delta`` is NaN
for that item (by design: undefined, not zero). The judge leaves such items out of the metric's r and of
every baseline's, and says how many items were scored, instead of turning the whole row into NaN.
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pytest

from simpeval.testing import shared_data_dir

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "reproduced" / "learned-heldout.md"


def test_an_unscored_item_is_left_out_and_counted():
    from simpeval.learning.verdict import judge_scores

    # the baseline is perfectly linear in the labels on the three scored items only: its r is 1 there
    (row,) = judge_scores([1.0, 2.0, math.nan, 3.0], [2.0, 4.0, 100.0, 7.0], {"b": [1.0, 2.0, -50.0, 3.5]},
                          dataset="d", aspect="simplicity", score="s")
    assert row.r == pytest.approx(0.9933, abs=1e-4) and row.n == 3
    assert (row.baseline, row.baseline_r, row.verdict) == ("b", pytest.approx(1.0), "loss")


def test_rejudged_rows_keep_the_metrics_r_and_take_the_baselines_computed_now():
    """``learned_heldout.py --rejudge``: a stored row judged again beside other baselines equals the row the
    judge gives from the scores with those baselines; a row whose items changed is refused."""
    import numpy as np

    from simpeval.learning.heldout import RatedItems, rejudge_rows
    from simpeval.learning.verdict import judge_scores

    class Learned:
        name, trained_on = "learned", ()

    rng = np.random.default_rng(0)
    labels, scores = rng.normal(size=50), rng.normal(size=50)
    labels[3] = np.nan
    data = RatedItems("d", [f"s {i}" for i in range(50)], [f"o {i}" for i in range(50)], None, {"simplicity": labels})
    before, after = {"a": rng.normal(size=50)}, {"a": rng.normal(size=50), "b": labels + rng.normal(size=50)}
    (stored,) = judge_scores(scores, labels, before, dataset="d", aspect="simplicity", score="learned")
    (expected,) = judge_scores(scores, labels, after, dataset="d", aspect="simplicity", score="learned")
    (again,) = rejudge_rows(Learned, [stored], [data], None, Path("."), {"d": after})
    assert again == expected and again.r == stored.r and (again.baseline, again.baselines_compared) == ("b", 2)
    with pytest.raises(ValueError, match="full run"):
        rejudge_rows(Learned, [replace(stored, n=50)], [data], None, Path("."), {"d": after})


def test_simpeval_past_has_the_empty_output_sle_delta_cannot_score():
    from simpeval_sle.plugin import SleDelta

    from simpeval.learning.heldout import rated_items

    data = rated_items(shared_data_dir("simpeval"), "simpeval-past")
    empty = [i for i, output in enumerate(data.outputs) if not output.strip()]
    assert len(empty) == 1 and len(data.outputs) == 2200
    source = data.sources[empty[0]]
    scores = SleDelta().sentence_scores([source] * 2, ["", source])["sle-delta"]
    assert math.isnan(scores[0]) and scores[1] == pytest.approx(0.0, abs=1e-6)
    page = PAGE.read_text(encoding="utf-8")
    assert "| sle-delta | simpeval-past | simplicity | sle-delta | 2199 |" in page and "nan" not in page


def test_items_shared_with_the_training_data_are_found_and_counted():
    """Simplicity-DA is outside lens-mini's trained_on, but 140 of its 600 (source, output) pairs are
    SimpEval_past items lens-mini was trained on (63 by whitespace alone: the datasets tokenise and
    truecase them differently): the page gives r again without them."""
    from simpeval_lens.plugin import LensMini
    from simpeval_siera.plugin import Siera

    from simpeval.learning.heldout import rated_items, seen
    from simpeval.registry import load_registry

    registry = load_registry()
    data_dir = shared_data_dir("simpeval")
    data = rated_items(data_dir, "simplicity-da")
    mask, unknown = seen(registry, data_dir, LensMini.trained_on, data.sources, data.outputs)
    assert (int(mask.sum()), unknown) == (140, [])
    mask, unknown = seen(registry, data_dir, Siera.trained_on, data.sources, data.outputs)  # ASSET-valid pairs
    assert (int(mask.sum()), unknown) == (0, [])
    page = PAGE.read_text(encoding="utf-8")
    assert "| lens-mini | simplicity-da | simplicity | lens-mini | 600 | +0.492 |" in page
    assert "| lens-mini | simplicity-da | simplicity | lens-mini | 460 unseen | +0.479 |" in page
    assert "contaminated (140 items shared with its training data" in page
