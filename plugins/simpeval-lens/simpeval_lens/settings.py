"""Training settings, importable without torch (the command line shows their defaults)."""

from __future__ import annotations

from dataclasses import dataclass

from simpeval.learning.settings import TrainSettings as SharedSettings

CONFIG_FILE = "lens_config.json"
WEIGHTS_FILE = "model.safetensors"


@dataclass(frozen=True)
class TrainSettings(SharedSettings):
    """Defaults chosen on SimpEval_past's validation split (learning rate 3e-4 beat 1e-3 there)."""

    learning_rate: float = 3e-4
