"""The trainer's settings and the checkpoint's file names, importable without numpy or torch (the CLI reads
them at start-up)."""

from __future__ import annotations

from dataclasses import dataclass

from simpeval.learning.settings import TrainSettings as SharedSettings

CONFIG_FILE = "sle_config.json"
WEIGHTS_FILE = "model.safetensors"


@dataclass(frozen=True)
class TrainSettings(SharedSettings):
    """Optimisation settings of the head (Adam, mean squared error, early stopping on document MAE)."""

    batch_size: int = 64
    max_epochs: int = 40
    patience: int = 8
    hidden_size: int = 128
    dropout: float = 0.1
    weight_decay: float = 1e-4
