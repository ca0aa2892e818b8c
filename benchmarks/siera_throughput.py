"""SIERA inference speed: two-way pairs per second on Simplicity-DA's 600 pairs, before and after.

Times the shipped checkpoint through the ``siera`` metric in float32 with 1 and 2
torch threads, each in a fresh worker process, for the plugin as it is (*after*:
pairs through the core's encoding service) and as it was at git revision
``--before`` (exported to a temporary directory put first on ``PYTHONPATH``).
Each worker loads the model, warms up on 8 pairs, forgets what it kept, then
scores the 600 pairs. Runs are interleaved ``--repeats`` times; medians are
reported, with the largest difference between before and after scores. Writes
``docs/benchmarks/siera.md``.

    nice -n 10 python benchmarks/siera_throughput.py [--repeats N] [--before REV]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from before import export_package  # noqa: E402
from machine import load_average, machine_lines, median, write_report  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PLUGIN = "plugins/simpeval-siera/simpeval_siera"


def simplicity_da(data_dir: Path) -> tuple[list[str], list[str]]:
    with open(data_dir / "metaeval" / "simplicity_DA.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    return [r["orig_sent"] for r in rows], [r["simp_sent"] for r in rows]


def worker(threads: int, data_dir: Path) -> None:
    """Score the 600 pairs once with ``threads`` threads; print seconds and scores as JSON."""
    import torch
    from simpeval_siera.plugin import Siera

    torch.set_num_threads(threads)
    sources, outputs = simplicity_da(data_dir)
    metric = Siera()
    metric.score_sentences(sources[-8:][::-1], outputs[:8])  # warm-up on pairs that are not measured
    loaded = metric._model()
    if len(loaded) > 2:  # the encoding service: forget the warm-up pairs
        loaded[2].clear()
    started = time.perf_counter()
    scores = metric.score_sentences(sources, outputs)["siera"]
    print(json.dumps({"seconds": time.perf_counter() - started, "scores": scores}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--before", default="6b04af9", help="git revision of the plugin before this work")
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--output", type=Path, default=ROOT / "docs" / "benchmarks" / "siera.md")
    args = parser.parse_args()
    data_dir = Path(os.environ.get("SIMPEVAL_DATA_DIR", "../shared/data"))
    if args.worker:
        worker(args.worker, data_dir)
        return
    n = len(simplicity_da(data_dir)[0])
    times: dict[tuple[str, int], list[float]] = {}
    scores: dict[str, list[float]] = {}
    loads = [load_average()]
    with tempfile.TemporaryDirectory() as temporary:
        before_path = export_package(args.before, PLUGIN, Path(temporary))
        environments = {
            "after": dict(os.environ),
            "before": dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(before_path),
                                                                                os.environ.get("PYTHONPATH")]))),
        }
        for _ in range(args.repeats):
            for threads in (1, 2):
                for version, env in environments.items():
                    done = subprocess.run([sys.executable, __file__, "--worker", str(threads)], env=env,
                                          check=True, capture_output=True, text=True)
                    result = json.loads(done.stdout.strip().splitlines()[-1])
                    times.setdefault((version, threads), []).append(result["seconds"])
                    scores[version] = result["scores"]
            loads.append(load_average())
    difference = max(abs(a - b) for a, b in zip(scores["after"], scores["before"]))
    lines = []
    for threads in (1, 2):
        for version in ("before", "after"):
            values = times[(version, threads)]
            lines.append(f"| {version} | {threads} | {n / median(values):.1f} | "
                         f"{', '.join(f'{n / v:.1f}' for v in values)} |")
    write_report(args.output, "\n".join([
        "# Benchmark: SIERA throughput",
        "",
        "Written by `benchmarks/siera_throughput.py`; do not edit by hand.",
        "",
        f"What: the shipped SIERA checkpoint (MiniLM) scoring Simplicity-DA's {n} (source, output) pairs "
        "two-way (each pair read in both orders) in float32, through the `siera` metric, in a fresh process "
        f"per run. *before*: the plugin at {args.before}; *after*: pairs through the core's encoding service "
        "(each distinct ordered pair once, length-sorted batches).",
        "",
        *machine_lines(),
        f"- Run with `nice -n 10`; load average (1 min) before and after each repeat: "
        f"{', '.join(f'{v:.1f}' for v in loads)}",
        f"- Repeats: {args.repeats}, interleaved; medians below",
        "",
        "| plugin | torch threads | pairs/s (median) | all runs (pairs/s) |",
        "|---|---|---|---|",
        *lines,
        "",
        f"Largest difference between the before and after two-way scores: {difference:.1e}.",
        "",
    ]))


if __name__ == "__main__":
    main()
