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
from dataclasses import asdict
from pathlib import Path

import torch
from torch import nn

from simpeval import UsageError, models
from simpeval.fileio import replaced_on_success
from simpeval_siera.config import (
    CONFIG_FILE,
    WEIGHTS_FILE,
    SieraConfig,
    broken_checkpoint,
    config_encoder,
    read_config,
)


def load_tokenizer(config: SieraConfig):
    """The encoder's tokenizer, loaded by :mod:`simpeval.models` (offline, no code from the directory)."""
    return models.load_transformers(config_encoder(config), "tokenizer", option="encoder")


class SieraModel(nn.Module):
    """Frozen encoder bottom, trained encoder top, and the two-way softmax head."""

    def __init__(self, config: SieraConfig) -> None:
        super().__init__()
        self.config = config
        encoder = models.load_transformers(
            config_encoder(config), "model", option="encoder", add_pooling_layer=False
        )
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
        for layer in self.top[:-1]:
            hidden = layer(hidden, attention_mask=mask)
        return self.head(first_token_state(self.top[-1], hidden, mask))

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

        Each file is written under a temporary name of its own and then renamed
        (:func:`simpeval.fileio.replaced_on_success`), so an interrupted save never
        leaves a truncated file where a checkpoint was, and two saves into one
        directory never write into each other's temporary file.
        """
        from safetensors.torch import save_file

        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        with replaced_on_success(directory / WEIGHTS_FILE) as weights:
            save_file(self.trained_state(), str(weights))
        with replaced_on_success(directory / CONFIG_FILE) as config:
            config.write_text(json.dumps(asdict(self.config), indent=2) + "\n", encoding="utf-8")
        return directory


def first_token_state(layer: nn.Module, hidden: torch.Tensor, mask: torch.Tensor | None) -> torch.Tensor:
    """The output of BERT layer ``layer`` at the first ([CLS]) position only (batch x hidden).

    The head reads nothing else, so in the last layer only the [CLS] row needs a
    query, an attention output and a feed-forward pass; keys and values still
    come from every token. This is the layer's own arithmetic (its modules,
    scaled dot-product attention under the same mask) on one row instead of
    all: a sixth of the encoder's matrix products for SIERA's 6-layer MiniLM,
    and the same probabilities up to float rounding (the tests compare it with
    the whole layer).

    :param mask: the layer's attention mask (``create_bidirectional_mask``'s,
        batch x 1 x tokens x tokens, boolean or additive), or ``None`` for no padding.
    """
    attention = layer.attention.self
    batch, _, _ = hidden.shape

    def heads(states: torch.Tensor) -> torch.Tensor:  # batch x heads x tokens x head size
        return states.view(batch, -1, attention.num_attention_heads, attention.attention_head_size).transpose(1, 2)

    first = hidden[:, :1]
    context = torch.nn.functional.scaled_dot_product_attention(
        heads(attention.query(first)), heads(attention.key(hidden)), heads(attention.value(hidden)),
        attn_mask=None if mask is None else mask[:, :, :1], scale=attention.scaling,
        dropout_p=attention.dropout.p if attention.training else 0.0,
    )
    attended = layer.attention.output(context.transpose(1, 2).reshape(batch, 1, -1), first)
    return layer.output(layer.intermediate(attended), attended)[:, 0]


def load_checkpoint(directory: str | Path) -> SieraModel:
    """Rebuild a :class:`SieraModel` from a directory written by :meth:`SieraModel.save`."""
    from safetensors import SafetensorError
    from safetensors.torch import load_file

    directory = Path(directory)
    config = read_config(directory)
    config_encoder(config, directory)  # the encoder it was trained on, or one line saying it is not
    model = SieraModel(config)
    try:
        model.load_trained_state(load_file(str(directory / WEIGHTS_FILE)))
    except (SafetensorError, RuntimeError) as exc:  # not safetensors, or weights of another shape
        raise broken_checkpoint(directory, exc) from None
    model.eval()
    return model
