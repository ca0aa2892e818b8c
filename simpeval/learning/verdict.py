"""The one judge of a learned metric: its r beside the strongest baseline on the same items.

Every page, card and ``simpeval metrics show`` that says whether a learned metric wins or loses
reads the verdict from here, so the rules are stated once:

- the learned metric's r is taken in its declared direction (``higher_is_better``): a metric that
  points the wrong way on a dataset loses by the full size of its r, it is not a "small shortfall";
- each baseline counts in its best orientation (its |r|: the sign of a hand-made score can be
  flipped by whoever uses it), and the strongest baseline is the one with the largest |r| among
  every non-learned metric and sub-score of the registry (:mod:`simpeval.learning.baselines`);
- a row whose items the metric's training data shares (:mod:`simpeval.itemkeys`, the key the
  leaderboard's overlap uses) is *contaminated*: never a win or a loss. :func:`judge_scores` then
  adds a row over the items it never saw, which is judged.

A win is ``r >= strongest baseline``; a row without a defined r or baseline is ``undefined``.
Pure numpy; no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass

import numpy as np

__all__ = ["VERDICTS", "Row", "judge", "judge_scores", "oriented", "pearson", "strongest"]

VERDICTS = ("win", "loss", "contaminated", "undefined")


def pearson(x: np.ndarray, y: np.ndarray) -> float:
    """Pearson's r over the pairs where both are numbers (nan when either side is constant).

    A metric's NaN means "undefined for this item" (an empty output has no sentence to read),
    so such items are left out rather than turning the whole correlation into NaN.
    """
    x, y = np.asarray(x, float), np.asarray(y, float)
    keep = np.isfinite(x) & np.isfinite(y)
    x, y = x[keep], y[keep]
    dx, dy = x - x.mean(), y - y.mean()
    norm = np.sqrt((dx @ dx) * (dy @ dy))
    return float(dx @ dy / norm) if norm > 0 else float("nan")


def oriented(r: float, higher_is_better: bool = True) -> float:
    """``r`` in the metric's declared direction: positive when the metric agrees with the ratings."""
    return r if higher_is_better else -r


def strongest(baselines: Mapping[str, float]) -> tuple[str, float]:
    """The baseline with the largest |r| (an undefined one never) and that |r|; ``("none", nan)`` without one."""
    defined = {name: abs(r) for name, r in baselines.items() if r is not None and math.isfinite(r)}
    if not defined:
        return "none", float("nan")
    name = max(sorted(defined), key=lambda k: defined[k])  # sorted: a tie goes to the first name, every run
    return name, defined[name]


@dataclass(frozen=True)
class Row:
    """One judged row: a learned score on one dataset's items for one aspect, beside the strongest baseline."""

    dataset: str
    aspect: str
    score: str  # the learned metric's sub-score judged
    n: int  # items with a defined score
    r: float  # Pearson r in the metric's declared direction
    baseline: str  # the strongest baseline on the same items
    baseline_r: float  # its |r| (its best orientation)
    baseline_sign: int = 1  # +1 or -1: the orientation in which it reaches baseline_r
    baselines_compared: int = 0  # how many baseline scores were compared
    items: str = "all"  # "all", or "unseen": only the items the training data does not share
    shared: int = 0  # items of these that the metric's training data shares
    chosen: str = ""  # a trainer's row: the candidate chosen on the other datasets
    dropped: int = 0  # a trainer's row: rows of the other datasets not trained on (this dataset's items)

    @property
    def contaminated(self) -> bool:
        return self.shared > 0

    @property
    def verdict(self) -> str:
        if self.contaminated:
            return "contaminated"
        if not (math.isfinite(self.r) and math.isfinite(self.baseline_r)):
            return "undefined"
        return "win" if self.r >= self.baseline_r else "loss"

    @property
    def margin(self) -> float:
        """``r`` minus the strongest baseline's |r| (negative: a loss by that much)."""
        return self.r - self.baseline_r

    def to_json(self) -> dict:
        """The row as a record stores it (numbers rounded to 4 decimals, the verdict spelled out)."""
        out = {k: (round(v, 4) if isinstance(v, float) and math.isfinite(v) else None if isinstance(v, float) else v)
               for k, v in asdict(self).items()}
        return {**out, "verdict": self.verdict}

    @classmethod
    def from_json(cls, value: Mapping) -> Row:
        fields = {k: v for k, v in value.items() if k in cls.__dataclass_fields__}
        for key in ("r", "baseline_r"):
            fields[key] = float("nan") if fields.get(key) is None else float(fields[key])
        return cls(**fields)


def judge(r: float, n: int, baselines: Mapping[str, float], *, dataset: str, aspect: str, score: str,
          higher_is_better: bool = True, items: str = "all", shared: int = 0, chosen: str = "",
          dropped: int = 0) -> Row:
    """A row from correlations already computed: the metric's signed ``r`` and each baseline's signed r."""
    name, value = strongest(baselines)
    sign = 1 if name == "none" or baselines[name] >= 0 else -1
    return Row(dataset, aspect, score, n, oriented(r, higher_is_better), name, value, sign,
               sum(1 for v in baselines.values() if v is not None and math.isfinite(v)), items, shared, chosen,
               dropped)


def judge_scores(scores: Sequence[float], labels: Sequence[float], baselines: Mapping[str, Sequence[float]], *,
                 dataset: str, aspect: str, score: str, higher_is_better: bool = True,
                 seen: Sequence[bool] | None = None) -> list[Row]:
    """Rows from per-item values: the metric's scores, the human labels and every baseline's scores.

    An item the metric leaves undefined (NaN) is left out of its r and of the baselines' (the same
    items); ``seen``: per item, whether the metric's training data holds it. With any seen item the
    row over all items is contaminated, and a second row over the unseen ones carries the verdict.
    """
    scores, labels = np.asarray(scores, float), np.asarray(labels, float)
    columns = {k: np.asarray(v, float) for k, v in baselines.items()}
    mask_seen = np.zeros(len(scores), bool) if seen is None else np.asarray(seen, bool)
    defined = np.isfinite(scores) & np.isfinite(labels)
    rows = []
    for items, keep in (("all", defined), ("unseen", defined & ~mask_seen)):
        if items == "unseen" and not mask_seen.any():
            break
        rows.append(judge(pearson(scores[keep], labels[keep]), int(keep.sum()),
                          {k: pearson(v[keep], labels[keep]) for k, v in columns.items()},
                          dataset=dataset, aspect=aspect, score=score, higher_is_better=higher_is_better,
                          items=items, shared=int((mask_seen & keep).sum())))
    return rows
