"""DEplain's human ratings of its manual German simplifications (Stodden, Momen & Kallmeyer, ACL 2023).

``deplain-ratings``: 384 manually aligned DEplain-web sentence pairs (language-learner, bible and
fiction texts), each rated by one of two annotators
(``metaeval/deplain/DEplain-web-sent-manual-open-rated.csv``). The pair aspects are on -2..+2
(simplicity, lexical and structural simplicity: "the simplified sentence is easier to understand
than the original") or 1..5 (meaning preservation); the others rate the simplification alone
(grammaticality -2..+2, coherence and simplicity 1..5). The APA file has no texts (their licence):
it is not a dataset here. The annotations are GPL-3.0 (the folder's ``LICENSE``); the sentences
keep their own licences (the ``license`` column).
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from simpeval.datasets.base import Dataset, Item, Judgements
from simpeval.datasets.csvio import numbers, read_rows

SOURCE = "https://github.com/rstodden/DEPlain"


class DEplainRatings(Dataset):
    """384 DEplain-web manual simplifications rated by DEplain's annotators."""

    name = "deplain-ratings"
    description = "DEplain-web manual simplifications (Stodden et al. 2023): 384 German pairs, 7 aspects"
    files = ("metaeval/deplain/DEplain-web-sent-manual-open-rated.csv",)
    source_url = SOURCE
    licence = "GPL-3.0 (the annotations; each sentence keeps its licence, the license column)"
    key_columns = ("original_id", "simplification_id")
    default_references = None
    lang = "de"
    # simpeval's aspect -> the file's column; simplicity (of the pair) first
    columns: ClassVar[dict[str, str]] = {
        "simplicity": "simplicity",
        "lexical-simplicity": "lexical_simplicity",
        "structural-simplicity": "structural_simplicity",
        "meaning": "meaning_preservation",
        "grammaticality": "grammaticality_simple",
        "coherence": "coherence_simple",
        "simplicity-of-output": "simplicity_simple",
    }
    aspects = tuple(columns)

    def read(self, path: Path) -> Judgements:
        rows = read_rows(path, ("original", "simplification", *self.key_columns, "domain", *self.columns.values()))
        items = [Item(key=(row["original_id"], row["simplification_id"]), source=row["original"],
                      output=row["simplification"], system="manual", system_type=row["domain"]) for row in rows]
        return Judgements(items, {aspect: numbers(rows, column, path) for aspect, column in self.columns.items()})
