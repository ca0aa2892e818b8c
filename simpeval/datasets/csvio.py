"""Reading the datasets' CSV files: rows as dicts, a byte-order mark tolerated, numbers checked."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import numpy as np

from simpeval.errors import UsageError
from simpeval.fileio import note_read


def read_rows(path: Path, required: tuple[str, ...], encoding: str = "utf-8-sig") -> list[dict[str, str]]:
    """All rows of ``path`` (UTF-8, optional BOM, unless the file is released in another ``encoding``:
    TextComplexityDE's cp1252); :class:`UsageError` if a ``required`` column is missing."""
    note_read(path)  # an output of this command must never replace it
    try:
        with path.open(encoding=encoding, newline="") as handle:
            reader = csv.DictReader(handle)
            missing = [c for c in required if c not in (reader.fieldnames or [])]
            if missing:
                raise UsageError(f"{path} lacks column(s) {', '.join(missing)}: is it the right file?")
            return list(reader)
    except OSError as exc:
        raise UsageError(f"cannot read data file {path}: {exc.strerror}: fix its permissions or re-fetch it") from None
    except (UnicodeDecodeError, csv.Error) as exc:
        name = "UTF-8" if encoding == "utf-8-sig" else encoding
        raise UsageError(f"{path} is not a {name} CSV file ({exc}): replace it with the released file") from None


def numbers(rows: list[dict[str, str]], column: str, path: Path) -> np.ndarray:
    """Column ``column`` as floats; :class:`UsageError` naming the first bad row."""
    values = np.empty(len(rows))
    for i, row in enumerate(rows):
        try:
            values[i] = float(row[column])
        except (TypeError, ValueError):
            raise UsageError(f"{path}, row {i + 2}: {column}={row[column]!r} is not a number") from None
        if not math.isfinite(values[i]):
            raise UsageError(f"{path}, row {i + 2}: {column} is {row[column]}: remove the row or fill it in")
    return values


def index_items(rows: list[dict[str, str]], columns: tuple[str, ...]) -> tuple[list[tuple[str, ...]], np.ndarray]:
    """Group rows by their ``columns`` values: the distinct keys in first-seen order, and each row's key index."""
    position: dict[tuple[str, ...], int] = {}
    index = np.empty(len(rows), dtype=int)
    for i, row in enumerate(rows):
        key = tuple(row[c] for c in columns)
        index[i] = position.setdefault(key, len(position))
    return list(position), index
