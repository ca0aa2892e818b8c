"""Splits of the items into the groups correlations are computed on.

- ``quality`` (Alva-Manchego et al. 2021, §4.2): ``Low`` = the bottom half of the items by human
  score, ``High`` = the top half, ``All`` = every item. Items are ordered by human score with a
  *stable* sort (ties keep the dataset's order), and Low takes the first ``n // 2``, so the split
  is deterministic. When many items share the median score (833 of 1,750 in Structural
  Simplicity), that order decides which tied items land in Low or High: the split is ill-defined
  there and :func:`quality_split` says so. ``ties="exclude"`` is the tie-aware alternative: Low
  = below the median, High = above it, items at the median in neither.
- ``system-type``: one group per system type, in order of first appearance, then ``All``.
- ``sentence-type``: one group per sentence type (SimpEval_2022's Deletions, Paraphrases,
  Splittings), in order of first appearance, then ``All`` (Maddela et al. 2023, Table 2).
- ``none``: ``All`` only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from simpeval.metaeval import SPLITS, TIE_POLICIES

ALL = "All"


@dataclass
class Split:
    """Named groups of item indices, and warnings about how they were formed."""

    groups: dict[str, np.ndarray]
    warnings: list[str] = field(default_factory=list)


def quality_split(human: np.ndarray, ties: str = "order") -> Split:
    """Low / High / All by human score (see the module docstring for ``ties``)."""
    human = np.asarray(human, dtype=float)
    n = len(human)
    median = float(np.median(human))
    at_median = int(np.sum(human == median))
    warnings = []
    if ties == "order":
        order = np.argsort(human, kind="stable")
        low, high = np.sort(order[: n // 2]), np.sort(order[n // 2 :])
        straddle = human[order[n // 2 - 1]] == human[order[n // 2]] if n >= 2 else False
        if straddle:
            warnings.append(
                f"{at_median} of {n} items tie at the median score {median:g}: Low/High are "
                "ill-defined (tied items are split by dataset order); try --ties exclude"
            )
    elif ties == "exclude":
        low, high = np.flatnonzero(human < median), np.flatnonzero(human > median)
        if at_median:
            warnings.append(f"{at_median} of {n} items at the median score {median:g} are in neither Low nor High")
    else:
        raise ValueError(f"unknown tie policy {ties!r}; expected one of {TIE_POLICIES}")
    return Split({"Low": low, "High": high, ALL: np.arange(n)}, warnings)


def system_type_split(system_types: Sequence[str], kind: str = "system") -> Split:
    """One group per system type (or another ``kind`` of item label), first-appearance order, then All."""
    types = np.asarray(system_types)
    if not len(types) or any(t == "" for t in types):
        return Split({ALL: np.arange(len(types))}, [f"this dataset has no {kind} types: only All is reported"])
    groups = {t: np.flatnonzero(types == t) for t in dict.fromkeys(types.tolist())}
    groups[ALL] = np.arange(len(types))
    return Split(groups)


def make_split(kind: str, human: np.ndarray, system_types: Sequence[str], ties: str = "order",
               sentence_types: Sequence[str] = ()) -> Split:
    """The split called ``kind`` (one of :data:`SPLITS`)."""
    if kind == "quality":
        return quality_split(human, ties)
    if kind == "system-type":
        return system_type_split(system_types)
    if kind == "sentence-type":
        return system_type_split(sentence_types or [""] * len(human), "sentence")
    if kind == "none":
        return Split({ALL: np.arange(len(human))})
    raise ValueError(f"unknown split {kind!r}; expected one of {SPLITS}")
