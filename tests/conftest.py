"""Shared fixtures: the data directory (skip with a reason when absent) and an isolated score cache."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """``$SIMPEVAL_DATA_DIR`` (CI sets it to ../shared/data); tests that need it skip without it."""
    value = os.environ.get("SIMPEVAL_DATA_DIR")
    if not value or not Path(value, "metaeval").is_dir():
        pytest.skip("SIMPEVAL_DATA_DIR is not set to a directory laid out like ../shared/data")
    return Path(value)


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path_factory, monkeypatch):
    """Every test gets its own empty score cache, so no test reads another's scores."""
    monkeypatch.setenv("SIMPEVAL_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
