"""Agreement of a metric with pairwise preferences: the statistics, as pure functions over arrays.

Why its own module: a pairwise judgement (Cochrane readability pairs, perturbation checks) has no
score to correlate with, only which of two outputs is better. A metric *agrees* on a pair when it
scores the preferred output strictly better, in the metric's own direction (``higher_is_better``);
a *tie* is an equal score, reported on its own rather than split or counted as either side
(Maddela & Alva-Manchego 2025 count it against the metric). Pairs where either score is not finite
are left out of ``n``. The interval is a percentile bootstrap over pairs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["PairAgreement", "pair_agreement"]


@dataclass(frozen=True)
class PairAgreement:
    """Shares of ``n`` pairs (in [0, 1]): the metric agrees, ties; ``ci_*``: interval of ``agree``."""

    agree: float
    ties: float
    n: int
    ci_low: float | None = None
    ci_high: float | None = None


def _outcomes(first: np.ndarray, second: np.ndarray, second_preferred: np.ndarray,
              higher_is_better: bool) -> tuple[np.ndarray, np.ndarray]:
    """Per usable pair: whether the metric agrees, and whether it ties."""
    first, second = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    usable = np.isfinite(first) & np.isfinite(second)
    diff = (second - first)[usable] * (1.0 if higher_is_better else -1.0)  # > 0: the metric prefers the second
    wanted = np.where(np.asarray(second_preferred, dtype=bool)[usable], 1.0, -1.0)
    return diff * wanted > 0, diff == 0


def pair_agreement(first: np.ndarray, second: np.ndarray, second_preferred: np.ndarray, *,
                   higher_is_better: bool = True, bootstrap: int = 0, level: float = 0.95,
                   rng: np.random.Generator | None = None) -> PairAgreement:
    """How often a metric's scores of the two outputs of each pair order them as judged.

    :param first: the metric's score of each pair's first output; ``second`` of its second output;
    :param second_preferred: per pair, whether the second output is the preferred one;
    :param bootstrap: resamples of the pairs for the interval of the agreement (0: none).
    """
    agree, tie = _outcomes(first, second, second_preferred, higher_is_better)
    n = len(agree)
    if n == 0:
        return PairAgreement(float("nan"), float("nan"), 0)
    low = high = None
    if bootstrap:
        rng = rng if rng is not None else np.random.default_rng(0)
        shares = agree[rng.integers(0, n, size=(bootstrap, n))].mean(axis=1)
        low, high = (float(q) for q in np.quantile(shares, [(1 - level) / 2, (1 + level) / 2]))
    return PairAgreement(float(agree.mean()), float(tie.mean()), n, low, high)
