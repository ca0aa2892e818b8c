"""What SIERA's epochs are judged by on rated simplicity data it never trains on: the two-way score.

SIERA learns from (original, simplification) pairs and their edit-made intermediates, never from
a human rating. The epoch whose weights are saved is chosen by how well the two-way score
(``siera``) correlates with the simplicity ratings of the rated datasets, through the one selection
loop (:class:`~simpeval_siera.trainer.SieraTrainer`): each row of the table is the epoch chosen on
the other datasets. The frozen bottom's states of every rated (source, output) pair, in both
orders, are computed once (:class:`~simpeval_siera.features.FeatureCache`); each epoch only runs
the trained top layer and the head over them.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from simpeval.encoding import length_batches
from simpeval.learning.judge import Judge
from simpeval_siera.features import FeatureCache
from simpeval_siera.normalize import normalize


Pair = tuple[str, str]


def rated_pairs(judge: Judge) -> dict[str, list[Pair]]:
    """Per dataset, each item's normalised (source, output), as the metric reads them."""
    return {s.name: [(normalize(a), normalize(b)) for a, b in zip(s.sources, s.outputs)] for s in judge.sets}


def cache_pairs(cache: FeatureCache, pairs: Mapping[str, list[Pair]]) -> int:
    """Put both orders of every pair in ``cache``; returns how many states were computed."""
    return cache.add(p for items in pairs.values() for a, b in items for p in ((a, b), (b, a)))


def second_simpler(model, cache: FeatureCache, pairs: list[Pair], batch_size: int = 64) -> dict[Pair, float]:
    """P(second is simpler) of each distinct cached pair, in length-sorted batches, without dropout."""
    import torch

    distinct = list(dict.fromkeys(pairs))
    result: dict[Pair, float] = {}
    model.eval()
    with torch.inference_mode():
        for batch in length_batches([len(cache.states[p]) for p in distinct], batch_size):
            hidden, mask = cache.batch([distinct[i] for i in batch])
            probabilities = torch.softmax(model(hidden, mask).float(), dim=-1)[:, 1]
            result.update(zip((distinct[i] for i in batch), probabilities.tolist()))
    return result


def two_way_scores(model, cache: FeatureCache, pairs: Mapping[str, list[Pair]]) -> dict[str, np.ndarray]:
    """Per dataset, each item's two-way score: the mean of P(output simpler | s, o) and 1 - P(... | o, s)."""
    every = [p for items in pairs.values() for a, b in items for p in ((a, b), (b, a))]
    probability = second_simpler(model, cache, every)
    return {name: np.array([(probability[(a, b)] + 1.0 - probability[(b, a)]) / 2 for a, b in items])
            for name, items in pairs.items()}
