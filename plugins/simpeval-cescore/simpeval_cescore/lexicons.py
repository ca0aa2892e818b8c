"""The two word lists CEScore needs, read from the authors' installed ``CEScore`` package.

- Brysbaert et al. (2014) concreteness norms: ``Percent_known``, the share of raters
  who knew a word (ASF's familiarity factor; its word list also decides which words
  ASF counts at all).
- SUBTLEX-US (Brysbaert and New 2009, Van Heuven et al. 2014): the Zipf frequency
  of a word (ASF's frequency factor and MScore's information weight).

The files ship inside the ``CEScore`` distribution (MIT); they are located through
its import spec without importing it (which would import pandas and NLTK), and are
never copied into this repository. They are parsed with :mod:`csv` rather than
pandas, reproducing the two things pandas does to them in the authors' code:
the words ``nan``, ``null`` (and pandas' other default missing-value markers) become
missing and so never match, and a word listed twice keeps its last value.
"""

from __future__ import annotations

import csv
import importlib.util
from functools import lru_cache
from pathlib import Path

from simpeval import UsageError

DISTRIBUTION = "CEScore"
BRYSBAERT_FILE = "concrete_words.tsv"
SUBTLEX_FILE = "SUBTLEX_US_frequency_list.csv"

# pandas.read_csv's default ``na_values``: the authors' loader turns these words into NaN.
PANDAS_MISSING_MARKERS = frozenset({
    "", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND",
    "1.#QNAN", "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null",
})


def data_path(filename: str) -> Path:
    """The path of ``filename`` inside the installed ``CEScore`` package."""
    spec = importlib.util.find_spec(DISTRIBUTION)
    if spec is None or not spec.submodule_search_locations:
        raise UsageError(
            "the CEScore lexicons are missing: pip install CEScore==0.0.1 (it ships them)"
        )
    path = Path(next(iter(spec.submodule_search_locations))) / filename
    if not path.is_file():
        raise UsageError(f"{path} is missing: reinstall CEScore==0.0.1")
    return path


def _read_column(
    filename: str,
    delimiter: str,
    value_column: str,
    keep: tuple[str, str] | None = None,
) -> dict[str, float]:
    """``{Word: float(value_column)}`` for the rows whose column ``keep[0]`` holds ``keep[1]`` (all rows if None).

    Rows are read as lists (``csv.reader``), not dicts: over a hundred thousand
    rows that is most of the cost of a short CEScore process.
    """
    with data_path(filename).open(encoding="utf-8-sig", newline="") as handle:
        rows = csv.reader(handle, delimiter=delimiter)
        header = next(rows)
        word, value = header.index("Word"), header.index(value_column)
        column, wanted = (header.index(keep[0]), keep[1]) if keep else (word, None)
        return {
            row[word]: float(row[value])
            for row in rows
            if row[word] not in PANDAS_MISSING_MARKERS and (wanted is None or row[column] == wanted)
        }


@lru_cache(maxsize=1)
def percent_known() -> dict[str, float]:
    """Brysbaert's ``Percent_known`` (0-1) for every single word (bigram rows dropped)."""
    return _read_column(BRYSBAERT_FILE, "\t", "Percent_known", keep=("Bigram", "0"))


@lru_cache(maxsize=1)
def zipf() -> dict[str, float]:
    """SUBTLEX-US Zipf frequency (about 1-7.3) of every listed word."""
    return _read_column(SUBTLEX_FILE, ";", "Zipf-value")
