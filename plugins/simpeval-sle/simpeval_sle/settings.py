"""The trainer's settings, importable without numpy or torch (the CLI reads its defaults at start-up)."""

from __future__ import annotations

from dataclasses import dataclass

from simpeval.learning.settings import TrainSettings as SharedSettings


@dataclass(frozen=True)
class TrainSettings(SharedSettings):
    """Optimisation settings of the head (Adam, mean squared error, early stopping on document MAE)."""

    batch_size: int = 64
    max_epochs: int = 40
    patience: int = 8
    hidden_size: int = 128
    dropout: float = 0.1
    weight_decay: float = 1e-4
