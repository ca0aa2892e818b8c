"""Rated readability of single texts in other languages: datasets of ``kind`` ``"text"``.

A readability rating judges one text, not a simplification of a source. Each item's text is its
output *and* its source (``Item.source == Item.output``), so the engine and its cache take it
unchanged, and meta-evaluation correlates only the scores that read the output alone
(``Metric.output_only``: readability formulas, length, word ranks); a metric that compares an
output with its source or references is refused in one line.

- ``textcomplexityde``: 1,000 German Wikipedia and Leichte-Sprache sentences with mean opinion
  scores (1-7, higher = harder; about ten non-native learners each) of complexity,
  understandability and lexical difficulty (TextComplexityDE19, Naderi et al. 2019, MIT; the CSVs
  are cp1252). ``textcomplexityde-pairs``: 250 of them simplified by native speakers, each
  simplification judged "not simpler" (0), "somewhat simpler" (1) or "much simpler" (2): a
  source/output dataset.
- ``readmepp-{ar,en,fr,hi,ru}``: ReadMe++ (Naous et al., EMNLP 2024) sentences rated on CEFR 1-6
  (higher = harder), with the released train/validation/test files as declared splits;
  meta-evaluation uses the test split unless another is asked (``Dataset.default_split``). The
  workbooks are read with openpyxl; their trailing empty rows are skipped.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

import numpy as np

from simpeval.datasets.base import Dataset, Item, Judgements
from simpeval.datasets.csvio import numbers, read_rows
from simpeval.errors import UsageError

TCDE_SOURCE = "https://github.com/babaknaderi/TextComplexityDE"
TCDE_FOLDER = "readability/textcomplexityde"
READMEPP_SOURCE = "https://github.com/tareknaous/readme"
READMEPP_LANGUAGES = ("ar", "en", "fr", "hi", "ru")
SPLITS = {"train": "train", "val": "validation", "test": "test"}  # file name -> declared split


def text_item(key: tuple[str, ...], text: str, system_type: str = "") -> Item:
    """A rated text as an item: the text is the output and its own source."""
    return Item(key=key, source=text, output=text, system="", system_type=system_type)


class TextComplexityDE(Dataset):
    """1,000 German sentences with learners' complexity, understandability and lexical-difficulty scores."""

    name = "textcomplexityde"
    description = "TextComplexityDE19 (Naderi et al. 2019): 1,000 German sentences, MOS 1-7 of 3 aspects"
    files = (f"{TCDE_FOLDER}/ratings.csv",)
    source_url = TCDE_SOURCE
    licence = "MIT"
    kind = "text"
    lang = "de"
    key_columns = ("ID",)
    default_references = None
    columns: ClassVar[dict[str, str]] = {"complexity": "MOS_Complexity",
                                         "understandability": "MOS_Understandability",
                                         "lexical-difficulty": "MOS_Lexical_difficulty"}
    aspects = tuple(columns)

    def read(self, path: Path) -> Judgements:
        rows = read_rows(path, ("ID", "Sentence", *self.columns.values()), encoding="cp1252")
        items = [text_item((row["ID"],), row["Sentence"]) for row in rows]
        return Judgements(items, {aspect: numbers(rows, column, path) for aspect, column in self.columns.items()})


class TextComplexityDEPairs(Dataset):
    """250 TextComplexityDE sentences simplified by native speakers, each judged 0-2 for how much simpler."""

    name = "textcomplexityde-pairs"
    description = "TextComplexityDE19 simplifications: 250 German pairs, not/somewhat/much simpler (0-2)"
    files = (f"{TCDE_FOLDER}/parallel_corpus.csv",)
    source_url = TCDE_SOURCE
    licence = "MIT"
    lang = "de"
    key_columns = ("Sentence_Id",)
    default_references = None
    aspects = ("simpler",)
    levels: ClassVar[dict[str, float]] = {"Nicht einfacher / konnte nicht vereinfacht werden": 0.0,
                                          "Etwas einfacher": 1.0, "Deutlich einfacher": 2.0}

    def read(self, path: Path) -> Judgements:
        rows = read_rows(path, ("Sentence_Id", "Original_Sentence", "Simplification", "Rating"), encoding="cp1252")
        for i, row in enumerate(rows):
            if row["Rating"] not in self.levels:
                raise UsageError(f"{path}, row {i + 2}: Rating {row['Rating']!r} is none of "
                                 f"{', '.join(map(repr, self.levels))}: replace the file with the released one")
        items = [Item(key=(row["Sentence_Id"],), source=row["Original_Sentence"], output=row["Simplification"],
                      system="native speaker") for row in rows]
        return Judgements(items, {"simpler": np.array([self.levels[row["Rating"]] for row in rows])})


def read_workbook(path: Path, required: tuple[str, ...]) -> list[dict]:
    """The rows of the first sheet of ``path`` as dicts by header (empty rows skipped)."""
    from openpyxl import load_workbook

    try:
        book = load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # noqa: BLE001 - openpyxl raises zipfile, KeyError, its own errors
        raise UsageError(f"{path} is not a readable .xlsx workbook ({exc}): replace it with the released file") from None
    try:
        rows = book.worksheets[0].iter_rows(values_only=True)
        header = [str(h) if h is not None else "" for h in next(rows, ())]
        missing = [c for c in required if c not in header]
        if missing:
            raise UsageError(f"{path} lacks column(s) {', '.join(missing)}: is it the right file?")
        return [dict(zip(header, row)) for row in rows if any(v not in (None, "") for v in row)]
    finally:
        book.close()


class ReadMePP(Dataset):
    """ReadMe++ sentences of one language rated CEFR 1-6; subclasses set ``lang``."""

    source_url = READMEPP_SOURCE
    licence = "MIT (the repository; its README asks for research, non-commercial use)"
    kind = "text"
    key_columns = ("split", "row")
    default_references = None
    default_split = "test"
    aspects = ("cefr",)

    def read(self, *paths: Path) -> Judgements:
        items, ratings, splits = [], [], []
        for path, split in zip(paths, SPLITS.values()):
            for k, row in enumerate(read_workbook(path, ("Domain", "Sentence", "Rating")), start=2):
                text, rating = row["Sentence"], row["Rating"]
                if not isinstance(text, str) or not text.strip() or not isinstance(rating, (int, float)):
                    raise UsageError(f"{path}, row {k}: no sentence or no numeric Rating: replace the file with "
                                     "the released one")
                items.append(text_item((split, str(k)), text.strip(), str(row["Domain"] or "")))
                ratings.append(float(rating))
                splits.append(split)
        return Judgements(items, {"cefr": np.array(ratings)}, splits=splits)


def readmepp_datasets() -> list[type[ReadMePP]]:
    """One ReadMe++ dataset per language, ``readmepp-<lang>``."""
    return [type(f"ReadMePP_{lang}", (ReadMePP,), {
        "__module__": __name__, "__doc__": f"ReadMe++ sentences in {lang}, CEFR 1-6.", "name": f"readmepp-{lang}",
        "lang": lang, "description": f"ReadMe++ (Naous et al. 2024): {lang} sentences, CEFR 1-6, train/val/test",
        "files": tuple(f"readability/readmepp/{lang}/readme_{lang}_{stem}.xlsx" for stem in SPLITS)})
        for lang in READMEPP_LANGUAGES]
