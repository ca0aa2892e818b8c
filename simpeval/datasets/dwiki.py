"""The rated document data of Maddela & Alva-Manchego (NAACL 2025, cardiffnlp/document-simplification).

- ``dwiki-2025``: 522 D-Wikipedia document simplifications, each with its original, references
  and per-rater Likert ratings (1-5) of simplicity (word, sentence, overall), meaning and grammar;
  the per-item score is the mean rating the file records (``agg_value``). An output rated in
  several batches has more than three ratings.
- ``cochrane-pairs``: 120 pairs of simplifications of Cochrane abstracts with the majority
  judgement of which one reads more easily (``agg_value`` 1: the second).
- the perturbation sets (:func:`perturbation_sets`): nine sets of 60 pairs, a ChatGPT
  simplification and the same text with one error put in (deletion, in- or out-of-document
  hallucination, grammar, coherence, repetition, copying the input, paraphrase, punctuation); the
  unperturbed one (the first) should be preferred.

Every record is ``{"original", "references", ..., "ratings": [{"name", "value", "agg_value"}]}``, one
JSON object a line. Items carry their own references (the reference set named as the dataset).
The repository states no licence.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import ClassVar

import numpy as np

from simpeval.datadir import require_file
from simpeval.datasets.base import Dataset, Item, Judgements, Ratings
from simpeval.datasets.pairwise import Pairs, PairwiseDataset, pair_judgements
from simpeval.errors import UsageError

SOURCE = "https://github.com/cardiffnlp/document-simplification/tree/main/meta_evaluation/eval_datasets"
LICENCE = "none stated by the repository"
FOLDER = "documents/dwiki-ratings"
PERTURBATIONS = {  # the name simpeval reports -> the file's stem
    "deletion": "peturb_deletion",
    "hallucination-in-document": "peturb_indomain",
    "hallucination-out-of-document": "peturb_outdomain",
    "grammar": "peturb_fluency",
    "coherence": "peturb_coherence_v2",
    "repetition": "peturb_repetition",
    "copy": "peturb_copy_v2",
    "paraphrasing": "peturb_paraphrasing",
    "punctuation": "peturb_punctuation",
}
PERTURBATION_FILES = tuple(f"{FOLDER}/{stem}.jsonl" for stem in PERTURBATIONS.values())


def read_records(path: Path, required: tuple[str, ...]) -> list[dict]:
    """The JSON objects of ``path``, one a line, each with the ``required`` fields and a string list of references."""
    records = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            where = f"{path} line {number}"
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise UsageError(f"{where} is not JSON ({exc.msg}): replace the file with the released one") from None
            wanted = (*required, "references", "ratings")
            lacking = [f for f in wanted if not isinstance(record, dict) or f not in record]
            if lacking:
                raise UsageError(f"{where} lacks {', '.join(lacking)}: replace the file with the released one")
            references = record["references"]
            if not references or not all(isinstance(r, str) for r in references):
                raise UsageError(f"{where} has no references: replace the file with the released one")
            records.append(record)
    return records


def _rating(record: dict, name: str, where: str) -> dict:
    for rating in record["ratings"]:
        if rating.get("name") == name:
            return rating
    raise UsageError(f'{where} has no "{name}" rating: replace the file with the released one')


class _OwnReferences(Dataset):
    """A dataset whose items carry their own references (the set is named as the dataset: ``default_references``)."""

    level = "document"
    source_url = SOURCE
    licence = LICENCE

    def __init__(self, data_dir: Path) -> None:
        self._references: list[list[str]] = []
        super().__init__(data_dir)

    def has_references(self, name: str | None = None) -> bool:
        return (name or self.name) == self.name

    def references(self, name: str | None = None) -> list[list[str]]:
        if (name or self.name) != self.name:
            raise UsageError(f'dataset "{self.name}" has only its own references: drop --references {name}')
        return [list(refs) for refs in self._references]


class DWiki2025(_OwnReferences):
    """522 D-Wikipedia document simplifications rated 1-5 for five aspects (Maddela & Alva-Manchego 2025)."""

    name = "dwiki-2025"
    description = "D-Wikipedia documents (Maddela & Alva-Manchego 2025): 522 outputs, Likert 1-5, 5 aspects"
    files = (f"{FOLDER}/dwiki_final.jsonl",)
    key_columns = ("index",)
    default_references = "dwiki-2025"
    # simpeval's aspect -> the file's rating name; "simplicity" is the overall judgement
    rating_names: ClassVar[dict[str, str]] = {
        "simplicity": "simplicity-overall",
        "simplicity-word": "simplicity-word",
        "simplicity-sent": "simplicity-sent",
        "meaning": "meaning",
        "grammar": "grammar",
    }
    aspects = tuple(rating_names)

    def read(self, path: Path) -> Judgements:
        records = read_records(path, ("original", "simplification"))
        items = [Item(key=(str(i),), source=r["original"], output=r["simplification"], system="")
                 for i, r in enumerate(records)]
        self._references = [r["references"] for r in records]
        judgements = Judgements(items=items, raw={})
        for aspect, rating_name in self.rating_names.items():
            found = [_rating(r, rating_name, f"{path} line {i + 1}") for i, r in enumerate(records)]
            judgements.raw[aspect] = np.array([float(f["agg_value"]) for f in found])
            counts = [len(f["value"]) for f in found]
            judgements.ratings[aspect] = Ratings(
                item=np.repeat(np.arange(len(found)), counts),
                rater=np.array([f"rating_{k + 1}" for n in counts for k in range(n)]),
                value=np.array([float(v) for f in found for v in f["value"]]),
            )
        return judgements


class _ReadPairs(_OwnReferences, PairwiseDataset):
    """Pairs of one JSON-lines file: ``simplification1``/``2``, ``system1``/``2`` and a binary rating."""

    rating_name: ClassVar[str]

    def read_pairs(self, path: Path) -> tuple[Judgements, Pairs]:
        records = read_records(path, ("original", "simplification1", "simplification2", "system1", "system2"))
        outputs, preferred = [], []
        for k, record in enumerate(records):
            outputs.append(tuple(Item(key=(str(k), str(side)), source=record["original"],
                                      output=record[f"simplification{side}"], system=record[f"system{side}"])
                                 for side in (1, 2)))
            rating = _rating(record, self.rating_name, f"{path} line {k + 1}")
            if rating.get("agg_value") not in (0, 1):
                raise UsageError(f"{path} line {k + 1}: the {self.rating_name} judgement is not 0 or 1: "
                                 "replace the file with the released one")
            preferred.append(rating["agg_value"] == 1)
        self._references = [r["references"] for r in records for _ in (1, 2)]
        return pair_judgements(outputs, preferred, self.aspects[0])


class CochranePairs(_ReadPairs):
    """120 pairs of Cochrane plain-language simplifications, the one that reads more easily marked."""

    name = "cochrane-pairs"
    description = "Cochrane pairs (Maddela & Alva-Manchego 2025): 120 pairwise readability judgements"
    files = (f"{FOLDER}/cochrance_lj.jsonl",)
    aspects = ("readability",)
    default_references = "cochrane-pairs"
    rating_name = "readability"


def perturbation_set(name: str, data_dir: Path) -> PairwiseDataset:
    """The perturbation set ``name`` (a key of :data:`PERTURBATIONS`): the unperturbed output first."""
    stem = PERTURBATIONS[name]
    rating = stem.removeprefix("peturb_").removesuffix("_v2")
    cls = type(f"Perturbation_{stem}", (_ReadPairs,), {
        "name": name, "files": (f"{FOLDER}/{stem}.jsonl",), "aspects": ("unperturbed",), "rating_name": rating,
        "default_references": name,
        "description": f"perturbation set {name}"})
    dataset = cls(data_dir)
    if dataset.pairs.second_preferred.any():
        raise UsageError(f"{dataset.files[0]}: some pairs prefer the perturbed output: replace the file with the "
                         "released one")
    return dataset


def perturbation_sets(data_dir: Path) -> list[PairwiseDataset]:
    """The nine perturbation sets, in :data:`PERTURBATIONS` order."""
    for path in PERTURBATION_FILES:
        require_file(data_dir, path, SOURCE)
    return [perturbation_set(name, data_dir) for name in PERTURBATIONS]
