"""The SimpEval and SimpDA/SimpLikert datasets released with LENS (Maddela et al. 2023).

- ``simpeval-past``: 24 systems x 100 ASSET test sentences, 5 ratings (0-100) each;
- ``simpeval-2022``: columns ``original_id, original, generation, system, sentence_type,
  rating_1..3, rating_1..3_zscore`` (the LENS repository's ``data/simpeval_2022.csv``);
- ``simpda-2022`` and ``simplikert-2022``: one row per rating, ``WorkerId, Input.id,
  Input.original, Input.simplified, Input.system, Answer.adequacy, Answer.fluency,
  Answer.simplicity`` (``data/simpDA_2022.csv``, ``data/simplikert_2022.csv``).

- ``wiki-da``: Simplicity-DA (Alva-Manchego et al. 2021) without the items whose original is one
  of SimpEval_past's 100 originals: the 434 items LENS and Kwak et al. (2024) test on.

Per-item scores are means of the per-rater z-scores (computed here per worker for SimpDA and
SimpLikert), raw means with ``--raw``. Adequacy is reported as the ``meaning`` aspect.
An item whose original is a line of ``asset.test.orig`` gets that line's references;
SimpEval_2022's come from the LENS authors' ``references/simpeval-2022/test.{src,dst}``.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from simpeval.datadir import require_file
from simpeval.datasets.base import Dataset, Item, Judgements, Ratings
from simpeval.datasets.csvio import index_items, numbers, read_rows
from simpeval.datasets.metaeval import SimplicityDA
from simpeval.datasets.references import test_set_lines
from simpeval.errors import UsageError

LENS_SOURCE = "https://github.com/Yao-Dou/LENS/tree/master/data"
LENS_META_SOURCE = "https://github.com/Yao-Dou/LENS/tree/master/experiments/meta_evaluation/data"
SIMPEVAL_2022_REFERENCES = "simpeval-2022"
__all__ = [
    "SIMPEVAL_2022_REFERENCES", "SimpDA2022", "SimpEval2022", "SimpEvalPast", "SimpLikert2022", "WikiDA",
    "read_lens_references",
]



def _rating_columns(fieldnames: list[str], raw: str, standardized: str) -> tuple[list[str], list[str]]:
    """The raw ``rating_N`` columns and their z-score twins, in N order."""
    raws = sorted((f for f in fieldnames if re.fullmatch(raw, f)), key=lambda f: int(re.sub(r"\D", "", f)))
    return raws, [re.sub(r"^(rating_\d+)$", standardized, f) for f in raws]


class _WideRatings(Dataset):
    """A file with one row per output and the ratings of several raters side by side."""

    output_column = "generation"
    z_suffix = r"\1_zscore"
    default_references = "asset"
    output_artifacts = True

    def read(self, path: Path) -> Judgements:
        rows = read_rows(path, ("original_id", "original", self.output_column, "system"))
        if not rows:  # a header alone: the dataset reports "no rated outputs" (np.column_stack needs a column)
            raise UsageError(f"{path}: no rated outputs in dataset \"{self.name}\": replace the file(s) with the "
                             "released ones")
        raw_cols, z_cols = _rating_columns(list(rows[0]) if rows else [], r"rating_\d+", self.z_suffix)
        lines = test_set_lines(self.data_dir)
        items = [
            Item(
                key=(row["original_id"], row["system"]),
                source=row["original"],
                output=row[self.output_column],
                system=row["system"],
                line=lines.get(row["original"].strip()),
                sentence_type=row.get("sentence_type", ""),
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


def read_lens_references(data_dir: Path, folder: str) -> dict[str, list[str]]:
    """Lower-cased original -> references, from ``{folder}/test.src`` and ``test.dst`` read as LENS does.

    Line i of ``test.dst`` holds the references of line i of ``test.src``, tab-separated; an
    original that appears on several lines keeps the last line's references (LENS's dict).
    """
    paths = [require_file(data_dir, f"{folder}/test.{ext}", LENS_META_SOURCE) for ext in ("src", "dst")]
    sources, targets = (p.read_text(encoding="utf-8").splitlines() for p in paths)
    if len(sources) != len(targets):
        raise UsageError(f"{paths[0]} has {len(sources)} lines but {paths[1]} {len(targets)}: re-fetch both")
    return {
        source.strip().lower(): [ref.strip() for ref in target.strip().split("\t")]
        for source, target in zip(sources, targets)
    }


class SimpEval2022(_WideRatings):
    """SimpEval_2022: outputs of recent systems on 2022 Wikipedia sentences, 3 ratings 0-100 each.

    Each item carries its ``sentence_type`` (``--split sentence-type``); its references are the
    LENS authors' (``--references`` left out), one per original, matched on the lower-cased original.
    """

    name = "simpeval-2022"
    description = "SimpEval_2022 (LENS): 3 ratings 0-100 per output; sentence types; LENS's references"
    files = ("simpeval/simpeval_2022.csv",)
    source_url = LENS_SOURCE
    key_columns = ("original_id", "system")
    default_references = SIMPEVAL_2022_REFERENCES

    def has_references(self, name: str | None = None) -> bool:
        if (name or self.default_references) == SIMPEVAL_2022_REFERENCES:
            return True
        return super().has_references(name)

    def references(self, name: str | None = None) -> list[list[str]]:
        if (name or self.default_references) != SIMPEVAL_2022_REFERENCES:
            return super().references(name)
        table = read_lens_references(self.data_dir, f"references/{SIMPEVAL_2022_REFERENCES}")
        missing = [item.source for item in self.items if item.source.strip().lower() not in table]
        if missing:
            raise UsageError(
                f"references/{SIMPEVAL_2022_REFERENCES}/test.src lacks {len(missing)} originals of "
                f'"{self.name}", e.g. {missing[0][:60]!r}: replace it with the LENS authors\' file'
            )
        return [list(table[item.source.strip().lower()]) for item in self.items]


class WikiDA(SimplicityDA):
    """WIKI-DA: Simplicity-DA without the outputs of SimpEval_past's 100 originals (434 items left).

    LENS (Maddela et al. 2023) and Kwak et al. (2024) test on it, because LENS trained on those
    originals. Originals are compared lower-cased, as LENS's ``mevaluate_wikida.py`` does.
    """

    name = "wiki-da"
    description = "WIKI-DA (LENS): Simplicity-DA minus SimpEval_past's originals, 434 outputs"
    files = (*SimplicityDA.files, *SimpEvalPast.files)
    licence = ""  # Simplicity-DA's CC BY-NC-SA 4.0 with SimpEval_past's terms (stated at the LENS repository)

    def read(self, scores_path: Path, ratings_path: Path, past_path: Path) -> Judgements:
        full = super().read(scores_path, ratings_path)
        seen = {row["original"].strip().lower() for row in read_rows(past_path, ("original",))}
        keep = np.array([item.source.strip().lower() not in seen for item in full.items], dtype=bool)
        return _subset(full, keep)


def _subset(judgements: Judgements, keep: np.ndarray) -> Judgements:
    """The items where ``keep`` is true, with their scores and individual ratings."""
    new_index = np.cumsum(keep) - 1
    ratings = {}
    for aspect, r in judgements.ratings.items():
        rows = keep[r.item]
        ratings[aspect] = Ratings(new_index[r.item[rows]], r.rater[rows], r.value[rows])
    return Judgements(
        items=[item for item, k in zip(judgements.items, keep) if k],
        raw={a: v[keep] for a, v in judgements.raw.items()},
        standardized={a: v[keep] for a, v in judgements.standardized.items()},
        ratings=ratings,
    )


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
