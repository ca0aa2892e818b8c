"""``simpeval train siera`` / ``train sle`` judged leave-one-dataset-out on rated data they never train on.

    nice -n 10 python benchmarks/trainer_loo.py siera
    nice -n 10 python benchmarks/trainer_loo.py sle
    nice -n 10 python benchmarks/trainer_loo.py siera|sle --rejudge   # the last run's folds judged again

Neither trainer sees a human rating: SIERA learns from ASSET-valid's (original, simplification)
pairs and their edit-made intermediates, SLE from OneStopEnglish's reading levels. Each runs its
own training signal as shipped, then chooses which epoch to keep by the mean Pearson r of its
metric (``siera``, ``sle-delta``) with the simplicity ratings of simplicity-da,
structural-simplicity and simpeval-past (never SimpEval_2022); for each dataset left out, the
epoch chosen on the other two and its r there, judged (:mod:`simpeval.learning.verdict`) beside every
non-learned registry metric on the same items (a fold's choice never reads the items the other
datasets share with the one it leaves out). Writes ``docs/reproduced/{siera,sle}-loo.md``, the same
table into the plugin's model card, the ``trainer`` section of the metric's judged record and its card.

The shipped checkpoints are not replaced: they keep the epoch their own training signal chose
(validation loss on ASSET-valid, document MAE on OneStopEnglish's validation articles), so no
rating of any dataset took part in making or choosing them and every rated dataset is unseen by
them; learned-heldout.md scores them on all four. The page says how far that epoch is from the one
the rated datasets would choose.

Cost is kept small: one seed; the frozen encoder's outputs are computed once (SIERA: the bottom
layers' states of every training and rated pair; SLE: sentence embeddings, cached on disk), and
each candidate epoch only re-runs the trained top (SIERA) or head (SLE). Torch uses one thread:
on a shared 2-core machine two threads spin on each other.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from learned_heldout import write_cards  # noqa: E402
CARDS = {"siera": ROOT / "plugins" / "simpeval-siera" / "simpeval_siera" / "checkpoint" / "MODEL_CARD.md",
         "sle": ROOT / "plugins" / "simpeval-sle" / "simpeval_sle" / "checkpoint" / "MODEL_CARD.md"}
SIERA_EPOCHS = 6  # the shipped SIERA checkpoint kept epoch 6 of seed 0 with these data settings


def shipped_line(trainer: str) -> str:
    """Which epoch the shipped checkpoint kept (from its own training record), and why it stays."""
    config = CARDS[trainer].parent / f"{trainer}_config.json"
    epoch = json.loads(config.read_text(encoding="utf-8"))["training"]["best_epoch"]
    return (f"- The shipped checkpoint is epoch {epoch} of an earlier run, chosen by that same rule. It is kept: no "
            "rating took part in making or choosing it, so every rated dataset is unseen by it (its r on each: "
            "docs/reproduced/learned-heldout.md).")


def run_siera(data_dir: Path, judge, output: Path) -> tuple[dict, list[str]]:
    from simpeval.models import DEFAULT_ENCODER
    from simpeval_siera.data import load_training_pairs, subsample
    from simpeval.learning.trainer import train
    from simpeval_siera.pipeline import DataSettings
    from simpeval_siera.trainer import SieraTrainer
    from simpeval_siera.training import TrainSettings

    pairs = subsample(load_training_pairs(["asset-valid"], None, [], data_dir), 1, 0)
    settings = TrainSettings(max_epochs=SIERA_EPOCHS, patience=SIERA_EPOCHS, learning_rate=1e-3, seed=0)
    train(SieraTrainer.given({"encoder": DEFAULT_ENCODER, "rated": "none"}, pairs=pairs, judge=judge,
                             data_settings=DataSettings(variant="silver", seed=0), settings=settings), output, print)
    record = json.loads((output / "siera_config.json").read_text(encoding="utf-8"))["training"]
    how = [f"- Training as shipped (`simpeval train siera --dataset asset-valid --refs-per-source 1 --seed 0 "
           f"--max-epochs {SIERA_EPOCHS} --patience {SIERA_EPOCHS}`): +Silver, {record['train_examples']} training "
           f"examples; validation loss by epoch "
           + " ".join(f"{h['valid_loss']:.3f}" for h in record["history"])
           + f" (lowest: epoch {record['best_epoch']}).", shipped_line("siera")]
    return record, how


def sle_fkgl_baseline() -> float:
    """The FKGL-regression document MAE on the SLE test articles that every SLE card shows: the registry's
    ``fkgl``, kept in sledoc's judged record by ``benchmarks/learned_heldout.py``."""
    from simpeval.learning.record import load_record
    from simpeval.registry import load_registry

    record = load_record(load_registry().metric_class("sledoc"))
    return record["sections"]["heldout"]["data"]["test_articles_fkgl_baseline"]["document_mae"]["all"]


def run_sle(data_dir: Path, judge, output: Path) -> tuple[dict, list[str]]:
    from simpeval.models import DEFAULT_ENCODER
    from simpeval.learning.trainer import train
    from simpeval_sle.settings import TrainSettings
    from simpeval_sle.trainer import SleTrainer

    settings = TrainSettings()
    trainer = SleTrainer.given({"data_dir": data_dir, "encoder": DEFAULT_ENCODER, "rated": "none"}, settings=settings,
                               judge=judge)
    record = train(trainer, output, print).config.training
    mae = record["test_document_mae"]
    how = [f"- Training as shipped (`simpeval train sle --seed 0`): {record['train_sentences']} OneStopEnglish "
           f"sentences, at most {settings.max_epochs} epochs, patience {settings.patience} on the validation "
           f"articles' document MAE (lowest: epoch {record['best_epoch']}, "
           f"{record['best_valid_document_mae']:.3f}).", shipped_line("sle"),
           f"- Test articles with the kept epoch: document MAE {mae['all']:.3f} "
           f"(FKGL regression {sle_fkgl_baseline():.3f}: the one baseline, sledoc's record)."]
    return record, how


def rejudge(trainer: str) -> None:
    """Judge the folds of the last run (the page's table) again, with the baselines computed now: training is
    what costs, and the folds are what it produced. The rest of the page and card stays as that run wrote it."""
    from simpeval.datadir import resolve_data_dir
    from simpeval.learning.judge import load_judge
    from simpeval.learning.record import update_record
    from simpeval.learning.report import loo_table, rejudged, replace_table
    from simpeval.registry import load_registry

    judge = load_judge(resolve_data_dir(None))
    page = ROOT / "docs" / "reproduced" / f"{trainer}-loo.md"
    text = page.read_text(encoding="utf-8")
    ((read, folds),) = rejudged(text, judge.baselines, judge.labels)
    table = loo_table([(read, folds)])
    command = f"nice -n 10 python benchmarks/trainer_loo.py {trainer}"
    note = (f" Its table's verdicts were judged again by `{command} --rejudge`: the folds of the run below, every "
            "registry baseline computed anew.")
    page.write_text(replace_table(text if note in text else text.replace("by hand.", "by hand." + note, 1), table),
                    encoding="utf-8")
    CARDS[trainer].write_text(replace_table(CARDS[trainer].read_text(encoding="utf-8"), table), encoding="utf-8")
    registry = load_registry()
    how = [line[2:] for line in text.splitlines() if line.startswith(("- Training as shipped", "- The shipped", "- Kept"))]
    update_record(registry.metric_class(read), "trainer", [f.row(read) for f in folds],
                  f"{command} --rejudge", how)
    write_cards(registry)
    print("\n".join(table))


def main(trainer: str) -> None:
    import torch

    from simpeval.datadir import resolve_data_dir
    from simpeval.learning.judge import load_judge
    from simpeval.learning.record import update_record
    from simpeval.learning.report import folds_from_record, loo_table, write_card_section
    from simpeval.registry import load_registry

    threads = int(os.environ.get("LOO_THREADS", "1"))
    torch.set_num_threads(threads)
    start = time.perf_counter()
    data_dir = resolve_data_dir(None)
    judge = load_judge(data_dir)
    with tempfile.TemporaryDirectory() as scratch:
        record, how = (run_siera if trainer == "siera" else run_sle)(data_dir, judge, Path(scratch) / "ckpt")
    read = "siera" if trainer == "siera" else "sle-delta"
    folds = folds_from_record(record["leave_one_dataset_out"])
    means = {c: sum(per.values()) / len(per) for c, per in record["candidates"].items()}
    by_epoch = sorted(means, key=lambda c: int(c.split()[1]))
    validation_pick = f"epoch {record['best_epoch']}"
    body = [
        f"Each row: the epoch chosen by the mean Pearson r of `{read}` with the simplicity ratings of the *other* "
        "datasets (ratings z-scored per dataset; no rating is ever trained on), its r on the dataset left out, beside "
        "the baselines on the same items (SimpEval_2022 is never selected on).", "",
        *loo_table([(read, folds)]), "",
        *how,
        f"- Kept (best mean r over all three): epoch {record['selected_epoch']}; the validation rule's "
        f"{validation_pick} has mean r {means[validation_pick]:+.3f}.",
        "- Mean r over the three datasets by epoch: " + ", ".join(f"{c.split()[1]}: {means[c]:+.3f}" for c in by_epoch)
        + ".", "",
        f"Ran {time.perf_counter() - start:.0f} s on {threads} torch thread(s), load average "
        f"{os.getloadavg()[0]:.1f} at the end (shared 2-core machine).",
    ]
    command = f"nice -n 10 python benchmarks/trainer_loo.py {trainer}"
    registry = load_registry()
    update_record(registry.metric_class(read), "trainer", [f.row(read) for f in folds], command, how)
    write_cards(registry)
    page = ROOT / "docs" / "reproduced" / f"{trainer}-loo.md"
    page.write_text("\n".join([f"# `simpeval train {trainer}`: epochs chosen leave-one-dataset-out", "",
                               f"Written by `benchmarks/trainer_loo.py` (`{command}`); do not edit by hand.", "",
                               *body, ""]), encoding="utf-8")
    write_card_section(CARDS[trainer], "Leave-one-dataset-out (the trainer)",
                       "\n".join([f"Written by `benchmarks/trainer_loo.py {trainer}`.", "", *body]))
    print("\n".join(body))


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3) or sys.argv[1] not in CARDS or sys.argv[2:] not in ([], ["--rejudge"]):
        sys.exit("usage: python benchmarks/trainer_loo.py siera|sle [--rejudge]")
    rejudge(sys.argv[1]) if sys.argv[2:] else main(sys.argv[1])
