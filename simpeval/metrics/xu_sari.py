"""SARI of one n-gram order as Wei Xu's sentence script computes it (Xu et al. 2016).

Why a module of its own: the script's keep and deletion scores are *means of per-n-gram ratios*
(each distinct n-gram's correct count over its kept or deleted count), not the ratio of pooled
counts that EASSE's SARI (:mod:`simpeval.metrics.sari`) computes; the two differ whenever an
n-gram is kept or deleted more often than the references allow. Two metrics follow the script:
``sari-lens`` (LENS's copy, with its own addition rule) and ``d-sari`` (Sun et al. 2021, which
adds length penalties on top), so the formula lives here once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

__all__ = ["f1", "order_scores"]


def f1(precision: float, recall: float) -> float:
    """Harmonic mean; 0 when both are 0."""
    return 2 * precision * recall / (precision + recall) if precision > 0 or recall > 0 else 0.0


def _mean_ratio(good: Counter, over: Counter, within: Counter) -> float:
    """Mean over the distinct n-grams of ``within`` of ``good / over`` (0 for n-grams not in ``good``)."""
    return sum(good[g] / over[g] for g in good) / len(within) if within else 0.0


def order_scores(
    source: Counter, output: Counter, refs: Counter, n_refs: int,
    counts_as_added: Callable[[tuple[str, ...]], bool] | None = None,
) -> tuple[float, float, float]:
    """``(keep F1, deletion precision, addition F1)`` of one order, each in [0, 1].

    :param source: the original's n-gram counts; ``output`` the output's;
    :param refs: the references' n-gram counts summed over the ``n_refs`` references;
    :param counts_as_added: which correctly added n-grams count (LENS's rule); None: all.
    """
    source_rep = Counter({g: c * n_refs for g, c in source.items()})
    output_rep = Counter({g: c * n_refs for g, c in output.items()})

    kept = source_rep & output_rep
    kept_good = kept & refs
    kept_all = source_rep & refs
    keep = f1(_mean_ratio(kept_good, kept, kept), _mean_ratio(kept_good, kept_all, kept_all))

    deleted = source_rep - output_rep
    deletion = _mean_ratio(deleted - refs, deleted, deleted)

    added = set(output) - set(source)
    added_all = set(refs) - set(source)
    added_good = added & set(refs)
    if counts_as_added is not None:
        added_good = {g for g in added_good if counts_as_added(g)}
    add = f1(len(added_good) / len(added) if added else 0.0, len(added_good) / len(added_all) if added_all else 0.0)
    return keep, deletion, add
