"""Combining a precision-oriented and a recall-oriented score into one."""

from __future__ import annotations


def harmonic_mean(precision: float, recall: float) -> float:
    """F1 of two scores in [0, 1]; 0 when both are 0.

    Only meaningful for non-negative scores: SummaC-ZS, which can be negative,
    therefore has no F1.
    """
    return 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
