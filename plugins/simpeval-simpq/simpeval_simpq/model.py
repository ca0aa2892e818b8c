"""The simpq checkpoint: per aspect, a ridge model over the named features, stored as JSON numbers.

JSON, not pickle: loading a checkpoint builds numbers, never objects, so it cannot run code.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from simpeval import UsageError
from simpeval_simpq.features import NAMES

CHECKPOINT_FILE = "simpq.json"
ASPECTS = ("simplicity", "meaning", "fluency")


@dataclass(frozen=True)
class AspectModel:
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    bias: float

    def predict(self, x: np.ndarray) -> np.ndarray:
        return ((x - self.mean) / self.scale) @ self.weights + self.bias


def to_json(models: dict[str, Any], training: dict[str, Any]) -> dict[str, Any]:
    """The checkpoint's content: feature names, each aspect's coefficients, and how they were chosen."""
    return {
        "features": list(NAMES),
        "aspects": {aspect: {"mean": m.mean.tolist(), "scale": m.scale.tolist(), "weights": m.weights.tolist(),
                             "bias": m.bias} for aspect, m in models.items()},
        "training": training,
    }


def save(directory: Path, content: dict[str, Any]) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / CHECKPOINT_FILE
    tmp = directory / f".{CHECKPOINT_FILE}.tmp"
    tmp.write_text(json.dumps(content, indent=1) + "\n", encoding="utf-8")
    tmp.replace(path)
    return path


def load(directory: Path) -> dict[str, AspectModel]:
    """Every aspect's model; :class:`UsageError` when the file is missing, broken, or for other features."""
    path = directory / CHECKPOINT_FILE
    try:
        content = json.loads(path.read_text(encoding="utf-8"))
        if content["features"] != list(NAMES):
            raise ValueError("its features differ from this version's")
        return {aspect: AspectModel(np.asarray(a["mean"], float), np.asarray(a["scale"], float),
                                    np.asarray(a["weights"], float), float(a["bias"]))
                for aspect, a in content["aspects"].items()}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"{path} is not a simpq checkpoint ({exc}): train one with `simpeval train simpq`") from None
