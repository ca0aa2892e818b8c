"""The SLE regression head over frozen sentence embeddings, its checkpoints, and prediction.

A checkpoint is a directory with ``sle_config.json`` (the encoder, the head's
shape, the level scale, how it was trained) and ``model.safetensors`` (the head
only: the encoder is named, not copied), so it weighs well under a megabyte and
loads offline.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from simpeval import UsageError
from simpeval_sle.encoder import DEFAULT_ENCODER, embed
from simpeval_sle.segment import sentences_of

if TYPE_CHECKING:
    from simpeval.run import Run

CONFIG_FILE = "sle_config.json"
WEIGHTS_FILE = "model.safetensors"


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
    """``(config, head)`` of a checkpoint directory (a run keeps it: :func:`predictor`)."""
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


class Predictor:
    """Sentence and text levels from one checkpoint; each sentence's level is computed once while
    the run keeps it (in the run's memory, within its budget).

    :param run: the run that keeps the encoder and the levels (default: a private one).
    """

    def __init__(self, directory: str | Path, run: Run | None = None, device: str | None = None) -> None:
        from simpeval.learning.trainer import load_from_checkpoint
        from simpeval.run import Run
        from simpeval_sle.plugin import simpeval_register_trainers

        self.config, self.head = load_from_checkpoint(directory, simpeval_register_trainers())
        self.run = run or Run()
        self.device = device  # the encoder's (cpu, cuda, cuda:N, mps; None: cuda if available); the head runs on the CPU

    def sentence_levels(self, sentences: Sequence[str], batch_size: int = 64) -> list[float]:
        memory = self.run.memory
        levels = {s: memory.get((self, s)) for s in dict.fromkeys(sentences)}
        missing = [s for s, level in levels.items() if level is None]
        if missing:
            vectors = embed(self.config.encoder, missing, batch_size, run=self.run, device=self.device)
            for sentence, level in zip(missing, predict_embeddings(self.head, vectors)):
                levels[sentence] = level
                memory.put((self, sentence), level, LEVEL_BYTES + len(sentence))
        return [levels[s] for s in sentences]

    def text_levels(self, texts: Sequence[str], batch_size: int = 64) -> list[float]:
        """The mean sentence level of each text (SLEdoc eq. 1); NaN for a text with no sentence."""
        split = [sentences_of(t) for t in texts]
        levels = iter(self.sentence_levels([s for sentences in split for s in sentences], batch_size))
        return [sum(next(levels) for _ in sentences) / len(sentences) if sentences else math.nan
                for sentences in split]


LEVEL_BYTES = 200
"""What a kept sentence level costs beyond the sentence's characters (a float, a key, a table slot)."""


def predictor(run: Run, directory: str, device: str | None = None) -> Predictor:
    """The run's :class:`Predictor` of a checkpoint on an encoder ``device``, keyed by its content, so
    ``sle``, ``sle-delta`` and ``sledoc`` in one run encode each sentence once."""
    from simpeval import models

    key = ("sle-predictor", models.content_hash(models.locate(directory, "sle:checkpoint")), device)
    return run.resource(key, lambda: Predictor(directory, run, device))
