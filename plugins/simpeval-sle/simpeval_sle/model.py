"""The SLE regression head over frozen sentence embeddings, its checkpoints, and its levels of embeddings.

A checkpoint is a directory with ``sle_config.json`` (the encoder, the head's
shape, the level scale, how it was trained) and ``model.safetensors`` (the head
only: the encoder is named, not copied), so it weighs well under a megabyte and
loads offline. Texts' levels, kept by a run: :mod:`.inference`.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from simpeval import UsageError
from simpeval_sle.encoder import DEFAULT_ENCODER
from simpeval_sle.settings import CONFIG_FILE, WEIGHTS_FILE


@dataclass
class SleConfig:
    """What rebuilds a checkpoint: the encoder, the head's shape, the level names (index = level).

    ``training`` records how the checkpoint was made; it is informative only.
    """

    encoder: str = DEFAULT_ENCODER
    input_size: int = 384
    hidden_size: int = 128
    dropout: float = 0.1
    levels: list[str] = field(default_factory=lambda: ["Advanced", "Intermediate", "Elementary"])
    training: dict[str, Any] = field(default_factory=dict)


def build_head(config: SleConfig):
    """A two-layer regressor: embedding -> hidden (GELU, dropout) -> one level."""
    from torch import nn

    return nn.Sequential(
        nn.Linear(config.input_size, config.hidden_size), nn.GELU(), nn.Dropout(config.dropout),
        nn.Linear(config.hidden_size, 1),
    )


def save_checkpoint(directory: str | Path, config: SleConfig, head) -> Path:
    """Write the config and the head's weights; each file appears whole or not at all."""
    from safetensors.torch import save_file

    directory = Path(directory)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        state = {k: v.detach().contiguous().clone() for k, v in head.state_dict().items()}
        _replace(directory / WEIGHTS_FILE, lambda tmp: save_file(state, tmp))
        text = json.dumps(asdict(config), indent=2) + "\n"
        _replace(directory / CONFIG_FILE, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"cannot write the checkpoint to {directory}: {exc.strerror}; choose another -o") from None
    return directory


def _replace(path: Path, write) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    os.close(fd)
    try:
        write(tmp)
        os.chmod(tmp, 0o644)  # mkstemp's 0600 would make a shared checkpoint private to its writer
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load_checkpoint(directory: str) -> tuple[SleConfig, Any]:
    """``(config, head)`` of a checkpoint directory (a run keeps it: :func:`simpeval_sle.inference.predictor`)."""
    from safetensors.torch import load_file

    path = Path(directory)
    try:
        config = SleConfig(**json.loads((path / CONFIG_FILE).read_text(encoding="utf-8")))
        head = build_head(config)
        head.load_state_dict(load_file(str(path / WEIGHTS_FILE)))
    except (OSError, ValueError, TypeError, RuntimeError) as exc:
        raise UsageError(
            f"cannot load the SLE checkpoint {directory}: {exc}; give a directory written by `simpeval train sle`"
        ) from None
    return config, head.eval()


def predict_embeddings(head, vectors) -> list[float]:
    """The head's level for each embedding row."""
    import torch

    with torch.inference_mode():
        return head(torch.as_tensor(vectors)).squeeze(-1).tolist()
