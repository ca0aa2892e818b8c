"""The optimisation settings every trainer shares, importable without numpy or torch.

lens-mini, SIERA and SLE each train with a learning rate, a batch size, at most so many epochs,
early stopping after ``patience`` epochs without improvement, and a seed; each subclasses
:class:`TrainSettings` with its own defaults (and SLE with its head's shape). Command lines read the
defaults at start-up, so this module imports nothing heavy.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["TrainSettings"]


@dataclass(frozen=True)
class TrainSettings:
    """What every trainer's optimiser and early stopping read."""

    learning_rate: float = 1e-3
    batch_size: int = 32
    max_epochs: int = 10
    patience: int = 2
    seed: int = 0
