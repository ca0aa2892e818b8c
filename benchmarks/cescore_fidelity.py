"""CEScore fidelity: the CEScore paper's Tables 7-10 on Structural Simplicity (Sulem et al. 2018c).

Sentence-level (1,750 outputs) and system-level (25 system means) Pearson and
Spearman correlations of S vs human simplicity (Table 7), G vs grammaticality
(Table 8), M vs meaning (Table 9) and CE vs the mean of the three ("F_avg", Table
10), printed beside the paper's values (26 systems x 70 sentences there).

Two engines: ``cli`` runs ``simpeval meta-evaluate --dataset structural-simplicity``
(the project's engine), ``scipy`` computes the same correlations directly from the
CSV (``scipy.stats.pearsonr`` / ``spearmanr``; system level = per-system means).
``auto`` (the default) prints both when the command is available. ``--paper-zero-rule``
adds rows for GScore ignoring zero-scoring sentences (the paper's Algorithm 7).

Usage: ``SIMPEVAL_DATA_DIR=../shared/data python benchmarks/cescore_fidelity.py [--engine auto|cli|scipy]``
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np
from scipy.stats import pearsonr, spearmanr

DATASET = "structural-simplicity"
# metric sub-score -> (human aspect, paper table, {(level, correlation): paper value})
TARGETS = {
    "cescore-s": ("simplicity", 7, {("sentence", "pearson"): 0.64, ("sentence", "spearman"): 0.56,
                                    ("system", "pearson"): 0.86, ("system", "spearman"): 0.83}),
    "cescore-g": ("grammaticality", 8, {("sentence", "pearson"): 0.55, ("sentence", "spearman"): 0.53,
                                        ("system", "pearson"): 0.89, ("system", "spearman"): 0.85}),
    "cescore-m": ("meaning", 9, {("sentence", "pearson"): 0.79, ("sentence", "spearman"): 0.75,
                                 ("system", "pearson"): 0.94, ("system", "spearman"): 0.94}),
    "cescore": ("average", 10, {("sentence", "pearson"): 0.57, ("sentence", "spearman"): 0.59,
                                ("system", "pearson"): 0.94, ("system", "spearman"): 0.95}),
}
CELLS = [(level, corr) for level in ("sentence", "system") for corr in ("pearson", "spearman")]
AVERAGE_OF = ("simplicity", "grammaticality", "meaning")


def load_rows(data_dir: Path) -> list[dict[str, str]]:
    path = data_dir / "metaeval" / "structural_simplicity.csv"
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def human(rows: list[dict[str, str]], aspect: str) -> np.ndarray:
    """Per-item human score; ``average`` is the unweighted mean of the three aspects.

    Each aspect is the mean of three integer ratings, written with 9 decimals
    (1.333333333). The average is computed exactly, from the recovered rating sums,
    so that equal averages stay tied: a float mean of the rounded decimals splits the
    44 distinct averages into 114 values differing by 1e-9 or less, and Spearman then
    ranks those arbitrarily.
    """
    if aspect == "average":
        rating_sums = sum(np.rint(3 * human(rows, a)) for a in AVERAGE_OF)
        return rating_sums / (3 * len(AVERAGE_OF))
    return np.array([float(row[aspect]) for row in rows])


def system_means(values: np.ndarray, systems: list[str]) -> np.ndarray:
    groups: dict[str, list[float]] = defaultdict(list)
    for value, system in zip(values, systems):
        groups[system].append(value)
    return np.array([np.mean(groups[s]) for s in sorted(groups)])


def correlate_scipy(rows: list[dict[str, str]], ignore_zero_sentences: bool) -> dict:
    """``{(sub_score, level, correlation): r}`` computed directly."""
    from simpeval_cescore.combine import cescore

    scores = [cescore(r["orig_sent"], r["simp_sent"], ignore_zero_sentences) for r in rows]
    metric = {
        "cescore-s": np.array([s.s for s in scores]), "cescore-m": np.array([s.m for s in scores]),
        "cescore-g": np.array([s.g for s in scores]), "cescore": np.array([s.ce for s in scores]),
    }
    systems = [r["sys_name"] for r in rows]
    results = {}
    for name, (aspect, _, _) in TARGETS.items():
        x, y = metric[name], human(rows, aspect)
        for level, corr in CELLS:
            xs, ys = (x, y) if level == "sentence" else (system_means(x, systems), system_means(y, systems))
            function = pearsonr if corr == "pearson" else spearmanr
            results[(name, level, corr)] = float(function(xs, ys)[0])
    return results


def cli_available() -> bool:
    probe = subprocess.run([sys.executable, "-m", "simpeval", "meta-evaluate", "--help"],
                           capture_output=True, text=True, check=False)
    return probe.returncode == 0


def correlate_cli(ignore_zero_sentences: bool) -> dict:
    """The same correlations through ``simpeval meta-evaluate --format json``."""
    option = ":ignore_zero_sentences=yes" if ignore_zero_sentences else ""
    results = {}
    for name, (aspect, _, _) in TARGETS.items():
        for level, corr in CELLS:
            command = [sys.executable, "-m", "simpeval", "meta-evaluate", "--dataset", DATASET,
                       "-m", name + option, "--aspect", aspect, "--level", level,
                       "--split", "none", "--correlation", corr, "--format", "json"]
            done = subprocess.run(command, capture_output=True, text=True, check=True)
            records = [r for r in json.loads(done.stdout) if r["metric"].split(":")[0] == name]
            results[(name, level, corr)] = float(records[0]["r"])
    return results


def print_table(title: str, results: dict) -> None:
    print(f"\n## {title}\n")
    print("| metric vs human | table | level | correlation | paper | ours | diff |")
    print("|---|---|---|---|---|---|---|")
    for name, (aspect, table, paper) in TARGETS.items():
        for level, corr in CELLS:
            ours = results[(name, level, corr)]
            expected = paper[(level, corr)]
            flag = " **>0.05**" if abs(ours - expected) > 0.05 else ""
            print(f"| {name} vs {aspect} | {table} | {level} | {corr} | {expected:.2f} | {ours:.3f} "
                  f"| {ours - expected:+.3f}{flag} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", choices=("auto", "cli", "scipy"), default="auto")
    parser.add_argument("--paper-zero-rule", action="store_true",
                        help="also report GScore ignoring zero-scoring sentences")
    args = parser.parse_args()
    data_dir = Path(os.environ.get("SIMPEVAL_DATA_DIR", "../shared/data"))
    rows = load_rows(data_dir)
    print(f"# CEScore on Structural Simplicity: {len(rows)} outputs, "
          f"{len({r['sys_name'] for r in rows})} systems")
    rules = (False, True) if args.paper_zero_rule else (False,)
    use_cli = args.engine == "cli" or (args.engine == "auto" and cli_available())
    for rule in rules:
        label = "GScore ignoring zero sentences (paper)" if rule else "default (authors' package)"
        if args.engine in ("auto", "scipy"):
            print_table(f"scipy, {label}", correlate_scipy(rows, rule))
        if use_cli:
            print_table(f"simpeval meta-evaluate, {label}", correlate_cli(rule))


if __name__ == "__main__":
    main()
