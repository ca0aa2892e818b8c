"""Inter-annotator agreement of a dataset's individual ratings (Alva-Manchego et al. 2021, §3).

ICC(1,1) treats "the j-th rating of an item" as rater j, since crowd workers differ from item
to item (as the paper's released notebook does with pingouin); the simulated two-rater
Spearman picks one rating per item as rater A and averages the others as rater B, 1,000
times. Ratings are z-scored per rater first where the dataset's scores are z-scores
(Simplicity-DA), and used raw otherwise (Structural Simplicity).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simpeval.datasets.base import Dataset
from simpeval.metaeval import stats


@dataclass(frozen=True)
class Agreement:
    """Agreement of one aspect's ratings."""

    dataset: str
    aspect: str
    items: int
    ratings_per_item: int
    standardized: bool
    icc: float
    spearman_mean: float
    spearman_std: float
    repetitions: int


def agreement(dataset: Dataset, aspect: str, rng: np.random.Generator, repetitions: int = 1000) -> Agreement:
    """ICC(1,1) and simulated two-rater Spearman of ``aspect`` in ``dataset``."""
    ratings = dataset.ratings(aspect)
    standardized = dataset.has_standardized(aspect)
    if standardized:
        ratings = ratings.standardized()
    matrix = ratings.matrix()
    simulated = stats.simulated_rater_spearman(matrix, rng, repetitions)
    return Agreement(
        dataset=dataset.name,
        aspect=aspect,
        items=matrix.shape[0],
        ratings_per_item=matrix.shape[1],
        standardized=standardized,
        icc=stats.icc1(matrix),
        spearman_mean=simulated.mean,
        spearman_std=simulated.std,
        repetitions=repetitions,
    )
