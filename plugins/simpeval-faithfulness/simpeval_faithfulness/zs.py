"""SummaC-ZS (Laban et al. 2022): the zero-shot aggregation of an entailment matrix.

Each hypothesis sentence takes its best support in the premise (the maximum
entailment probability over premise chunks) minus its strongest contradiction
(the maximum contradiction probability); the text's score is the mean over its
hypothesis sentences. A score lies in [-1, 1].
"""

from __future__ import annotations

import numpy as np

from simpeval_faithfulness.matrices import EntailmentMatrix

EMPTY_SCORE = 0.0
"""The score when either text has no sentence (the SummaC release scores an all-zero matrix: 0)."""


def zs_score(matrix: EntailmentMatrix) -> float:
    """SummaC-ZS of one text pair: ``mean_j(max_i E[i, j] - max_i C[i, j])``."""
    if matrix.is_empty:
        return EMPTY_SCORE
    per_sentence = matrix.entailment.max(axis=0) - matrix.contradiction.max(axis=0)
    return float(np.mean(per_sentence))
