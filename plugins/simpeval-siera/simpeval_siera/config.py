"""What a SIERA checkpoint directory holds, read without torch: its config, its encoder, its fingerprint.

The metric's signature needs the checkpoint's identity before any model loads
(it is the cache key), so this module imports only the standard library and
:mod:`simpeval.models`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simpeval import UsageError, models

DEFAULT_ENCODER = models.DEFAULT_ENCODER
CONFIG_FILE = "siera_config.json"
WEIGHTS_FILE = "model.safetensors"


@dataclass
class SieraConfig:
    """What a checkpoint needs to be rebuilt: the base encoder and the shape of the trained part.

    ``training`` records how the checkpoint was made (data, seed, epochs); it is
    informative only.
    """

    encoder: str = DEFAULT_ENCODER
    encoder_hash: str | None = None  # content of the encoder at training (models.encoder_reference)
    trainable_layers: int = 1
    max_length: int = 256
    head_dropout: float = 0.1
    training: dict[str, Any] = field(default_factory=dict)


def resolve_encoder(name: str) -> str:
    """A local directory for the encoder ``name``: the MiniLM wheel's for the default, else ``name`` itself.

    Loading goes through :func:`simpeval.models.load_transformers`, which also refuses
    directories that ship code.
    """
    if name == DEFAULT_ENCODER:
        return models.resolve_encoder(name, "SIERA")
    if not Path(name).is_dir():
        raise UsageError(
            f"encoder {name!r} is not a directory: give a local Hugging Face model directory (or {DEFAULT_ENCODER})"
        )
    if not (Path(name) / "config.json").is_file():
        raise UsageError(
            f"encoder {name!r} is not a Hugging Face model directory (it has no config.json): "
            f"give one written by save_pretrained (or {DEFAULT_ENCODER})"
        )
    return name


def config_encoder(config: SieraConfig, directory: Path | None = None) -> str:
    """The local encoder of ``config``, checked against the content hash stored at training (a
    different model at the same path is refused, :func:`simpeval.models.verified_encoder`)."""
    if config.encoder_hash is None and directory is None:
        return resolve_encoder(config.encoder)
    return models.verified_encoder(config.encoder, config.encoder_hash, "SIERA", directory or Path("the checkpoint"),
                                   TRAIN_COMMAND)


TRAIN_COMMAND = "simpeval train siera"


def broken_checkpoint(directory: Path, exc: Exception) -> UsageError:
    """The one-line error for a checkpoint whose files cannot be read."""
    first_line = next(iter(str(exc).splitlines()), "")
    return UsageError(
        f"{directory} holds a broken SIERA checkpoint ({type(exc).__name__}: {first_line}): "
        "save it again with `simpeval train siera`"
    )


def read_config(directory: Path) -> SieraConfig:
    """The :class:`SieraConfig` of checkpoint ``directory``.

    :raises UsageError: when the directory is not a checkpoint or its config is broken.
    """
    if not (directory / CONFIG_FILE).is_file() or not (directory / WEIGHTS_FILE).is_file():
        raise UsageError(
            f"{directory} is not a SIERA checkpoint (needs {CONFIG_FILE} and {WEIGHTS_FILE}): "
            "train one with `simpeval train siera`"
        )
    try:
        return SieraConfig(**json.loads((directory / CONFIG_FILE).read_text(encoding="utf-8")))
    except (ValueError, TypeError) as exc:  # not JSON, or keys SieraConfig lacks
        raise broken_checkpoint(directory, exc) from None


def checkpoint_fingerprint(directory: Path, label: str | None = None) -> str:
    """``checkpoint@hash+encoder@hash``: the checkpoint's files and the encoder it names, by content."""
    config = read_config(directory)
    return models.checkpoint_fingerprint(directory, config.encoder, "siera:checkpoint", label, config.encoder_hash,
                                         TRAIN_COMMAND)
