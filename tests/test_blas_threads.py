"""One OpenBLAS thread only where it helps: `evaluate`, not `meta-evaluate` (its bootstrap multiplies matrices)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

PROBE = """
import os, sys
from simpeval.cli import cli
try:
    cli([sys.argv[1], "--help"], prog_name="simpeval")
except SystemExit:
    pass
import numpy
print("threads:", os.environ.get("OPENBLAS_NUM_THREADS"), file=sys.stderr)
"""


@pytest.mark.parametrize(("command", "threads", "preset"), [
    ("evaluate", "1", None), ("meta-evaluate", "None", None), ("evaluate", "3", "3"),
])
def test_only_the_evaluate_command_asks_for_one_blas_thread(command, threads, preset):
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if preset:
        env["OPENBLAS_NUM_THREADS"] = preset  # the user's own setting wins
    done = subprocess.run([sys.executable, "-c", PROBE, command], capture_output=True, text=True, env=env, check=True)
    assert done.stderr.strip().splitlines()[-1] == f"threads: {threads}"
