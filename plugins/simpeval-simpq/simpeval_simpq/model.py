"""The simpq checkpoint: per feature-group variant and aspect, a linear model over named features, as JSON numbers.

A variant is the feature groups it reads (``base``, ``base+cescore``, ``base+embeddings``,
``base+cescore+embeddings``): the metric picks the one its options and the installed plugins
allow, so simpq scores with or without the CEScore plugin and with or without the encoder.
JSON, not pickle: loading a checkpoint builds numbers, never objects, so it cannot run code.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from simpeval import UsageError
from simpeval.cache import write_atomic
from simpeval_simpq.features import GROUPS, columns
from simpeval_simpq.files import CHECKPOINT_FILE

__all__ = ["ASPECTS", "Checkpoint", "VARIANTS", "AspectModel", "load", "save", "to_json", "variant_key"]

ASPECTS = ("simplicity", "meaning", "fluency")
VARIANTS = (("base",), ("base", "cescore"), ("base", "embeddings"), ("base", "cescore", "embeddings"))


def variant_key(groups: tuple[str, ...]) -> str:
    return "+".join(g for g in GROUPS if g in groups)


@dataclass(frozen=True)
class AspectModel:
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    bias: float

    def predict(self, x: np.ndarray) -> np.ndarray:
        return ((x - self.mean) / self.scale) @ self.weights + self.bias


def to_json(variants: dict[str, dict[str, AspectModel]], training: dict[str, Any]) -> dict[str, Any]:
    """The checkpoint's content: per variant its feature names and each aspect's coefficients; how they were chosen."""
    return {
        "variants": {key: {"features": list(columns(tuple(key.split("+")))),
                           "aspects": {aspect: {"mean": m.mean.tolist(), "scale": m.scale.tolist(),
                                                "weights": m.weights.tolist(), "bias": m.bias}
                                       for aspect, m in models.items()}}
                     for key, models in variants.items()},
        "training": training,
    }


def save(directory: Path, content: dict[str, Any]) -> Path:
    write_atomic(Path(directory) / CHECKPOINT_FILE, json.dumps(content, indent=1) + "\n")
    return Path(directory) / CHECKPOINT_FILE


def load(directory: Path, groups: tuple[str, ...]) -> dict[str, AspectModel]:
    """Every aspect's model of the variant reading ``groups``; :class:`UsageError` when the file is
    missing, broken, lacks that variant, or was written for other features."""
    return Checkpoint(directory)[variant_key(groups)]


class Checkpoint(Mapping):
    """A checkpoint's variants: key -> each aspect's model, read when asked (refused in one line, :func:`load`)."""

    def __init__(self, directory: Path) -> None:
        self.path = Path(directory) / CHECKPOINT_FILE
        try:
            self.variants = json.loads(self.path.read_text(encoding="utf-8"))["variants"]
            self.variants.keys()
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise self.broken(exc) from None

    def broken(self, exc: Exception) -> UsageError:
        return UsageError(f"{self.path} is not a simpq checkpoint ({exc}): train one with `simpeval train simpq`")

    def __getitem__(self, key: str) -> dict[str, AspectModel]:
        variant = self.variants.get(key)
        if variant is None:
            raise UsageError(f"{self.path} has no model for the features {key} (it has {', '.join(self.variants)}): "
                             "change the simpq options or retrain with `simpeval train simpq`")
        try:
            if variant["features"] != list(columns(tuple(key.split("+")))):
                raise ValueError("its features differ from this version's")
            return {aspect: AspectModel(np.asarray(a["mean"], float), np.asarray(a["scale"], float),
                                        np.asarray(a["weights"], float), float(a["bias"]))
                    for aspect, a in variant["aspects"].items()}
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise self.broken(exc) from None

    def __iter__(self):
        return iter(self.variants)

    def __len__(self) -> int:
        return len(self.variants)
