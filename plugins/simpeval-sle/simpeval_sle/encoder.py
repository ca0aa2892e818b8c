"""The frozen sentence encoder: mean-pooled embeddings through the core's encoding service.

SLE's regression head reads one vector per sentence. The encoder is never
trained here, so :mod:`simpeval.encoding` computes each distinct sentence once
per run (:class:`simpeval.run.Run`), in length-sorted batches (little padding), and
every metric of the run reuses it; :mod:`simpeval.models` loads the weights offline. This is
the only module of the plugin that touches encoder weights.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from simpeval import models

if TYPE_CHECKING:
    import numpy as np

    from simpeval.encoding import TextEncoder
    from simpeval.run import Run

DEFAULT_ENCODER = models.DEFAULT_ENCODER
MAX_LENGTH = 128


def resolve_encoder(name: str) -> str:
    """A local directory for ``name``: the MiniLM wheel's for the default, else the model ``name`` locates."""
    if name == DEFAULT_ENCODER:
        return models.resolve_encoder(name, "SLE")
    return str(models.locate(name, option="encoder"))


def sentence_encoder(run: Run, name: str, batch_size: int = 64, device: str | None = None) -> TextEncoder:
    """The run's :class:`~simpeval.encoding.TextEncoder` of ``name`` read as mean-pooled last-layer
    states: loaded once per run and model content (offline, no remote code) and each distinct
    sentence encoded once while the run keeps it, whichever metric asks; on ``device`` (cpu, cuda,
    cuda:N or mps; None: cuda if available)."""
    from simpeval.encoding import mean_pooled_encoder

    return mean_pooled_encoder(run, resolve_encoder(name), max_length=MAX_LENGTH, batch_size=batch_size,
                               description="SLE sentences", device=device)


def embed(name: str, sentences: Sequence[str], batch_size: int = 64, run: Run | None = None,
          device: str | None = None) -> np.ndarray:
    """Mean-pooled last-layer states of ``sentences`` (``len(sentences) x hidden``, float32).

    :param run: the run that keeps the model and the embeddings (default: one for this call only).
    """
    import numpy as np

    from simpeval.run import using

    with using(run) as run:
        encoder = sentence_encoder(run, name, batch_size, device)
        if not sentences:
            return np.zeros((0, encoder.model.config.hidden_size), dtype=np.float32)
        return np.stack([vector.float().numpy() for vector in encoder.encode(list(sentences))])
