"""SIERA inference speed on this machine: two-way pairs per second on Simplicity-DA's 600 pairs.

Times the shipped checkpoint (or ``--checkpoint DIR``) through the ``siera``
metric, in float32 and bfloat16 autocast, with 1 thread and with torch's default
thread count, after one warm-up call; and reports how far bfloat16 scores move.

    python benchmarks/siera_throughput.py [--checkpoint DIR]
"""

from __future__ import annotations

import argparse
import csv
import os
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkpoint", default="shipped")
    parser.add_argument("--data-dir", type=Path, default=Path(os.environ.get("SIMPEVAL_DATA_DIR", "../shared/data")))
    args = parser.parse_args()
    import torch
    from simpeval_siera.plugin import Siera

    with open(args.data_dir / "metaeval" / "simplicity_DA.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    sources, outputs = [r["orig_sent"] for r in rows], [r["simp_sent"] for r in rows]
    default_threads = torch.get_num_threads()
    scores = {}
    for precision in ("float32", "bfloat16"):
        metric = Siera(checkpoint=args.checkpoint, precision=precision)
        metric.score_sentences(sources[:8], outputs[:8])
        for threads in sorted({1, default_threads}):
            torch.set_num_threads(threads)
            started = time.perf_counter()
            scores[precision] = metric.score_sentences(sources, outputs)["siera"]
            seconds = time.perf_counter() - started
            print(f"{precision}, {threads} thread(s): {len(rows) / seconds:.1f} pairs/s two-way "
                  f"({len(rows)} pairs in {seconds:.1f} s)")
    difference = max(abs(a - b) for a, b in zip(scores["float32"], scores["bfloat16"]))
    print(f"largest |float32 - bfloat16| two-way score difference: {difference:.4f}")


if __name__ == "__main__":
    main()
