"""The authors' side of a parity benchmark: run in their own environment, or read back from the results file.

The parity scripts compare simpeval with an authors' package that cannot live in simpeval's
environment (``lens_authors_parity.py``, ``meaningbert_parity.py``). Both either run the authors'
script in another Python and copy the checkpoint it built into the plugin's test data, or, with
``--rescore``, keep the recorded authors' values and score only simpeval's side again (when
simpeval's output changed, e.g. its signatures, and no such environment is at hand).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path


def parse(description: str, environment: str, result: Path) -> argparse.Namespace:
    """``--authors-python`` (the whole comparison) or ``--rescore`` (simpeval's side only), exactly one."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--authors-python", help=f"python of an environment with {environment}")
    parser.add_argument("--rescore", action="store_true",
                        help="simpeval's side only: score the committed checkpoint again, the authors' side as "
                             f"{result.relative_to(result.parents[2])} records it (no other environment needed)")
    args = parser.parse_args()
    if args.rescore == bool(args.authors_python):
        parser.error("pass --authors-python (the whole comparison) or --rescore (simpeval's side only)")
    return args


def authors_scores(args: argparse.Namespace, *, script: Path, result: Path, recorded_key: str,
                   install: Callable[[Path], None]) -> tuple[dict, str]:
    """The authors' scores and the command that reproduces the page.

    Without ``--rescore`` this runs ``script`` in ``--authors-python`` (it writes ``package_scores.json``
    and its checkpoint into a temporary folder) and hands that folder to ``install``, which copies the
    checkpoint into the test data simpeval's side then scores.
    """
    command = f"python benchmarks/{_caller(result)} --authors-python /tmp/lensenv/bin/python"
    if args.rescore:
        recorded = json.loads(result.read_text(encoding="utf-8"))
        command = recorded["command"].split("; ")[0] + f"; simpeval's side: python benchmarks/{_caller(result)} --rescore"
        return recorded[recorded_key], command
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        subprocess.run([args.authors_python, str(script), str(out)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        scores = json.loads((out / "package_scores.json").read_text(encoding="utf-8"))
        install(out)
    return scores, command


def _caller(result: Path) -> str:
    """``benchmarks/results/NAME.json`` is written by ``benchmarks/NAME.py``."""
    return f"{result.stem}.py"
