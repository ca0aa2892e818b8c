"""Join externally computed per-item metric scores (``--scores CSV``) to a dataset's items.

The CSV has the dataset's key columns (e.g. ``sent_id,sys_name``), optionally a ``test_set``
column (rows are kept where it names the chosen reference set: ``asset``, ``turk`` or
``turkcorpus``, ``hsplit``, ``all``), and one column per metric. Column names are mapped to
simpeval's metric names: lowercase, ``_`` -> ``-``, and ``amean_x_y``/``gmean_x_y`` ->
``x-y-amean``/``x-y-gmean``, so EASSE's published ``bertscore_P`` becomes ``bertscore-p`` and
``amean_bleu_sari`` becomes ``bleu-sari-amean``.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from simpeval.errors import UsageError
from simpeval.fileio import note_read

TEST_SET_COLUMN = "test_set"
_TEST_SET_NAMES = {"turkcorpus": {"turkcorpus", "turk"}}


def metric_name(column: str) -> str:
    """simpeval's name for a published score column (see the module docstring)."""
    parts = column.strip().lower().split("_")
    if parts[0] in ("amean", "gmean") and len(parts) > 2:
        parts = [*parts[1:], parts[0]]
    return "-".join(parts)


@dataclass
class JoinedScores:
    """Per-item scores aligned with the dataset's items (nan where an item has no row)."""

    scores: dict[str, np.ndarray]
    matched: int
    warnings: list[str] = field(default_factory=list)


def _parse(value: str | None) -> float:
    """The cell as a float; nan when it is empty, non-numeric or infinite (the engine skips nan)."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return math.nan
    return number if math.isfinite(number) else math.nan


def join_scores(
    path: Path,
    keys: Sequence[tuple[str, ...]],
    key_columns: Sequence[str],
    references: str | None = None,
    only: Sequence[str] | None = None,
) -> JoinedScores:
    """Read ``path`` and align its metric columns with ``keys``.

    :param references: keep only rows whose ``test_set`` names this reference set (when the
        column exists).
    :param only: keep only these metric names (after renaming); default: every column.
    :raises UsageError: key columns missing, duplicate keys, no item matched, or a requested
        metric absent.
    """
    note_read(path)  # an output of this command must never replace it
    try:
        with path.open(encoding="utf-8-sig", newline="") as handle:
            reader = csv.DictReader(handle)
            fields = list(reader.fieldnames or [])
            rows = list(reader)
    except OSError as exc:
        raise UsageError(f"cannot read --scores {path}: {exc.strerror}") from None
    except (UnicodeDecodeError, csv.Error) as exc:
        raise UsageError(f"--scores {path} is not a UTF-8 CSV file ({exc}): save it as UTF-8 CSV") from None
    missing = [c for c in key_columns if c not in fields]
    if missing:
        raise UsageError(
            f"--scores {path} lacks key column(s) {', '.join(missing)}: it needs {', '.join(key_columns)}"
        )
    if TEST_SET_COLUMN in fields and references is not None:
        wanted = _TEST_SET_NAMES.get(references, {references})
        kept = [row for row in rows if row[TEST_SET_COLUMN] in wanted]
        if not kept:
            have = ", ".join(dict.fromkeys(row[TEST_SET_COLUMN] for row in rows)) or "none"
            raise UsageError(
                f"--scores {path} has no rows with test_set={references}: "
                f"pick --references among its test sets ({have})"
            )
        rows = kept
    columns: dict[str, str] = {}
    for column in fields:
        if column in key_columns or column == TEST_SET_COLUMN:
            continue
        name = metric_name(column)
        if name in columns:
            raise UsageError(f"--scores {path}: columns {columns[name]} and {column} both name metric {name}: "
                             "rename or drop one")
        columns[name] = column
    if only is not None:
        absent = [m for m in only if m not in columns]
        if absent:
            raise UsageError(f"--scores {path} has no column for {', '.join(absent)} (it has {', '.join(columns)})")
        columns = {m: columns[m] for m in only}
    by_key: dict[tuple[str, ...], dict[str, str]] = {}
    for row in rows:
        key = tuple(row[c] for c in key_columns)
        if key in by_key:
            raise UsageError(
                f"--scores {path} has several rows for {dict(zip(key_columns, key))}: "
                "add a test_set column or remove duplicates"
            )
        by_key[key] = row
    position = [by_key.get(tuple(k)) for k in keys]
    matched = sum(row is not None for row in position)
    if matched == 0:
        raise UsageError(
            f"--scores {path}: none of its {len(by_key)} rows matches an item of the dataset "
            f"(keys {', '.join(key_columns)})"
        )
    joined = JoinedScores({}, matched)
    if matched < len(keys):
        joined.warnings.append(f"--scores {path} matched {matched} of {len(keys)} items; the rest count as missing")
    wanted_keys = {tuple(k) for k in keys}
    stray = [key for key in by_key if key not in wanted_keys]
    if stray:
        joined.warnings.append(
            f"--scores {path} has {len(stray)} row(s) that match no item of the dataset, ignored (the first: "
            f"{dict(zip(key_columns, stray[0]))}): check their {', '.join(key_columns)}"
        )
    for name, column in columns.items():
        values = np.array([math.nan if row is None else _parse(row[column]) for row in position])
        bad = int(np.isnan(values).sum()) - (len(keys) - matched)
        if bad == matched:
            raise UsageError(f"--scores {path} column {column} has no finite number: fix it or leave it out "
                             "with --score-columns")
        if bad:
            joined.warnings.append(
                f"--scores column {column} has {bad} missing or non-numeric (or infinite) values (skipped)"
            )
        joined.scores[name] = values
    return joined
