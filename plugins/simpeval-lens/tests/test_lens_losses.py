"""The training objectives on hand-sized tensors."""

import math

import pytest
import torch

from simpeval_lens.losses import (adaptive_target, cosine_target_loss, max_over_references, reconstruction_loss,
                                  top_k_mse)


def test_adaptive_target_three_branches():
    z = torch.tensor([3.0, 2.0, 1.0, 0.0, -0.5, -2.0, -7.0])
    # z >= sigma: -1; z <= -sigma: 1; else -z / sigma (sigma = 2)
    assert adaptive_target(z, 2.0).tolist() == [-1.0, -1.0, -0.5, 0.0, 0.25, 1.0, 1.0]
    assert adaptive_target(torch.tensor([1.0]), 4.0).tolist() == [-0.25]


def test_cosine_target_loss():
    u = torch.tensor([[1.0, 0.0], [1.0, 0.0]])
    v = torch.tensor([[2.0, 0.0], [0.0, 3.0]])  # cosines 1 and 0
    assert cosine_target_loss(u, v, 1.0).item() == pytest.approx((0 + 1) / 2)
    assert cosine_target_loss(u, v, -1.0).item() == pytest.approx((4 + 1) / 2)
    assert cosine_target_loss(u, v, torch.tensor([1.0, 0.0])).item() == pytest.approx(0.0)


def test_reconstruction_loss_is_mean_squared_error():
    original = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    rebuilt = torch.tensor([[1.0, 0.0], [3.0, 5.0]])
    assert reconstruction_loss(original, rebuilt).item() == pytest.approx((0 + 4 + 0 + 1) / 4)


def test_top_k_takes_the_highest_predictions_of_existing_references():
    predictions = torch.tensor([[0.1, 0.9, 0.5, 0.7, 5.0],
                                [0.2, 0.4, 0.0, 0.0, 0.0]])
    mask = torch.tensor([[True, True, True, True, False],  # the 5.0 is padding
                         [True, True, False, False, False]])  # fewer than k references: all count
    target = torch.tensor([1.0, 0.0])
    expected = ((0.9 - 1) ** 2 + (0.7 - 1) ** 2 + (0.5 - 1) ** 2 + 0.2**2 + 0.4**2) / 5
    assert top_k_mse(predictions, mask, target, k=3).item() == pytest.approx(expected)
    assert top_k_mse(predictions, mask, target, k=1).item() == pytest.approx(((0.9 - 1) ** 2 + 0.4**2) / 2)


def test_top_k_loss_reaches_only_the_chosen_references():
    predictions = torch.tensor([[0.1, 0.9, 0.5, 0.7]], requires_grad=True)
    top_k_mse(predictions, torch.ones(1, 4, dtype=torch.bool), torch.tensor([1.0]), k=2).backward()
    assert predictions.grad[0, 0] == 0 and predictions.grad[0, 2] == 0
    assert predictions.grad[0, 1] != 0 and predictions.grad[0, 3] != 0


def test_max_over_references_skips_padding():
    predictions = torch.tensor([[0.1, -0.3, 9.0], [-2.0, -1.0, 0.0]])
    mask = torch.tensor([[True, True, False], [True, True, True]])
    assert max_over_references(predictions, mask).tolist() == pytest.approx([0.1, 0.0])
    assert not math.isinf(max_over_references(predictions, mask)[0])
