"""SIERA inference speed: two-way pairs per second on Simplicity-DA's 600 pairs, before and after.

Times the shipped checkpoint through the ``siera`` metric in float32 with 1 and 2
torch threads, each in a fresh worker process, for the plugin as it is (*after*)
and as it was at git revision ``--before`` (the plugin and the core package,
whose encoding service does the batching, exported to a temporary directory put
first on ``PYTHONPATH``).
Each worker loads the model, warms up on 8 pairs, forgets what it kept, then
scores the 600 pairs. Runs are interleaved ``--repeats`` times; medians are
reported, with the largest difference between before and after scores, and the
ceiling the machine's float32 matrix-product speed puts on any float32 run (the
matrix products of the 600 pairs' tokens divided by the measured rate). Writes
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
from machine import (  # noqa: E402
    bytecode_line, encoder_flops, load_average, machine_lines, matmul_rate, median, write_report,
)

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
    metric.sentence_scores(sources[-8:][::-1], outputs[:8])  # warm-up on pairs that are not measured
    loaded = metric._model()
    if len(loaded) > 2:  # the encoding service: forget the warm-up pairs
        loaded[2].clear()
    started = time.perf_counter()
    scores = metric.sentence_scores(sources, outputs)["siera"]
    print(json.dumps({"seconds": time.perf_counter() - started, "scores": scores}))


def matmul_ceiling(sources: list[str], outputs: list[str]) -> tuple[int, int, float, float]:
    """The distinct ordered pairs, their tokens, and FLOPs of the whole and the [CLS]-read model.

    With the last layer read at [CLS] only, that layer projects keys and values
    for every token (2 h^2 per token) and runs its query, output projection and
    feed-forward for one position per pair.
    """
    from simpeval_siera.features import tokenize_pairs
    from simpeval_siera.model import load_checkpoint, load_tokenizer
    from simpeval_siera.normalize import normalize
    from simpeval_siera.plugin import SHIPPED_DIR

    model = load_checkpoint(SHIPPED_DIR)
    config = model.bottom.config
    sources, outputs = [normalize(s) for s in sources], [normalize(o) for o in outputs]
    pairs = list(dict.fromkeys(list(zip(sources, outputs)) + list(zip(outputs, sources))))
    lengths = [len(row["input_ids"]) for row in tokenize_pairs(load_tokenizer(model.config), pairs,
                                                               model.config.max_length)]
    tokens = sum(lengths)
    hidden, inner = config.hidden_size, config.intermediate_size
    layers = len(model.bottom.encoder.layer) + len(model.top)
    whole = encoder_flops(config, tokens) * layers / config.num_hidden_layers
    last_at_cls = 2.0 * (tokens * 2 * hidden * hidden + len(pairs) * (2 * hidden * hidden + 2 * hidden * inner))
    return len(pairs), tokens, whole, whole * (layers - 1) / layers + last_at_cls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--before", default="d0dc5cc", help="git revision of the plugin before this work")
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
        before_paths = [str(export_package(args.before, package, Path(temporary))) for package in (PLUGIN, "simpeval")]
        environments = {
            "after": dict(os.environ),
            "before": dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [*before_paths,
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
    distinct, tokens, whole, read_at_cls = matmul_ceiling(*simplicity_da(data_dir))
    rates = {threads: matmul_rate(threads, repeats=40) for threads in (1, 2)}
    ceiling = [f"| {threads} | {rate / 1e9:.0f} | {n * rate / whole:.0f} | {n * rate / read_at_cls:.0f} |"
               for threads, rate in rates.items()]
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
        f"per run. *before*: simpeval and the plugin at {args.before} (pairs through the core's encoding service, each "
        "distinct ordered pair once, in length-sorted batches padded to their longest); *after*: the plugin as it "
        "is (batches of one token length on the CPU, no padding, and the last encoder layer computed at [CLS] "
        "only, the one position the head reads).",
        "",
        *machine_lines(),
        bytecode_line(),
        f"- Niceness {os.nice(0)}; load average (1 min) before and after each repeat: "
        f"{', '.join(f'{v:.1f}' for v in loads)}",
        f"- Repeats: {args.repeats}, interleaved; medians below",
        "",
        "| plugin | torch threads | pairs/s (median) | all runs (pairs/s) |",
        "|---|---|---|---|",
        *lines,
        "",
        f"Largest difference between the before and after two-way scores: {difference:.1e} (float32 rounding: "
        "the same arithmetic on other batch shapes, and on one row in the last layer).",
        "",
        "## The float32 ceiling of this machine",
        "",
        f"Read two-way, the {n} pairs are {distinct:,} distinct ordered pairs of "
        f"{tokens:,} tokens (batches of one token length on the CPU: no padding). Their matrix "
        f"products cost {whole / 1e12:.2f} TFLOP through the whole model and {read_at_cls / 1e12:.2f} TFLOP "
        "with the last layer read at [CLS]. Dividing by the float32 matrix-product speed torch reaches on this "
        "machine (best of 40 products of a 2,048 x 384 by 384 x 1,536 matrix, at the shapes of the model) gives "
        "the most pairs per second any float32 run could reach here, before attention, layer norms, "
        "activations and tokenisation are counted:",
        "",
        "| torch threads | GFLOP/s | pairs/s ceiling, whole model | pairs/s ceiling, last layer at [CLS] |",
        "|---|---|---|---|",
        *ceiling,
        "",
    ]))


if __name__ == "__main__":
    main()
