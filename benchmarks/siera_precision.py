"""SIERA in float32 and in bfloat16 (CPU autocast) on this CPU: time and how far the scores move.

Scores Simplicity-DA's 600 pairs with the shipped checkpoint, ``precision=float32`` and
``precision=bfloat16``, each in a fresh worker process (model loaded and warmed up on 8 pairs that are
not measured), alternating, ``--repeats`` times; reports the CPU seconds of the scoring (user + system
of the worker, which moves less with the shared machine's load than wall time) and the wall seconds,
medians, the ratio, and the largest difference of a two-way score between the two precisions. The
page names the CPU's bf16 features (``avx512_bf16``, ``amx_bf16`` in ``/proc/cpuinfo``): whether
bfloat16 is faster depends on them and on torch's kernels for them, so the figure holds for this CPU
only. Writes ``docs/benchmarks/siera-precision.md``.

    nice -n 10 python benchmarks/siera_precision.py [--repeats N]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from machine import load_average, machine_lines, median, write_report  # noqa: E402
from siera_throughput import simplicity_da  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "benchmarks" / "siera-precision.md"
PRECISIONS = ("float32", "bfloat16")
BF16_FLAGS = ("avx512_bf16", "amx_bf16", "amx_tile")


def worker(precision: str, data_dir: Path) -> None:
    """Score the 600 pairs once; print CPU and wall seconds and the two-way scores as JSON."""
    from simpeval_siera.plugin import Siera

    sources, outputs = simplicity_da(data_dir)
    metric = Siera(precision=precision, progress=False)
    metric.sentence_scores(sources[-8:][::-1], outputs[:8])  # warm-up on pairs that are not measured
    loaded = metric._model()
    if len(loaded) > 2:  # the encoding service: forget the warm-up pairs
        loaded[2].clear()
    cpu, wall = time.process_time(), time.perf_counter()
    scores = metric.sentence_scores(sources, outputs)["siera"]
    print(json.dumps({"cpu": time.process_time() - cpu, "wall": time.perf_counter() - wall, "scores": scores}))


def cpu_flags() -> list[str]:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("flags"):
            present = set(line.split(":", 1)[1].split())
            return [flag for flag in BF16_FLAGS if flag in present]
    return []


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--worker", choices=PRECISIONS, help=argparse.SUPPRESS)
    parser.add_argument("--data-dir", type=Path, default=Path(os.environ.get("SIMPEVAL_DATA_DIR", "../shared/data")))
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.data_dir)
        return
    import torch

    runs: dict[str, list[dict]] = {p: [] for p in PRECISIONS}
    loads = [load_average()]
    for _ in range(args.repeats):
        for precision in PRECISIONS:
            done = subprocess.run([sys.executable, __file__, "--worker", precision, "--data-dir", str(args.data_dir)],
                                  capture_output=True, text=True, check=True)
            runs[precision].append(json.loads(done.stdout.strip().splitlines()[-1]))
        loads.append(load_average())
    cpu = {p: median([r["cpu"] for r in runs[p]]) for p in PRECISIONS}
    wall = {p: median([r["wall"] for r in runs[p]]) for p in PRECISIONS}
    moved = max(abs(a - b) for a, b in zip(runs["float32"][0]["scores"], runs["bfloat16"][0]["scores"]))
    flags = cpu_flags()
    ratio = cpu["float32"] / cpu["bfloat16"]
    verdict = (f"bfloat16 took {ratio:.2f} times less CPU time than float32" if ratio >= 1
               else f"bfloat16 took {1 / ratio:.2f} times more CPU time than float32")
    write_report(DOC, "\n".join([
        "# Benchmark: SIERA in float32 and bfloat16 on this CPU",
        "",
        "Written by `benchmarks/siera_precision.py`; do not edit by hand.",
        "",
        f"What: the shipped checkpoint on Simplicity-DA's {len(runs['float32'][0]['scores'])} pairs (two-way), "
        "`precision=float32` and `precision=bfloat16` (CPU autocast), each run a fresh process that loads the "
        "model and warms up on 8 other pairs first; the scoring alone is timed.",
        "",
        *machine_lines(),
        f"- bf16 features of this CPU (`/proc/cpuinfo`): {', '.join(flags) or 'none'}; "
        f"torch threads {torch.get_num_threads()}",
        f"- Load average (1 min) before and after each round: {', '.join(f'{v:.1f}' for v in loads)}",
        f"- Rounds: {args.repeats}, the two precisions alternating; medians below",
        "",
        "| precision | CPU s (median) | wall s (median) | CPU s, all runs |",
        "|---|---|---|---|",
        *(f"| {p} | {cpu[p]:.1f} | {wall[p]:.1f} | " + ", ".join(f"{r['cpu']:.1f}" for r in runs[p]) + " |"
          for p in PRECISIONS),
        "",
        f"On this CPU {verdict}; the largest difference of a two-way score between the two was {moved:.4f}. "
        "Other CPUs differ: bfloat16 pays off only where torch has fast bf16 kernels for the CPU's units.",
        "",
    ]))


if __name__ == "__main__":
    main()
