"""Scoring outputs with a trained LENS or LENS-CLA model: the best score over the references, 0-100.

As LENS's ``lens_score``: texts are lower-cased, each (source, output, reference) triple is
scored, an output gets its maximum over its references, and the predicted z-score is mapped to
0-100 through the standard normal distribution (LENS's ``rescale``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import torch

from simpeval_lens.losses import max_over_references
from simpeval_lens.model import LensModel
from simpeval_lens.training import Features, index_texts, predict

if TYPE_CHECKING:
    from simpeval.run import Run


def to_percent(z: float) -> float:
    """``100 * Phi(z)``: a predicted z-score on LENS's 0-100 scale."""
    return 50.0 * (math.erf(z / math.sqrt(2.0)) + 1.0)


def lens_scores(model: LensModel, sources: Sequence[str], outputs: Sequence[str],
                references: Sequence[Sequence[str]], batch_size: int = 32, run: Run | None = None,
                device: str | None = None) -> list[float]:
    """One 0-100 score per output; outputs without references score nan.

    :param run: the run that keeps the encoder and the texts' embeddings (default: one for this call).
    :param device: the encoder's (cpu, cuda, cuda:N or mps; None: cuda if available); the head runs on the CPU.
    """
    from simpeval_lens.encoder import encode_layers

    has_refs = [bool(refs) for refs in references]
    kept = [i for i, ok in enumerate(has_refs) if ok]
    scores = [float("nan")] * len(outputs)
    if not kept:
        return scores
    texts, source, output, refs, mask = index_texts(
        [sources[i].lower() for i in kept], [outputs[i].lower() for i in kept],
        [[r.lower() for r in references[i]] for i in kept],
    )
    table = encode_layers(model.config.encoder, texts, batch_size, run=run, device=device)
    features = Features(table, source, output, refs, mask, torch.zeros(len(kept)))
    with torch.no_grad():
        grid, grid_mask, _ = predict(model, features)
        best = max_over_references(grid, grid_mask)
    for i, z in zip(kept, best.tolist()):
        scores[i] = to_percent(z)
    return scores
