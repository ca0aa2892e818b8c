"""Time ``simpeval evaluate -t asset_test --sys-dir DIR --all-pairs -m bleu,sari,fkgl`` on the published
system outputs and write ``docs/benchmarks/all-pairs.md``: the command line, wall and CPU time of the whole
process (cold: no score cache), the machine and load, and the command's ranking table itself.

DIR holds the top-level (detokenised) files of ``system_outputs/turkcorpus/test``; their originals are
ASSET's test originals, so the same outputs serve ``asset_test``.

Usage: ``SIMPEVAL_DATA_DIR=../shared/data python benchmarks/all_pairs.py [--runs 3]``
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import load_average, machine_lines  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--write", type=Path, default=ROOT / "docs/benchmarks/all-pairs.md")
    args = parser.parse_args()
    data = Path(os.environ.get("SIMPEVAL_DATA_DIR", ROOT.parent / "shared/data"))
    published = data / "system_outputs/turkcorpus/test"
    with tempfile.TemporaryDirectory() as tmp:
        systems = Path(tmp) / "systems"
        systems.mkdir()
        for path in sorted(published.iterdir()):
            if path.is_file():
                (systems / path.name).symlink_to(path)
        command = ["simpeval", "evaluate", "-t", "asset_test", "--sys-dir", "DIR", "--all-pairs",
                   "-m", "bleu,sari,fkgl"]
        walls, cpus, loads, table = [], [], [], ""
        for _ in range(args.runs):
            loads.append(load_average())
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "simpeval", *command[1:5], str(systems), *command[6:],
                                   "--no-cache"], check=True, capture_output=True, text=True)
            walls.append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
            table = done.stdout
        n = len([p for p in systems.iterdir()])
    ranking = table.split("\n\n")[0]
    lines = ["# All pairs of the published systems", "",
             f"`{' '.join(command)}` on the {n} detokenised published outputs (every pair: "
             f"{n * (n - 1) // 2}), no score cache, {args.runs} runs; written by `benchmarks/all_pairs.py`.", "",
             f"- Wall time: median {statistics.median(walls):.1f} s (fastest {min(walls):.1f} s)",
             f"- CPU time (user + system): median {statistics.median(cpus):.1f} s (fastest {min(cpus):.1f} s): "
             "what a quiet machine's wall time comes to, the work being single-threaded",
             f"- Load average before the runs: {', '.join(f'{x:.1f}' for x in loads)}",
             *machine_lines(), "", "## The ranking table (the command's output)", "",
             "```", ranking.rstrip(), "```", ""]
    args.write.write_text("\n".join(lines), encoding="utf-8")
    print(args.write.read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()
