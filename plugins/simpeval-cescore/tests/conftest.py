"""Fixtures: the Structural Simplicity pairs from ``$SIMPEVAL_DATA_DIR`` (absent: skip with a reason,
or fail under CI=true)."""

from __future__ import annotations

import csv

import pytest

from simpeval.testing import shared_data_dir


@pytest.fixture(scope="session")
def structural_simplicity_rows() -> list[dict[str, str]]:
    """All 1,750 rows of ``metaeval/structural_simplicity.csv`` (the file starts with a BOM)."""
    path = shared_data_dir("metaeval/structural_simplicity.csv") / "metaeval" / "structural_simplicity.csv"
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))
