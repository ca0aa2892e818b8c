"""How fast does the command line start, and does it import anything heavy?

Runs ``simpeval metrics list`` (which imports every installed plugin) several
times in fresh processes and reports the wall time, then lists any heavy module
(torch, transformers, spacy, bert_score) that ``python -X importtime`` saw.

    python benchmarks/bench_cli_startup.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

HEAVY = ("torch", "transformers", "spacy", "bert_score")
COMMAND = [sys.executable, "-m", "simpeval", "metrics", "list"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    times = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        subprocess.run(COMMAND, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    traced = subprocess.run([sys.executable, "-X", "importtime", *COMMAND[1:]], check=True, capture_output=True, text=True)
    imported = {line.rsplit("|", 1)[-1].strip().split(".")[0] for line in traced.stderr.splitlines() if "|" in line}
    print(f"simpeval metrics list: median {statistics.median(times):.3f} s, min {min(times):.3f} s over {args.repeat} runs")
    print(f"heavy modules imported: {sorted(imported & set(HEAVY)) or 'none'}")


if __name__ == "__main__":
    main()
