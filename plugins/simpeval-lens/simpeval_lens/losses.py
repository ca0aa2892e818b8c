"""The training objectives of LENS (Maddela et al. 2023) and LENS-CLA (Kwak et al. 2024), as small tensor functions.

- :func:`top_k_mse`: LENS's multi-reference loss: the squared error of the k highest predictions
  over an output's references (k = 3);
- :func:`max_over_references`: LENS's inference: the best score over the references;
- :func:`cosine_target_loss`: Kwak et al.'s alpha(u, v, n): how far cos(u, v) is from the target n
  (squared, averaged over the batch; the paper does not say which distance);
- :func:`adaptive_target`: CS_t of Kwak et al. section 3.4: -1 when the rating z-score is at
  least sigma, 1 when at most -sigma, -z / sigma between;
- :func:`reconstruction_loss`: beta, the mean squared error between an embedding and its
  reconstruction (section 3.3).
"""

from __future__ import annotations

import torch
import torch.nn.functional as F


def top_k_mse(predictions: torch.Tensor, mask: torch.Tensor, target: torch.Tensor, k: int = 3) -> torch.Tensor:
    """Mean squared error of each row's ``k`` highest predictions against the row's target.

    :param predictions: items x references (padding anywhere ``mask`` is false).
    :param mask: items x references, true where a reference exists.
    :param target: one value per item.
    Rows with fewer than ``k`` references use all they have.
    """
    k = min(k, predictions.shape[1])
    masked = predictions.masked_fill(~mask, float("-inf"))
    values, index = masked.topk(k, dim=1)
    chosen = mask.gather(1, index)
    errors = (values - target.unsqueeze(1)) ** 2
    return errors[chosen].mean()


def max_over_references(predictions: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Each row's highest prediction over its existing references."""
    return predictions.masked_fill(~mask, float("-inf")).max(dim=1).values


def cosine_target_loss(u: torch.Tensor, v: torch.Tensor, target: torch.Tensor | float) -> torch.Tensor:
    """Mean of ``(cos(u_i, v_i) - target_i) ** 2`` over the rows."""
    cosine = F.cosine_similarity(u, v, dim=-1)
    return ((cosine - target) ** 2).mean()


def adaptive_target(z: torch.Tensor, sigma: float = 2.0) -> torch.Tensor:
    """CS_t: -1 if ``z >= sigma``, 1 if ``z <= -sigma``, else ``-z / sigma``."""
    middle = -z / sigma
    return torch.where(z >= sigma, torch.full_like(z, -1.0), torch.where(z <= -sigma, torch.ones_like(z), middle))


def reconstruction_loss(original: torch.Tensor, reconstructed: torch.Tensor) -> torch.Tensor:
    """beta: mean squared error between an embedding and its reconstruction."""
    return F.mse_loss(reconstructed, original)
