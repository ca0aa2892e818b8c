"""``simpeval train lens`` / ``lens-cla`` judged leave-one-dataset-out, beside FKGL, compression ratio and SARI.

    nice -n 10 python benchmarks/lens_loo.py

Runs the trainers' own selection (:func:`simpeval_lens.loo.leave_one_dataset_out`) on the frozen
MiniLM encoder over simplicity-da, structural-simplicity and simpeval-past (never SimpEval_2022):
for each dataset left out, a head trained on the other two, its correlation read after each epoch;
seed and epochs chosen by the mean left-out correlation. Writes ``docs/reproduced/lens-loo.md``
and the same table into ``plugins/simpeval-lens/simpeval_lens/checkpoints/MODEL_CARD.md``. The
shipped lens-mini checkpoints are not replaced (their own held-out figures: learned-heldout.md).
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "reproduced" / "lens-loo.md"
CARD = ROOT / "plugins" / "simpeval-lens" / "simpeval_lens" / "checkpoints" / "MODEL_CARD.md"
COMMAND = "nice -n 10 python benchmarks/lens_loo.py"
DATASETS = ("simplicity-da", "structural-simplicity", "simpeval-past")
VARIANTS = {"lens": "lens-mini", "E+R+S": "lens-cla-mini"}
SEEDS = (0,)


def main() -> None:
    import torch

    from simpeval import models
    from simpeval.datadir import resolve_data_dir
    from simpeval.run import Run
    from simpeval.learning.baselines import baseline_scores
    from simpeval.learning.rated import load_rated
    from simpeval_lens.encoder import DEFAULT_ENCODER, hidden_size, layer_count
    from simpeval_lens.loo import leave_one_dataset_out, rated_examples
    from simpeval_lens.model import LensConfig
    from simpeval_lens.settings import TrainSettings

    torch.set_num_threads(2)
    start = time.perf_counter()
    sets = load_rated(resolve_data_dir(None), DATASETS)
    examples = {s.name: rated_examples(s) for s in sets}
    baselines = {n: baseline_scores([e.source for e in ex], [e.output for e in ex], [e.references for e in ex])
                 for n, ex in examples.items()}
    settings = TrainSettings(max_epochs=4)
    rows, summary = [], []
    run = Run()  # both variants reuse the texts' embeddings
    for variant, label in VARIANTS.items():
        config = LensConfig(**models.encoder_reference(DEFAULT_ENCODER, "LENS"), layers=layer_count(DEFAULT_ENCODER),
                            hidden=hidden_size(DEFAULT_ENCODER), variant=variant)
        result = leave_one_dataset_out(config, examples, settings, SEEDS, baselines, log=print, run=run)
        summary.append(f"- `{label}` (`simpeval train {'lens' if variant == 'lens' else 'lens-cla'}`): seed "
                       f"{result.seed}, {result.epochs} epochs chosen of {settings.max_epochs} x seeds {list(SEEDS)}.")
        for fold in result.folds:
            name, value = fold.best_baseline
            b = fold.baselines
            rows.append(f"| {label} | {fold.left_out} | {fold.n} | {fold.r:+.3f} | {b['fkgl']:+.3f} | "
                        f"{b['compression']:+.3f} | {b['sari']:+.3f} | {name} {abs(value):.3f} | "
                        f"{'yes' if fold.beats_baselines else f'no ({abs(fold.r) - abs(value):+.3f})'} |")
    table = ["| trainer | left-out dataset | n | r | FKGL r | compression r | SARI r | best baseline | trainer >= best? |",
             "|---|---|---|---|---|---|---|---|---|", *rows]
    body = [
        "Each row: a head trained on the other two datasets (simplicity labels z-scored per dataset; frozen "
        "MiniLM; lower-cased texts, references equal to the output dropped), Pearson r on the dataset left out at "
        "the chosen seed and epoch count, beside the baselines on the same items.", "", *table, "", *summary, "",
        f"Ran {time.perf_counter() - start:.0f} s, load average {os.getloadavg()[0]:.1f} at the end (shared 2-core machine).",
    ]
    PAGE.write_text("\n".join(["# lens-mini trainers: leave-one-dataset-out", "",
                               f"Written by `benchmarks/lens_loo.py` (`{COMMAND}`); do not edit by hand.", "",
                               *body, ""]), encoding="utf-8")
    marker = "## Leave-one-dataset-out (the trainers)"
    section = "\n".join([marker, f"Written by `benchmarks/lens_loo.py`.", "", *body]) + "\n"
    card = CARD.read_text(encoding="utf-8")
    pattern = re.compile(rf"^{re.escape(marker)}\n.*?(?=^## |\Z)", re.M | re.S)
    card = pattern.sub(section, card) if pattern.search(card) else card.rstrip("\n") + "\n\n" + section
    CARD.write_text(card, encoding="utf-8")
    print("\n".join(table))


if __name__ == "__main__":
    main()
