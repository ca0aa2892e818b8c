"""Fixtures: the Structural Simplicity pairs from ``$SIMPEVAL_DATA_DIR`` (skip with a reason when absent)."""

from __future__ import annotations

import csv
import os
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def structural_simplicity_rows() -> list[dict[str, str]]:
    """All 1,750 rows of ``metaeval/structural_simplicity.csv`` (the file starts with a BOM)."""
    value = os.environ.get("SIMPEVAL_DATA_DIR")
    path = Path(value or "", "metaeval", "structural_simplicity.csv")
    if not value or not path.is_file():
        pytest.skip("SIMPEVAL_DATA_DIR is not set to a directory holding metaeval/structural_simplicity.csv")
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))
