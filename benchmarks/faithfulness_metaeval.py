"""Meta-evaluate the reference-free faithfulness metrics against human meaning-preservation ratings.

Runs ``simpeval meta-evaluate --aspect meaning`` on Simplicity-DA and
Structural Simplicity with ``esa`` (and its ``-p``/``-r`` sub-scores) beside
the baseline ``bleu-source`` (BLEU against the input, Cripwell et al.'s
BLEU_C), at sentence level (Pearson and Spearman, quality split) and at system
level (Pearson), and prints the tables of ``docs/reproduced/faithfulness.md``.
A bold value is a "winner": not significantly outperformed in its column.

SummaC is not meta-evaluated: no NLI weights can be installed here. With
``--summac-tiny`` the script also scores both data sets with ``summac-zs`` on a
tiny random NLI model, to show that the document path (splitting, length
batching, both orientations) runs at data-set scale and how long it takes;
those scores are random and are not printed.

    OMP_NUM_THREADS=1 SIMPEVAL_DATA_DIR=../shared/data python benchmarks/faithfulness_metaeval.py [--summac-tiny]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import tempfile
import time
from pathlib import Path

DATASETS = {"simplicity-da": "simplicity_DA.csv", "structural-simplicity": "structural_simplicity.csv"}
METRICS = "esa,esa-p,esa-r,bleu-source"
RUNS = (  # (level, correlation)
    ("sentence", "pearson"),
    ("sentence", "spearman"),
    ("system", "pearson"),
)


def meta_evaluate(dataset: str, level: str, correlation: str) -> list[dict]:
    """The JSON records of one ``simpeval meta-evaluate`` run."""
    command = [
        "simpeval", "meta-evaluate", "--dataset", dataset, "--aspect", "meaning", "-m", METRICS,
        "--level", level, "--correlation", correlation, "--format", "json", "--no-progress",
    ]
    result = subprocess.run(command, capture_output=True, text=True, check=True)
    return json.loads(result.stdout)


def markdown(records: list[dict]) -> str:
    """Metrics as rows, splits as columns; winners in bold."""
    splits = list(dict.fromkeys(r["split"] for r in records))
    metrics = list(dict.fromkeys(r["metric"] for r in records))
    cell = {(r["metric"], r["split"]): r for r in records}
    lines = [
        "| metric | " + " | ".join(f"{s} (N={cell[(metrics[0], s)]['n']})" for s in splits) + " |",
        "|---" * (len(splits) + 1) + "|",
    ]
    for metric in metrics:
        values = []
        for split in splits:
            record = cell[(metric, split)]
            text = f"{record['r']:.3f}"
            values.append(f"**{text}**" if record["winner"] else text)
        lines.append(f"| {metric} | " + " | ".join(values) + " |")
    return "\n".join(lines)


def summac_path_check(data_dir: Path) -> None:
    """Score both data sets with summac-zs on a random tiny model; print only counts and seconds."""
    import torch

    from simpeval.registry import load_registry
    from simpeval.runner import evaluate, resolve_metrics
    from simpeval_faithfulness.testing import save_tiny_nli

    torch.set_num_threads(1)
    tiny = save_tiny_nli(tempfile.mkdtemp(prefix="tiny-nli-"), max_positions=512)
    requests = resolve_metrics(load_registry(), [f"summac-zs:model={tiny},progress=false"])
    for dataset, filename in DATASETS.items():
        with open(data_dir / "metaeval" / filename, newline="", encoding="utf-8-sig") as handle:
            rows = list(csv.DictReader(handle))
        start = time.perf_counter()
        result = evaluate(requests, [r["orig_sent"] for r in rows], [r["simp_sent"] for r in rows])
        seconds = time.perf_counter() - start
        n_scored = len(result.sentence_scores["summac-zs-r"])
        print(f"summac-zs (RANDOM tiny model, scores not reported): {dataset}, {n_scored} items, {seconds:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--summac-tiny", action="store_true", help="also time summac-zs on a random tiny model")
    args = parser.parse_args()
    for dataset in DATASETS:
        for level, correlation in RUNS:
            start = time.perf_counter()
            records = meta_evaluate(dataset, level, correlation)
            seconds = time.perf_counter() - start
            print(f"\n### {dataset}, aspect meaning, {level} level, {correlation} ({seconds:.1f} s)\n")
            print(markdown(records))
    if args.summac_tiny:
        print()
        summac_path_check(Path(os.environ.get("SIMPEVAL_DATA_DIR", "../shared/data")))


if __name__ == "__main__":
    main()
