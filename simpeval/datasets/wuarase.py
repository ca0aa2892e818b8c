"""``wu-arase-2025``: Likert ratings of LLM simplifications (Wu & Arase, ACM TIST 2025).

Why: Wu & Arase find that automatic metrics cannot tell high-quality LLM outputs apart; their
ratings let ``meta-evaluate`` check that on simpeval's metrics. The files are not in the shared
data: a user who has them puts ``likert_{gpt,qwen,llama,t5}.json`` (from
WuXuanxin/human-eval-llm-simplification, ``annotation/likert/exclude_newsela/``) under
``<data dir>/llm-era/wu-arase-2025/``; the files present are read (at least one).

Each file is a JSON list of records ``{"id", "source_file": "turk"|"asset"|"simpa", "source_id",
"model", "source", "simple", "label_annotations": {"annotator_1": {"fluency", "meaning preservation",
"simplicity"}, ...}}`` with ratings 1-3. ``source_id`` is the 1-based line of the TurkCorpus/ASSET
test set for ``turk`` and ``asset`` items, whose references then apply (TurkCorpus's for ``turk``,
ASSET's for ``asset``; ``--references`` picks one set for both); the record's source must be that
line's original (compared with whitespace collapsed), else the item gets no references and the
mismatch is reported. SimPA items have no references: reference-based metrics leave them out
(their scores are undefined there, and the correlations say on how many items they were computed).

The ratings are heavily tied (most items get 3 of 3), so the dataset's default correlation is the
tie-aware ``acc23-opt`` (Deutsch et al. 2023).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import ClassVar

import numpy as np

from simpeval.datadir import read_data_text
from simpeval.datasets.base import Dataset, Item, Judgements, Ratings
from simpeval.datasets.references import TEST_SET_SIZE, references_for_lines
from simpeval.errors import UsageError

SOURCE = "https://github.com/WuXuanxin/human-eval-llm-simplification/tree/main/annotation/likert/exclude_newsela"
FOLDER = "llm-era/wu-arase-2025"
MODELS = ("gpt", "qwen", "llama", "t5")
ORIGINALS = "references/asset/asset.test.orig"
OWN = "wu-arase-2025"  # the reference set of each item's own test set
SETS = {"turk": "turkcorpus", "asset": "asset"}
ANSWERS = {"simplicity": "simplicity", "meaning": "meaning preservation", "fluency": "fluency"}


def _collapsed(text: str) -> str:
    return " ".join(text.split())


class WuArase2025(Dataset):
    """LLM and T5 simplifications of TurkCorpus, ASSET and SimPA sentences, rated 1-3 by three annotators."""

    name = "wu-arase-2025"
    description = "Wu & Arase (2025): LLM simplifications rated 1-3 for simplicity, meaning, fluency (not shipped)"
    files = tuple(f"{FOLDER}/likert_{model}.json" for model in MODELS)
    source_url = SOURCE
    licence = ""
    key_columns = ("id", "model")
    aspects = tuple(ANSWERS)
    average_of = tuple(ANSWERS)
    default_references = OWN
    default_correlation: ClassVar[str] = "acc23-opt"

    def __init__(self, data_dir: Path) -> None:
        present = tuple(f for f in type(self).files if (data_dir / f).is_file())
        if present:
            self.files = present  # the files a user has; none: the base class names every missing one
        self.warnings: list[str] = []
        super().__init__(data_dir)

    def read(self, *paths: Path) -> Judgements:
        records = [(path, i, record) for path in paths for i, record in enumerate(_records(path))]
        originals = self._originals() if any(r["source_file"] in SETS for _, _, r in records) else []
        items, values, raters, owners, mismatched = [], {a: [] for a in ANSWERS}, [], [], []
        for k, (path, i, record) in enumerate(records):
            line = None
            if record["source_file"] in SETS:
                line = int(record["source_id"]) - 1
                if not 0 <= line < len(originals) or _collapsed(originals[line]) != _collapsed(record["source"]):
                    mismatched.append(f"{path.name} record {i + 1} ({record['source_file']} {record['source_id']})")
                    line = None
            items.append(Item(key=(str(record["id"]), str(record["model"])), source=record["source"],
                              output=record["simple"], system=str(record["model"]),
                              system_type=record["source_file"], line=line))
            for annotator, answers in record["label_annotations"].items():
                owners.append(k)
                raters.append(annotator)
                for aspect, answer in ANSWERS.items():
                    values[aspect].append(_rating(answers, answer, path, i))
        if mismatched:
            self.warnings.append(f"{len(mismatched)} item(s) whose source is not the test-set line their source_id "
                                 f"names get no references: {', '.join(mismatched[:3])}"
                                 + (f" and {len(mismatched) - 3} more" if len(mismatched) > 3 else ""))
        owner = np.array(owners, dtype=int)
        counts = np.bincount(owner, minlength=len(items))
        judgements = Judgements(items=items, raw={})
        for aspect in ANSWERS:
            ratings = Ratings(owner, np.array(raters), np.array(values[aspect], dtype=float))
            judgements.ratings[aspect] = ratings
            judgements.raw[aspect] = np.bincount(owner, ratings.value, len(items)) / np.maximum(counts, 1)
        return judgements

    def _originals(self) -> list[str]:
        path = self.data_dir / ORIGINALS
        if not path.is_file():
            raise UsageError(f"missing data file {path}, which matches {self.name}'s turk/asset items to their "
                             "references: put ASSET's test set there (`simpeval data`)")
        lines = read_data_text(path).splitlines()
        return lines[:TEST_SET_SIZE]

    def has_references(self, name: str | None = None) -> bool:
        """Whether some items have references (SimPA's never do)."""
        return any(item.line is not None for item in self.items)

    def references(self, name: str | None = None) -> list[list[str] | None]:  # type: ignore[override]
        """Per item: its references, or None for an item without (SimPA, a mismatched source)."""
        name = name or OWN
        if name not in (OWN, "asset", "turkcorpus", "all"):
            raise UsageError(f'{self.name} takes --references asset, turkcorpus or all (default: each item\'s own '
                             f'test set), not "{name}"')
        out: list[list[str] | None] = [None] * len(self.items)
        for set_name in ("asset", "turkcorpus", "all"):
            chosen = [i for i, item in enumerate(self.items) if item.line is not None
                      and (name == set_name or (name == OWN and SETS.get(item.system_type) == set_name))]
            if chosen:
                refs = references_for_lines(self.data_dir, set_name, [self.items[i].line for i in chosen])
                for i, r in zip(chosen, refs):
                    out[i] = r
        return out


def _records(path: Path) -> list[dict]:
    try:
        records = json.loads(read_data_text(path))
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path} is not JSON ({exc.msg}): replace it with the released file") from None
    if not isinstance(records, list):
        raise UsageError(f"{path} is not a JSON list of records: replace it with the released file")
    required = ("id", "source_file", "source_id", "model", "source", "simple", "label_annotations")
    for i, record in enumerate(records):
        lacking = [f for f in required if not isinstance(record, dict) or f not in record]
        if lacking:
            raise UsageError(f"{path} record {i + 1} lacks {', '.join(lacking)}: replace it with the released file")
        if record["source_file"] not in (*SETS, "simpa"):
            raise UsageError(f"{path} record {i + 1} has source_file {record['source_file']!r}: expected turk, asset "
                             "or simpa")
        if not isinstance(record["label_annotations"], dict) or not record["label_annotations"]:
            raise UsageError(f"{path} record {i + 1} has no label_annotations: replace it with the released file")
    return records


def _rating(answers: dict, answer: str, path: Path, index: int) -> float:
    value = answers.get(answer) if isinstance(answers, dict) else None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise UsageError(f'{path} record {index + 1} has no numeric "{answer}" rating: replace it with the '
                         "released file")
    return float(value)
