"""Shared fixtures: the data directory (absent: skip with a reason, or fail under CI=true) and an
isolated score cache."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """``$SIMPEVAL_DATA_DIR`` (CI sets it to ../shared/data); tests that need it skip without it,
    and fail under ``CI=true``."""
    from simpeval.testing import shared_data_dir

    return shared_data_dir("metaeval")


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path_factory, monkeypatch):
    """Every test gets its own empty score cache, so no test reads another's scores."""
    monkeypatch.setenv("SIMPEVAL_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
