"""Tables 1 and 4 of the SIERA paper for our runs: correlations with Simplicity-DA's simplicity.

Reads the per-item scores and ``runs.json`` that ``benchmarks/siera_train.py``
wrote, and prints Markdown tables: Pearson and Spearman with the simplicity
z-score, mean and sample std over seeds, on all 600 items and on the high-quality
subset (fluency, meaning and simplicity z-scores all positive; the paper's
Table 4), for Base and +Silver read two-way, forward only and backward only; then
FKGL, BLEU and SARI on the same items (metaeval-2021 preset, ASSET test
references, computed by the simpeval runner), and the training time and
inference throughput.

    python benchmarks/siera_report.py --runs /tmp/siera-bench
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
from pathlib import Path

WAYS = (("two_way", "two-way"), ("forward", "→ forward"), ("backward", "← backward"))
BASELINES = ("fkgl", "bleu", "sari")


def read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8-sig") as handle:
        return list(csv.DictReader(handle))


def correlations(scores: list[float], human: list[float]) -> tuple[float, float]:
    from scipy.stats import pearsonr, spearmanr

    return float(pearsonr(scores, human)[0]), float(spearmanr(scores, human)[0])


def baseline_scores(data_dir: Path, items: list[dict[str, str]]) -> dict[str, list[float]]:
    """FKGL, BLEU and SARI of every item with ASSET's test references, as metaeval-2021 computed them."""
    from simpeval.registry import load_registry
    from simpeval.runner import evaluate, resolve_metrics

    asset = data_dir / "references" / "asset"
    references_by_line = list(zip(*[
        (asset / f"asset.test.simp.{k}").read_text(encoding="utf-8").splitlines() for k in range(10)
    ]))
    references = [list(references_by_line[int(row["sent_id"]) - 1]) for row in items]
    requests = resolve_metrics(load_registry(), list(BASELINES), preset="metaeval-2021")
    result = evaluate(requests, [r["orig_sent"] for r in items], [r["simp_sent"] for r in items], references,
                      corpus_level=False)
    return {name: result.sentence_scores[name] for name in BASELINES}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=Path, required=True, help="the --out directory of siera_train.py")
    parser.add_argument("--data-dir", type=Path, default=Path(os.environ.get("SIMPEVAL_DATA_DIR", "../shared/data")))
    args = parser.parse_args()

    items = read_csv(args.data_dir / "metaeval" / "simplicity_DA.csv")
    scored = read_csv(args.runs / "siera_scores.csv")
    items = items[: len(scored)]  # smoke runs score the first rows only
    assert [(r["sent_id"], r["sys_name"]) for r in scored] == [(r["sent_id"], r["sys_name"]) for r in items]
    subsets = {
        "all": list(range(len(items))),
        "hq": [i for i, r in enumerate(items)
               if all(float(r[f"{a}_zscore"]) > 0 for a in ("fluency", "meaning", "simplicity"))],
    }
    human = [float(r["simplicity_zscore"]) for r in items]
    runs = json.loads((args.runs / "runs.json").read_text())
    variants = list(dict.fromkeys(run["variant"] for run in runs))
    seeds = sorted({run["seed"] for run in runs})

    def cells(values: list[float]) -> list[str]:
        out = []
        for subset in subsets.values():
            pair = correlations([values[i] for i in subset], [human[i] for i in subset])
            out.extend(f"{r:.3f}" for r in pair)
        return out

    print(f"Simplicity-DA: {len(subsets['all'])} items, high-quality subset {len(subsets['hq'])} items; "
          f"seeds {seeds}\n")
    print("| model | all: Pearson | all: Spearman | HQ: Pearson | HQ: Spearman |")
    print("|---|---|---|---|---|")
    for variant in variants:
        for way, label in WAYS:
            per_seed = []
            for seed in seeds:
                column = f"siera-{variant}-{way}-seed{seed}"
                if column in scored[0]:
                    per_seed.append([float(c) for c in cells([float(r[column]) for r in scored])])
            means = [statistics.mean(v) for v in zip(*per_seed)]
            stds = [statistics.stdev(v) if len(v) > 1 else float("nan") for v in zip(*per_seed)]
            name = {"base": "Base", "silver": "+Silver"}[variant]
            print(f"| {name} {label} (n={len(per_seed)}) | "
                  + " | ".join(f"{m:.3f} ± {s:.3f}" for m, s in zip(means, stds)) + " |")
    for name, values in baseline_scores(args.data_dir, items).items():
        print(f"| {name.upper()} | " + " | ".join(cells(values)) + " |")

    print("\n| run | best epoch | training s | two-way inference pairs/s |")
    print("|---|---|---|---|")
    for run in runs:
        print(f"| {run['variant']} seed {run['seed']} | {run['best_epoch']} | {run['train_seconds']:.0f} | "
              f"{run['pairs_per_second_two_way']:.1f} |")
    first = runs[0]
    print(f"\nshared once: augmentation {first['augment_seconds']:.0f} s, frozen-state cache {first['cache_seconds']:.0f} s")


if __name__ == "__main__":
    main()
