"""SLE's label softening (Cripwell et al. 2023): graded sentence labels from document levels.

Every sentence inherits its document's level, but sentences within a level
differ in difficulty. SLE spreads them by a readability proxy, -FKGL (higher =
simpler, like the levels), within each level:

1. drop sentences below the level's 1st or above its 99th percentile of -FKGL;
2. min-max scale the rest to [0, 2] within the level;
3. subtract the level's mean scaled value and add the level.

So a level's labels average exactly the level and spread about one level each
way. Pure functions over numbers; FKGL is the core's (EASSE settings, unclipped
so that very short sentences still rank).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

LOW_PERCENTILE = 1.0
HIGH_PERCENTILE = 99.0
SPAN = 2.0


def soften_labels(levels: Sequence[int], scores: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
    """Softened labels for the kept sentences.

    :param levels: each sentence's document level.
    :param scores: each sentence's simplicity proxy (-FKGL), higher = simpler.
    :returns: ``(kept, labels)``: a boolean mask over the sentences (outliers are
        False) and the label of each kept sentence, in input order.
    """
    levels = np.asarray(levels)
    scores = np.asarray(scores, dtype=float)
    kept = np.zeros(len(levels), dtype=bool)
    labels = np.zeros(len(levels))
    for level in np.unique(levels):
        group = levels == level
        low, high = np.percentile(scores[group], [LOW_PERCENTILE, HIGH_PERCENTILE])
        inside = group & (scores >= low) & (scores <= high)
        values = scores[inside]
        width = values.max() - values.min()
        scaled = SPAN * (values - values.min()) / width if width > 0 else np.full(len(values), SPAN / 2)
        labels[inside] = scaled - scaled.mean() + level
        kept |= inside
    return kept, labels[kept]


def sentence_fkgl(sentences: Sequence[str]) -> list[float]:
    """Each sentence's FKGL with the core's default settings, not clipped at 0."""
    from simpeval.metrics.fkgl import Fkgl

    return Fkgl(clip=False).grades(sentences)
