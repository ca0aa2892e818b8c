"""A package as it was at an earlier git revision, for benchmarks that time "before" beside "after".

The old code is exported (``git archive``) to a temporary directory that the
benchmark puts first on ``PYTHONPATH`` of a fresh process, so the installed
distribution's entry point imports the old modules.
"""

from __future__ import annotations

import io
import subprocess
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def export_package(revision: str, package: str, directory: Path) -> Path:
    """Export ``package`` (a path in the repository, e.g. ``plugins/x/x``) at ``revision``; returns its parent."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision, package],
                             check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(directory, filter="data")
    return (directory / package).parent
