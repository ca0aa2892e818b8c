"""Run ``simpeval leaderboard`` over every installed metric whose weights are available offline
(learned and neural ones included) and write ``docs/leaderboard.md`` and ``docs/leaderboard.html``:
the pages are the command's own output (``--record-run`` ends them with the run's time, machine,
load, and what was computed versus read from the score cache); this script chooses the options
and adds the machine and the load average before and after.

The score cache makes the run resumable and cheap to repeat: ``--cache-dir DIR`` keeps it (the
default is a fresh temporary directory, a cold run). A metric whose weights or code changed gets
new cache keys, so with a kept cache only its scorings and the cells are recomputed.

Usage: ``SIMPEVAL_DATA_DIR=../shared/data python benchmarks/leaderboard.py [--jobs N] [--cache-dir DIR]``
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from machine import load_average, machine_lines  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--docs", type=Path, default=ROOT / "docs")
    parser.add_argument("--cache-dir", type=Path, default=None,
                        help="score cache to read and extend (default: a fresh temporary one: a cold run)")
    args = parser.parse_args()
    load = load_average()
    with tempfile.TemporaryDirectory() as fresh:
        cache = args.cache_dir or Path(fresh)
        subprocess.run([sys.executable, "-m", "simpeval", "leaderboard", "--jobs", str(args.jobs), "--progress",
                        "--cache-dir", str(cache), "--record-run",
                        "-o", str(args.docs / "leaderboard.md"), "--html", str(args.docs / "leaderboard.html")],
                       check=True)
    kind = "a kept score cache (`--cache-dir`)" if args.cache_dir else "a fresh score cache (a cold run)"
    page = args.docs / "leaderboard.md"
    page.write_text(page.read_text(encoding="utf-8")
                    + f"\nLoad average when the run started: {load:.1f}, when it ended: {load_average():.1f} "
                      f"(a shared machine); run with {kind}. `python benchmarks/leaderboard.py` wrote this page.\n\n"
                    + "\n".join(machine_lines()) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
