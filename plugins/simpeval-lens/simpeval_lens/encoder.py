"""Sentence embeddings of a frozen encoder: every layer, mean-pooled, computed once per distinct text.

LENS mixes the encoder's layers with learned weights and mean-pools the mixed states. Both steps
are linear and the pooling mask is the same for every layer, so mixing the per-layer pooled
vectors gives the same embedding: with the encoder frozen, each text is encoded once, in
length-sorted batches, into a ``layers x hidden`` matrix, and training and scoring only mix rows.

The encoder and the matrices are kept by a :class:`simpeval.run.Run` (the core's encoding
service, :mod:`simpeval.encoding`): keyed by the encoder's content, bounded by the run's
memory budget, released with the run. Models load through :mod:`simpeval.models` (offline,
no code from model directories).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from simpeval import models

if TYPE_CHECKING:
    import torch

    from simpeval.encoding import TextEncoder
    from simpeval.run import Run

DEFAULT_ENCODER = models.DEFAULT_ENCODER
MAX_LENGTH = 256


def resolve_encoder(name: str) -> str:
    """A local model for encoder ``name``: the MiniLM wheel's directory for the default, else ``name``."""
    return models.resolve_encoder(name, "LENS")


def layer_count(name: str) -> int:
    """Hidden-state layers of the encoder (embeddings + transformer layers), from its config alone."""
    return models.load_transformers(resolve_encoder(name), "config", option="encoder").num_hidden_layers + 1


def hidden_size(name: str) -> int:
    return models.load_transformers(resolve_encoder(name), "config", option="encoder").hidden_size


def layer_encoder(run: Run, name: str, batch_size: int = 32, device: str | None = None) -> TextEncoder:
    """The run's encoder of ``name`` giving each text's ``layers x hidden`` mean-pooled states, on
    ``device`` (cpu, cuda, cuda:N or mps; None: cuda if available); the states come back on the CPU."""
    from simpeval.encoding import TextEncoder, load_pretrained, shared_encoder

    path = resolve_encoder(name)

    def build() -> TextEncoder:
        tokenizer, model, target = load_pretrained(path, option="encoder", device=device)

        def tokenize(texts: list[str]) -> list[dict[str, list[int]]]:
            encoded = tokenizer(texts, truncation=True, max_length=MAX_LENGTH)
            return [{key: encoded[key][i] for key in encoded if key != "attention_mask"} for i in range(len(texts))]

        # padded length-sorted batches (not one length per batch): the shipped numbers were computed so
        return TextEncoder(model, tokenize, _pooled_layers, pad_id=tokenizer.pad_token_id, device=target,
                           batch_size=batch_size, description="LENS texts", same_length=False)

    reading = ("lens-pooled-layers", MAX_LENGTH) + (() if device is None else (device,))
    return shared_encoder(run, path, reading, build, option="encoder")


def _pooled_layers(model, batch):
    """Per row, the masked mean of every layer's states: ``layers x hidden``."""
    import torch

    states = model(**batch, output_hidden_states=True).hidden_states
    mask = batch["attention_mask"].unsqueeze(-1).float()
    return torch.stack([(s * mask).sum(1) / mask.sum(1) for s in states], dim=1)


def encode_layers(name: str, texts: Sequence[str], batch_size: int = 32, run: Run | None = None,
                  device: str | None = None) -> torch.Tensor:
    """``len(texts) x layers x hidden``: each text's mean-pooled hidden states of every layer.

    Each distinct text is encoded once while ``run`` keeps it.

    :param run: the run that keeps the encoder and the matrices (default: one for this call only).
    """
    import torch

    from simpeval.run import using

    with using(run) as run:
        if not texts:
            return torch.zeros(0, layer_count(name), hidden_size(name))
        return torch.stack(layer_encoder(run, name, batch_size, device).encode(list(texts)))


def save_encodings(path: str, run: Run, name: str = DEFAULT_ENCODER) -> int:
    """Write the embeddings ``run`` keeps for encoder ``name`` to ``path`` (so other processes skip
    the encoder); returns how many."""
    import torch

    kept = layer_encoder(run, name).kept()
    torch.save(kept, path)
    return len(kept)


def load_encodings(path: str, run: Run, name: str = DEFAULT_ENCODER) -> int:
    """Give ``run`` the embeddings :func:`save_encodings` wrote for encoder ``name``; returns how many.

    The file must come from the same encoder weights: it is the caller's (a benchmark's) to keep them together.
    """
    import torch

    encoder = layer_encoder(run, name)
    encoder.keep(torch.load(path, weights_only=True))
    return len(encoder)
