"""Significance clusters: rank competitors (metrics, or systems) from pairwise p-values.

The rule is WMT's (the metrics shared tasks since WMT22, Freitag et al. 2022 and 2023, as
implemented by mt-metrics-eval's ``AssignRanks`` in ``mt_metrics_eval/data.py``): sort the
competitors from best to worst; the first starts cluster 1; walking down the list, a competitor
starts a new cluster (rank + 1) when it is significantly worse (p < alpha) than *any* competitor
of the current cluster, which always includes that cluster's best; otherwise it joins the
current cluster. So rank r holds competitors that nothing in cluster r significantly beats and
that something ranked above r does. simpeval compares with ``p < alpha`` (mt-metrics-eval uses
``<=``), as its ``winner`` marks do; with resampling p-values ``(1 + k) / (1 + n)`` the two
differ only if alpha is such a fraction.

:func:`holm` is Holm's (1979) step-down correction of a family of p-values, for rankings that
should hold for every comparison at once.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def cluster_ranks(values: Sequence[float], p_better: np.ndarray, alpha: float = 0.05) -> list[int | None]:
    """Rank of each competitor (1 = best cluster); None where its value is nan.

    :param values: higher is better; ties keep the given order.
    :param p_better: ``p_better[i, j]``: p-value that competitor i is better than j (nan: not
        tested, i.e. not significant).
    """
    values = np.asarray(values, dtype=float)
    p = np.asarray(p_better, dtype=float)
    order = [int(i) for i in np.argsort(-values, kind="stable") if np.isfinite(values[i])]
    ranks: list[int | None] = [None] * len(values)
    rank, start = 1, 0
    for pos, i in enumerate(order):
        if any(p[j, i] < alpha for j in order[start:pos]):
            rank, start = rank + 1, pos
        ranks[i] = rank
    return ranks


def holm(p_values: np.ndarray) -> np.ndarray:
    """Holm-adjusted p-values (same shape; nan entries stay nan and are not counted in the family).

    The i-th smallest of m p-values becomes ``max_{k<=i} min(1, (m - k + 1) p_(k))``, so
    ``adjusted < alpha`` rejects exactly what Holm's step-down procedure rejects at level alpha.
    """
    p = np.asarray(p_values, dtype=float)
    flat = p.ravel()
    tested = np.flatnonzero(np.isfinite(flat))
    out = np.full_like(flat, np.nan)
    if len(tested):
        order = tested[np.argsort(flat[tested], kind="stable")]
        m = len(order)
        scaled = np.minimum(1.0, (m - np.arange(m)) * flat[order])
        out[order] = np.maximum.accumulate(scaled)
    return out.reshape(p.shape)
