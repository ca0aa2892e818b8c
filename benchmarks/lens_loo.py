"""``simpeval train lens-mini`` / ``lens-cla-mini`` judged leave-one-dataset-out, beside every non-learned registry metric.

    nice -n 10 python benchmarks/lens_loo.py [--rejudge]

Runs the trainers' own selection (:func:`simpeval_lens.loo.leave_one_dataset_out`) on the frozen
MiniLM encoder over simplicity-da, structural-simplicity and simpeval-past (never SimpEval_2022):
for each dataset left out, a head trained on the other two, its correlation read after each epoch;
each row reports the seed and epochs chosen on the other datasets' left-out correlations, and the
kept ones have the best mean over all three. Writes ``docs/reproduced/lens-loo.md``
and the same table into ``plugins/simpeval-lens/simpeval_lens/checkpoints/MODEL_CARD.md``, the ``trainer``
section of each metric's judged record and its card (:mod:`simpeval.learning.record`). The
shipped lens-mini checkpoints are not replaced (their own held-out figures: learned-heldout.md).
``--rejudge`` judges the folds of the last run again (:func:`simpeval.learning.report.rejudged`)
without training.

Cost. Every distinct text (about 7,900) is encoded once by the frozen encoder; the per-layer
pooled states go to a file in ``$SIMPEVAL_CACHE_DIR/lens-loo/`` named by the encoder's content
hash, so a rerun skips the encoder; each fold only trains the small head on those states. Torch
runs on one thread (``LOO_THREADS``): on a shared 2-core machine two threads spin on each other
and a step took up to 30 times longer (measured: 0.5 s against 0.017 s for a batch of 32).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from learned_heldout import write_cards  # noqa: E402

PAGE = ROOT / "docs" / "reproduced" / "lens-loo.md"
CARD = ROOT / "plugins" / "simpeval-lens" / "simpeval_lens" / "checkpoints" / "MODEL_CARD.md"
COMMAND = "nice -n 10 python benchmarks/lens_loo.py"
DATASETS = ("simplicity-da", "structural-simplicity", "simpeval-past")
VARIANTS = {"lens": "lens-mini", "E+R+S": "lens-cla-mini"}
SEEDS = (0, 1, 2)
"""Three seeds, as the shipped heads' own runs: each fold's choice has seeds as well as epochs to choose from."""


def encodings_file(encoder_hash: str) -> Path:
    """Where the encoder's per-layer states of the rated texts are kept between runs."""
    from simpeval.cache import default_cache_dir

    return default_cache_dir() / "lens-loo" / f"layers-{encoder_hash.replace(':', '-')[:40]}.pt"


def rejudge() -> None:
    """Judge the folds of the last run (the page's table) again, with the baselines computed now: training is
    what costs, and the folds are what it produced. The rest of the page and card stays as that run wrote it."""
    import numpy as np

    from simpeval.learning.record import update_record
    from simpeval.learning.report import loo_table, rejudged, replace_table
    from simpeval.registry import load_registry

    examples = rated()
    text = PAGE.read_text(encoding="utf-8")
    results = rejudged(text, example_baselines(examples),
                       {n: np.array([e.target for e in ex]) for n, ex in examples.items()})
    table = loo_table(results)
    note = (f" Its table's verdicts were judged again by `{COMMAND} --rejudge`: the folds of the run below, every "
            "registry baseline computed anew.")
    PAGE.write_text(replace_table(text if note in text else text.replace("by hand.", "by hand." + note, 1), table),
                    encoding="utf-8")
    CARD.write_text(replace_table(CARD.read_text(encoding="utf-8"), table), encoding="utf-8")
    registry = load_registry()
    for label, folds in results:
        notes = [line[2:] for line in text.splitlines() if line.startswith(f"- `{label}` (")]
        update_record(registry.metric_class(label), "trainer", [f.row(label) for f in folds],
                      f"{COMMAND} --rejudge", notes)
    write_cards(registry)
    print("\n".join(table))


def rated() -> dict:
    """Each rated dataset's items as the trainers see them (:func:`simpeval_lens.data.rated_examples`)."""
    from simpeval.datadir import resolve_data_dir
    from simpeval.learning.rated import load_rated
    from simpeval_lens.data import rated_examples

    return {s.name: rated_examples(s) for s in load_rated(resolve_data_dir(None), DATASETS)}


def example_baselines(examples: dict) -> dict:
    """Every registry baseline on the items as the trainers see them (lower-cased, as the table says)."""
    from simpeval.learning.baselines import baseline_scores

    return {n: baseline_scores([e.source for e in ex], [e.output for e in ex], [e.references for e in ex])
            for n, ex in examples.items()}


def main() -> None:
    import torch

    from simpeval import models
    from simpeval.learning.record import update_record
    from simpeval.learning.report import loo_table, write_card_section
    from simpeval.registry import load_registry
    from simpeval.run import Run
    from simpeval_lens.encoder import DEFAULT_ENCODER, hidden_size, layer_count, load_encodings, save_encodings
    from simpeval_lens.loo import leave_one_dataset_out
    from simpeval_lens.model import LensConfig
    from simpeval_lens.settings import TrainSettings
    from simpeval_lens.training import featurize

    threads = int(os.environ.get("LOO_THREADS", "1"))
    torch.set_num_threads(threads)
    start = time.perf_counter()
    examples = rated()
    baselines = example_baselines(examples)
    reference = models.encoder_reference(DEFAULT_ENCODER, "LENS")
    settings = TrainSettings()  # the trainers' defaults (at most 10 epochs)
    results, summary, timings = [], [], []
    with Run() as run:  # both variants reuse the texts' states
        path = encodings_file(reference["encoder_hash"])
        if path.exists():
            print(f"states of {load_encodings(str(path), run)} texts from {path}")
        begun = time.perf_counter()
        featurize(DEFAULT_ENCODER, [e for ex in examples.values() for e in ex], run=run)
        path.parent.mkdir(parents=True, exist_ok=True)
        print(f"encoded in {time.perf_counter() - begun:.0f} s; kept {save_encodings(str(path), run)} in {path}")
        timings.append(f"encoding {time.perf_counter() - begun:.0f} s")
        for variant, label in VARIANTS.items():
            config = LensConfig(**reference, layers=layer_count(DEFAULT_ENCODER), hidden=hidden_size(DEFAULT_ENCODER),
                                variant=variant)
            result = leave_one_dataset_out(config, examples, settings, SEEDS, baselines, log=print, run=run)
            results.append((label, result.choice.folds))
            timings.append(f"{label} {result.seconds:.0f} s")
            curves = "; ".join(f"{n} " + " ".join(f"{r:+.3f}" for r in c) for n, c in result.curves[result.seed].items())
            summary.append(f"- `{label}` (`simpeval train {'lens-mini' if variant == 'lens' else 'lens-cla-mini'}`): seed "
                           f"{result.seed}, {result.epochs_kept} epochs kept (the best mean over all three) of "
                           f"{settings.max_epochs} x seeds {list(SEEDS)}; left-out r by epoch: {curves}.")
    body = [
        "Each row: a head trained on the other two datasets (simplicity labels z-scored per dataset; frozen "
        "MiniLM; lower-cased texts, references equal to the output dropped; items of the left-out dataset never "
        "trained on), Pearson r on the dataset left out with the seed and epochs chosen by the mean left-out r of "
        "the *other* datasets, beside the baselines on the same items (SimpEval_2022 is never trained or "
        "selected on).", "",
        *loo_table(results), "", *summary, "",
        f"Ran {time.perf_counter() - start:.0f} s ({', '.join(timings)}) on {threads} torch thread(s), "
        f"load average {os.getloadavg()[0]:.1f} at the end (shared 2-core machine).",
    ]
    PAGE.write_text("\n".join(["# lens-mini trainers: leave-one-dataset-out", "",
                               f"Written by `benchmarks/lens_loo.py` (`{COMMAND}`); do not edit by hand.", "",
                               *body, ""]), encoding="utf-8")
    write_card_section(CARD, "Leave-one-dataset-out (the trainers)",
                       "\n".join(["Written by `benchmarks/lens_loo.py`.", "", *body]))
    registry = load_registry()
    for label, folds in results:
        update_record(registry.metric_class(label), "trainer", [f.row(label) for f in folds], COMMAND,
                      [line[2:] for line in summary if line.startswith(f"- `{label}`")])
    write_cards(registry)
    print("\n".join(loo_table(results)))


if __name__ == "__main__":
    rejudge() if sys.argv[1:] == ["--rejudge"] else main()
