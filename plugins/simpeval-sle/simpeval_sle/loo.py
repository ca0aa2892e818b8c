"""What SLE's epochs are judged by on rated simplicity data it never trained on: ``sle-delta``.

SLE learns reading levels (OneStopEnglish), never a human rating of a simplification. The epoch
whose head is shipped is chosen by how well ``sle-delta`` (the output's level minus its source's)
correlates with the simplicity ratings of the rated datasets, through the one selection loop
(:class:`~simpeval_sle.trainer.SleTrainer`): the table reports, for each dataset, the head chosen on
the others. Sentences are embedded once, cached on disk like the corpus's.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from simpeval.learning.judge import Judge
from simpeval_sle.segment import sentences_of
from simpeval_sle.training import cached_embeddings, mean_levels


Texts = dict[str, tuple[list[np.ndarray], list[np.ndarray]]]


def rated_vectors(judge: Judge, encoder: str, cache_dir: Path | None = None, batch_size: int = 64) -> Texts:
    """Per dataset: the sentence embeddings of each source and of each output (one encoder pass for all)."""
    texts = [(s.name, kind, text) for s in judge.sets for kind in ("source", "output")
             for text in (s.sources if kind == "source" else s.outputs)]
    split = [sentences_of(text) for _, _, text in texts]
    vectors = cached_embeddings(encoder, [s for sentences in split for s in sentences], cache_dir, batch_size)
    bounds = np.cumsum([0, *(len(s) for s in split)])
    result: Texts = {s.name: ([], []) for s in judge.sets}
    for (name, kind, _), a, b in zip(texts, bounds[:-1], bounds[1:]):
        result[name][0 if kind == "source" else 1].append(vectors[a:b])
    return result


def delta_scores(predict: Callable[[np.ndarray], list[float]], rated: Texts) -> dict[str, np.ndarray]:
    """Per dataset, each item's ``sle-delta``: mean output sentence level minus mean source sentence level."""
    return {name: mean_levels(predict, outputs) - mean_levels(predict, sources)
            for name, (sources, outputs) in rated.items()}
