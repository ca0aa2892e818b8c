"""Scoring outputs with a trained LENS or LENS-CLA model: the best score over the references, 0-100.

As LENS's ``lens_score``: texts are lower-cased, each (source, output, reference) triple is
scored, an output gets its maximum over its references, and the predicted z-score is mapped to
0-100 through the standard normal distribution (LENS's ``rescale``).

Memory: the head reads each text's layers only through their mix (:meth:`LensModel.mix`, one row at a
time), so the distinct texts of a call are mixed :data:`TEXTS_PER_STEP` at a time into one ``hidden``
vector each, and sources, outputs and references are gathered from those: no ``texts x layers x
hidden`` table of the call and no gathered copy of every reference's layers (a 512-item batch with 10
references held 66 MB and 55 MB of them at once; on real multi-reference items such temporaries grew
a 15,000-item run's peak RSS by 111 MB over a 3,000-item one). The head itself still scores the whole
call at once, with the same shapes, so the numbers are those of one step to the last digit.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import torch

from simpeval_lens.losses import max_over_references
from simpeval_lens.model import LensModel
from simpeval_lens.training import index_texts

TEXTS_PER_STEP = 256
"""Texts whose layers are stacked and mixed at once (256 x 7 x 384 floats: 2.6 MB with MiniLM)."""

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
    from simpeval.encoding import release_freed_heap
    from simpeval.run import using
    from simpeval_lens.encoder import layer_encoder

    has_refs = [bool(refs) for refs in references]
    kept = [i for i, ok in enumerate(has_refs) if ok]
    scores = [float("nan")] * len(outputs)
    if not kept:
        return scores
    texts, source, output, refs, mask = index_texts(
        [sources[i].lower() for i in kept], [outputs[i].lower() for i in kept],
        [[r.lower() for r in references[i]] for i in kept],
    )
    with using(run) as run:
        embeddings = layer_encoder(run, model.config.encoder, batch_size, device).encode(texts)
    with torch.no_grad():
        mixed = mix_texts(model, embeddings)
        del embeddings  # the run keeps what its budget allows
        item = torch.arange(len(mask)).unsqueeze(1).expand_as(mask)[mask]
        predictions, _ = model.score_mixed(mixed[source], mixed[output], mixed[refs[mask]], item)
        grid = torch.zeros(mask.shape)
        grid[mask] = predictions
        best = max_over_references(grid, mask)
    del mixed, predictions, grid
    release_freed_heap()  # the freed temporaries go back to the system before the next batch
    for i, z in zip(kept, best.tolist()):
        scores[i] = to_percent(z)
    return scores


def mix_texts(model: LensModel, embeddings: Sequence[torch.Tensor]) -> torch.Tensor:
    """``texts x hidden``: each text's ``layers x hidden`` embedding mixed by ``model``, :data:`TEXTS_PER_STEP`
    texts at a time."""
    return torch.cat([model.mix(torch.stack(list(embeddings[start : start + TEXTS_PER_STEP])))
                      for start in range(0, len(embeddings), TEXTS_PER_STEP)])
