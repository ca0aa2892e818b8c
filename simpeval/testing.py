"""Test helpers shared by the core's and every plugin's test suite (conftest files import them).

The data the fidelity tests check against lives outside the repository, in
``$SIMPEVAL_DATA_DIR``. On a developer's machine a missing directory skips those tests with a
reason; under CI (``CI=true``, as GitHub Actions, GitLab and most runners set it) it fails the
run, so a green CI can never mean "checked nothing".
"""

from __future__ import annotations

import os
from pathlib import Path

from simpeval.datadir import DATA_DIR_ENV


def in_ci() -> bool:
    """True when ``$CI`` is set to a true value (``true``, ``1``, ``yes``)."""
    return os.environ.get("CI", "").strip().lower() in {"true", "1", "yes"}


def shared_data_dir(required: str = "metaeval") -> Path:
    """``$SIMPEVAL_DATA_DIR`` when ``required`` (a path inside it) exists there.

    Otherwise skip the calling test, or fail it under CI.
    """
    import pytest

    value = os.environ.get(DATA_DIR_ENV)
    if value and Path(value, required).exists():
        return Path(value)
    reason = f"{DATA_DIR_ENV} is not set to a directory holding {required} (laid out like ../shared/data)"
    if in_ci():
        pytest.fail(f"CI=true but {reason}: CI must not pass without its data", pytrace=False)
    pytest.skip(reason)
