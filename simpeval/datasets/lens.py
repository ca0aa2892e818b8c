"""The SimpEval and SimpDA/SimpLikert datasets released with LENS (Maddela et al. 2023).

- ``simpeval-past``: 24 systems x 100 ASSET test sentences, 5 ratings (0-100) each;
- ``simpeval-2022``: columns ``original_id, original, generation, system, sentence_type,
  rating_1..3, rating_1..3_zscore`` (the LENS repository's ``data/simpeval_2022.csv``);
- ``simpda-2022`` and ``simplikert-2022``: one row per rating, ``WorkerId, Input.id,
  Input.original, Input.simplified, Input.system, Answer.adequacy, Answer.fluency,
  Answer.simplicity`` (``data/simpDA_2022.csv``, ``data/simplikert_2022.csv``).

Per-item scores are means of the per-rater z-scores (computed here per worker for SimpDA and
SimpLikert), raw means with ``--raw``. Adequacy is reported as the ``meaning`` aspect.
An item whose original is a line of ``asset.test.orig`` gets that line's references.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from simpeval.datasets.base import Dataset, Item, Judgements, Ratings
from simpeval.datasets.csvio import index_items, numbers, read_rows
from simpeval.datasets.references import test_set_lines

LENS_SOURCE = "https://github.com/Yao-Dou/LENS/tree/master/data"


def _rating_columns(fieldnames: list[str], raw: str, standardized: str) -> tuple[list[str], list[str]]:
    """The raw ``rating_N`` columns and their z-score twins, in N order."""
    raws = sorted((f for f in fieldnames if re.fullmatch(raw, f)), key=lambda f: int(re.sub(r"\D", "", f)))
    return raws, [re.sub(r"^(rating_\d+)$", standardized, f) for f in raws]


class _WideRatings(Dataset):
    """A file with one row per output and the ratings of several raters side by side."""

    output_column = "generation"
    z_suffix = r"\1_zscore"
    default_references = "asset"

    def read(self, path: Path) -> Judgements:
        rows = read_rows(path, ("original_id", "original", self.output_column, "system"))
        raw_cols, z_cols = _rating_columns(list(rows[0]) if rows else [], r"rating_\d+", self.z_suffix)
        lines = test_set_lines(self.data_dir)
        items = [
            Item(
                key=(row["original_id"], row["system"]),
                source=row["original"],
                output=row[self.output_column],
                system=row["system"],
                line=lines.get(row["original"].strip()),
            )
            for row in rows
        ]
        raw = np.column_stack([numbers(rows, c, path) for c in raw_cols])
        z = np.column_stack([numbers(rows, c, path) for c in z_cols])
        n, k = raw.shape
        return Judgements(
            items=items,
            raw={"simplicity": raw.mean(axis=1)},
            standardized={"simplicity": z.mean(axis=1)},
            ratings={
                "simplicity": Ratings(
                    item=np.repeat(np.arange(n), k),
                    rater=np.tile(np.array(raw_cols), n),
                    value=raw.ravel(),
                )
            },
        )


class SimpEvalPast(_WideRatings):
    """SimpEval_past: 2,400 outputs (24 systems incl. two ASSET references) of 100 ASSET test sentences."""

    name = "simpeval-past"
    description = "SimpEval_past (LENS): 2,400 outputs, 24 systems, 5 ratings 0-100 each"
    files = ("simpeval/simpeval_past.csv",)
    source_url = LENS_SOURCE
    key_columns = ("original_id", "system")
    output_column = "processed_generation"
    z_suffix = r"\1_z_score"


class SimpEval2022(_WideRatings):
    """SimpEval_2022: outputs of recent systems on 2022 Wikipedia sentences, 3 ratings 0-100 each."""

    name = "simpeval-2022"
    description = "SimpEval_2022 (LENS): 3 ratings 0-100 per output"
    files = ("simpeval/simpeval_2022.csv",)
    source_url = LENS_SOURCE
    key_columns = ("original_id", "system")


class _LongRatings(Dataset):
    """A file with one row per rating (Amazon Mechanical Turk results)."""

    key_columns = ("Input.id", "Input.system")
    source_url = LENS_SOURCE
    aspects = ("simplicity", "meaning", "fluency")
    average_of = ("simplicity", "meaning", "fluency")
    _answers = {"simplicity": "Answer.simplicity", "meaning": "Answer.adequacy", "fluency": "Answer.fluency"}

    def read(self, path: Path) -> Judgements:
        required = ("WorkerId", "Input.id", "Input.original", "Input.simplified", "Input.system")
        rows = read_rows(path, required + tuple(self._answers.values()))
        keys, index = index_items(rows, self.key_columns)
        first = {}
        for row, i in zip(rows, index):
            first.setdefault(i, row)
        lines = test_set_lines(self.data_dir)
        items = [
            Item(
                key=key,
                source=first[i]["Input.original"],
                output=first[i]["Input.simplified"],
                system=first[i]["Input.system"],
                line=lines.get(first[i]["Input.original"].strip()),
            )
            for i, key in enumerate(keys)
        ]
        workers = np.array([row["WorkerId"] for row in rows])
        judgements = Judgements(items=items, raw={})
        counts = np.bincount(index, minlength=len(keys))
        for aspect, column in self._answers.items():
            ratings = Ratings(index, workers, numbers(rows, column, path))
            judgements.ratings[aspect] = ratings
            judgements.raw[aspect] = np.bincount(index, ratings.value, len(keys)) / counts
            z = ratings.standardized().value
            judgements.standardized[aspect] = np.bincount(index, z, len(keys)) / counts
        return judgements


class SimpDA2022(_LongRatings):
    """SimpDA_2022: direct assessment (0-100) of simplicity, adequacy and fluency, one row per rating."""

    name = "simpda-2022"
    description = "SimpDA_2022 (LENS): direct assessment 0-100 of simplicity, adequacy, fluency"
    files = ("simpeval/simpDA_2022.csv",)


class SimpLikert2022(_LongRatings):
    """SimpLikert_2022: Likert ratings of simplicity, adequacy and fluency, one row per rating."""

    name = "simplikert-2022"
    description = "SimpLikert_2022 (LENS): Likert ratings of simplicity, adequacy, fluency"
    files = ("simpeval/simplikert_2022.csv",)
