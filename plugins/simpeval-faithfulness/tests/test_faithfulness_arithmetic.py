"""SummaC-ZS and SummaC-Conv on hand-built probability matrices with answers worked out by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from simpeval import UsageError
from simpeval_faithfulness.conv import PERCENTILE_BINS, ConvLayer, load_conv_layer, parse_bins
from simpeval_faithfulness.matrices import EntailmentMatrix
from simpeval_faithfulness.aggregate import harmonic_mean
from simpeval_faithfulness.zs import zs_score

# Rows: 3 premise chunks; columns: 2 hypothesis sentences.
ENT = np.array([[0.9, 0.1], [0.2, 0.3], [0.6, 0.05]])
CON = np.array([[0.05, 0.6], [0.1, 0.2], [0.3, 0.7]])
MATRIX = EntailmentMatrix(ENT, CON)


def sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x))


def test_zs_is_mean_of_max_entailment_minus_max_contradiction():
    # column 0: 0.9 - 0.3 = 0.6; column 1: 0.3 - 0.7 = -0.4; mean 0.1
    assert zs_score(MATRIX) == pytest.approx(0.1)


def test_zs_role_swap_is_the_transpose():
    # Recall scores source sentences against output chunks: the same pairs, transposed.
    swapped = EntailmentMatrix(ENT.T, CON.T)
    # rows of the original become columns: max over columns per row
    expected = np.mean(ENT.max(axis=1) - CON.max(axis=1))  # (0.9-0.6, 0.3-0.2, 0.6-0.7) -> 0.1
    assert zs_score(swapped) == pytest.approx(expected) == pytest.approx(0.1)
    one_sided = EntailmentMatrix(np.array([[0.8, 0.1]]), np.array([[0.1, 0.5]]))
    assert zs_score(one_sided) == pytest.approx(((0.8 - 0.1) + (0.1 - 0.5)) / 2)
    assert zs_score(EntailmentMatrix(one_sided.entailment.T, one_sided.contradiction.T)) == pytest.approx(0.8 - 0.5)


def test_zs_range_and_empty():
    assert zs_score(EntailmentMatrix(np.ones((2, 2)), np.zeros((2, 2)))) == 1.0
    assert zs_score(EntailmentMatrix(np.zeros((2, 2)), np.ones((2, 2)))) == -1.0
    assert zs_score(EntailmentMatrix(np.zeros((0, 3)), np.zeros((0, 3)))) == 0.0
    assert zs_score(EntailmentMatrix(np.zeros((3, 0)), np.zeros((3, 0)))) == 0.0


def _layer(bins="even2", labels="e", row_weight=(1.0, -1.0), row_bias=0.5) -> ConvLayer:
    # Final layer: logit0 = 0, logit1 = mean row value, so the score is sigmoid(mean).
    return ConvLayer(
        bins=parse_bins(bins), labels=labels, row_weight=np.array(row_weight), row_bias=row_bias,
        final_weight=np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]]), final_bias=np.zeros(2),
    )


def test_conv_histograms_count_each_column_into_bins():
    rows = _layer().histograms(MATRIX)
    # column 0 entailments 0.9, 0.2, 0.6 -> [0, 0.5): 1, [0.5, 1]: 2 ; column 1: 0.1, 0.3, 0.05 -> 3, 0
    assert rows.tolist() == [[1, 2], [3, 0]]
    both = _layer(labels="ec", row_weight=(1, -1, 0, 0)).histograms(MATRIX)
    # contradictions: column 0: 0.05, 0.1, 0.3 -> 3, 0; column 1: 0.6, 0.2, 0.7 -> 1, 2
    assert both.tolist() == [[1, 2, 3, 0], [3, 0, 1, 2]]


def test_conv_score_by_hand():
    # row values: 1*1 - 1*2 + 0.5 = -0.5 ; 1*3 - 0 + 0.5 = 3.5 ; mean 1.5
    assert _layer().score(MATRIX) == pytest.approx(sigmoid(1.5))
    # neutral = 1 - e - c: 0.7 and 0.1 -> one count in each bin -> row 2 * 1 + 0 * 1
    neutral = _layer(labels="n", row_weight=(2.0, 0.0), row_bias=0.0)
    column = EntailmentMatrix(np.array([[0.2], [0.7]]), np.array([[0.1], [0.2]]))
    assert neutral.score(column) == pytest.approx(sigmoid(2.0))


def test_conv_empty_uses_the_zero_feature():
    layer = ConvLayer(parse_bins("even2"), "e", np.array([1.0, 1.0]), 9.0,
                      np.array([[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]]), np.array([0.0, 0.25]))
    # no rows: features (0, 0, 0), logits (0, 0.25)
    assert layer.score(EntailmentMatrix(np.zeros((0, 2)), np.zeros((0, 2)))) == pytest.approx(sigmoid(0.25))


def test_percentile_bins_close_the_last_bin():
    edges = parse_bins("percentile")
    assert len(edges) == 24 and tuple(edges) == PERCENTILE_BINS
    counts = np.histogram([0.0, 0.005, 0.5, 0.996, 1.0], bins=edges)[0]
    assert counts[0] == 2 and counts[7] == 1 and counts[-1] == 2 and counts.sum() == 5
    assert parse_bins("even4").tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
    with pytest.raises(UsageError, match="bins=percentile"):
        parse_bins("quartiles")


def test_load_conv_layer_reads_a_state_dict(tmp_path):
    path = tmp_path / "conv.bin"
    state = {
        "mlp.weight": torch.arange(23, dtype=torch.float32).reshape(1, 23) / 100,
        "mlp.bias": torch.tensor([0.25]),
        "layer_final.weight": torch.tensor([[1.0, 0.0, 0.0], [0.0, 2.0, 0.0]]),
        "layer_final.bias": torch.tensor([0.1, -0.1]),
    }
    torch.save(state, path)
    layer = load_conv_layer(str(path))
    assert layer.labels == "e" and len(layer.bins) == 24
    assert layer.row_weight[5] == pytest.approx(0.05) and layer.row_bias == 0.25
    # one sentence supported at 0.95 by a single chunk -> bin 13 ([0.95, 0.955)) -> row 0.13 + 0.25
    score = layer.score(EntailmentMatrix(np.array([[0.95]]), np.array([[0.0]])))
    row = 0.13 + 0.25
    assert score == pytest.approx(sigmoid((2 * row - 0.1) - (row + 0.1)))
    with pytest.raises(UsageError, match="expected \\(1, 50\\)"):
        load_conv_layer(str(path), bins="even50")
    with pytest.raises(UsageError, match='missing.bin" does not exist: pass weights=PATH'):
        load_conv_layer(str(tmp_path / "missing.bin"))
    (tmp_path / "text.bin").write_text("not a state dict")
    with pytest.raises(UsageError, match="cannot read"):
        load_conv_layer(str(tmp_path / "text.bin"))
    torch.save({"mlp.weight": state["mlp.weight"]}, tmp_path / "partial.bin")
    with pytest.raises(UsageError, match='partial.bin" have no mlp.bias: pass weights=PATH to a SummaC-Conv state dict'):
        load_conv_layer(str(tmp_path / "partial.bin"))


def test_f1_is_the_harmonic_mean():
    assert harmonic_mean(0.6, 0.3) == pytest.approx(0.4)
    assert harmonic_mean(0.0, 0.0) == 0.0
