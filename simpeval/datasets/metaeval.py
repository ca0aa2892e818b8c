"""The datasets of Alva-Manchego, Scarton and Specia (2021): Simplicity-DA and Structural Simplicity.

Both come from https://github.com/feralvam/metaeval-simplification; their ``sent_id`` is the
1-based line of the TurkCorpus/ASSET/HSplit test set, so every reference set applies.
System types are relabelled as in the paper's Table 1 (``NeuralSeq2Seq`` -> ``S2S``, ...).
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

import numpy as np

from simpeval.datasets.base import Dataset, Item, Judgements, Ratings
from simpeval.datasets.csvio import numbers, read_rows
from simpeval.errors import UsageError

SOURCE = "https://github.com/feralvam/metaeval-simplification"
SYSTEM_TYPES = {
    "NeuralSeq2Seq": "S2S",
    "Semantics": "Sem",
    "Semantics+PBMT": "Sem+PBMT",
    "Semantics+NeuralSeq2Seq": "Sem+S2S",
}


def _items(rows: list[dict[str, str]]) -> list[Item]:
    return [
        Item(
            key=(row["sent_id"], row["sys_name"]),
            source=row["orig_sent"],
            output=row["simp_sent"],
            system=row["sys_name"],
            system_type=SYSTEM_TYPES.get(row["sys_type"], row["sys_type"]),
            line=int(row["sent_id"]) - 1,
        )
        for row in rows
    ]


def _ratings(items: list[Item], path: Path, aspect: str) -> Ratings:
    rows = read_rows(path, ("sent_id", "sys_name", "rater_id", aspect))
    position = {item.key: i for i, item in enumerate(items)}
    keys = [(row["sent_id"], row["sys_name"]) for row in rows]
    unknown = [k for k in keys if k not in position]
    if unknown:
        raise UsageError(
            f"{path}: {len(unknown)} ratings of items not in the scores file, e.g. {unknown[0]}: "
            "use the ratings file released with it"
        )
    return Ratings(
        item=np.array([position[k] for k in keys], dtype=int),
        rater=np.array([row["rater_id"] for row in rows]),
        value=numbers(rows, aspect, path),
    )


class _PaperDataset(Dataset):
    """A scores file (one row per output, an ``{aspect}`` column per aspect and, if ``has_zscores``,
    ``{aspect}_zscore``) plus a ratings file with the individual ratings of ``rated_aspect``."""

    source_url = SOURCE
    rated_aspect: ClassVar[str]
    has_zscores: ClassVar[bool] = False

    def read(self, scores_path: Path, ratings_path: Path) -> Judgements:
        rows = read_rows(scores_path, ("sent_id", "sys_name", "orig_sent", "simp_sent", "sys_type"))
        items = _items(rows)
        zscored = self.aspects if self.has_zscores else ()
        return Judgements(
            items=items,
            raw={a: numbers(rows, a, scores_path) for a in self.aspects},
            standardized={a: numbers(rows, f"{a}_zscore", scores_path) for a in zscored},
            ratings={self.rated_aspect: _ratings(items, ratings_path, self.rated_aspect)},
        )


class SimplicityDA(_PaperDataset):
    """600 outputs of 6 systems rated 0-100 by 15 crowd workers for simplicity, meaning and fluency.

    The per-item score of an aspect is the mean of the 15 ratings z-scored per worker
    (``*_zscore``), as in the paper's tables; ``--raw`` uses the mean raw 0-100 rating.
    ``average`` is the mean of the simplicity, meaning and fluency scores.
    """

    name = "simplicity-da"
    description = "Simplicity-DA (Alva-Manchego et al. 2021): 600 outputs, 6 systems, 0-100 direct assessment"
    files = ("metaeval/simplicity_DA.csv", "metaeval/simplicity_DA_ratings.csv")
    licence = "CC BY-NC-SA 4.0"
    aspects = ("simplicity", "meaning", "fluency")
    average_of = ("simplicity", "meaning", "fluency")
    default_references = "asset"
    rated_aspect = "simplicity"
    has_zscores = True


class StructuralSimplicity(_PaperDataset):
    """1,750 outputs of 25 systems on the first 70 test sentences, 3 expert ratings each (Sulem et al. 2018c).

    Structural simplicity and simplicity are on -2..+2, meaning and grammaticality on 1..5;
    per-item scores are the mean of 3 raw ratings (no z-scores exist). ``average`` is the mean
    of grammaticality, meaning and simplicity on their raw scales, the "overall" score of the
    CEScore paper (mean of G, M and S).
    """

    name = "structural-simplicity"
    description = "Structural Simplicity (Sulem et al. 2018c): 1,750 outputs, 25 systems, -2..2 Likert"
    files = ("metaeval/structural_simplicity.csv", "metaeval/structural_simplicity_ratings.csv")
    licence = "CC BY-SA / CC BY-NC-SA"
    aspects = ("structural_simplicity", "simplicity", "meaning", "grammaticality")
    average_of = ("grammaticality", "meaning", "simplicity")
    default_references = "hsplit"
    rated_aspect = "structural_simplicity"
