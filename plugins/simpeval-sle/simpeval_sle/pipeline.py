"""``simpeval train sle`` end to end: corpus in, checkpoint and model card out.

Articles are split once (seeded); the head is trained on the training articles,
stopping when the validation articles' document MAE stops improving. Which
epoch's head is kept is chosen by leave-one-dataset-out over rated simplicity
data when rated datasets are given (:mod:`.loo`), else by the validation MAE. The
kept head is scored once on the test articles, beside an FKGL-regression
baseline fitted on the training articles. The split, the settings, every epoch and the test figures go into the
checkpoint's ``sle_config.json`` and ``MODEL_CARD.md``.
"""

from __future__ import annotations

import time
from pathlib import Path

from simpeval.cache import write_atomic
from simpeval.learning.report import folds_from_record, loo_table, machine_record
from simpeval_sle import __version__
from simpeval_sle.corpus import LEVEL_NAMES, load_corpus
from simpeval_sle.model import predict_embeddings, save_checkpoint
from simpeval_sle.training import document_levels, fkgl_baseline, mae_by_level, registry_fkgl

MODEL_CARD = "MODEL_CARD.md"


def save_trained(trainer, output: str | Path):
    """Score the kept head once on the test articles, write its checkpoint and model card; returns its config."""
    epochs, report, parts = trainer.epochs, trainer.train_report, trainer.parts
    config, head = epochs.config, epochs.head
    config.encoder = trainer.encoder
    selection = trainer.selection("the epoch with the lowest validation document MAE")
    n_levels = len(LEVEL_NAMES)
    test_levels = document_levels(lambda v: predict_embeddings(head, v), trainer.encoded["test"])
    fkgl = registry_fkgl()
    baseline = fkgl_baseline(parts["train"], parts["test"], fkgl)
    config.training = {
        "corpus": "OneStopEnglish (Vajjala and Lucic 2018), CC BY-SA 4.0",
        "levels": {str(i): name for i, name in enumerate(LEVEL_NAMES)},
        "split": trainer.split,
        "settings": vars(trainer.settings),
        "train_sentences": epochs.train_sentences,
        "dropped_outliers": epochs.dropped_outliers,
        "best_epoch": report.best_epoch,
        "best_valid_document_mae": report.best_value,
        **selection,
        "history": report.history,
        "test_document_mae": mae_by_level(test_levels, parts["test"], n_levels),
        "test_document_mae_fkgl_baseline": mae_by_level(baseline, parts["test"], n_levels),
        "fkgl_signature": fkgl.signature(),
        "seconds": round(time.perf_counter() - trainer.started, 1),
        **machine_record(),
        "version": __version__,
    }
    save_checkpoint(output, config, head)
    write_atomic(Path(output) / MODEL_CARD, model_card(config, trainer.read))
    return config


def test_articles_fkgl_baseline(data_dir: str | Path, split: dict[str, list[str]]) -> dict:
    """The FKGL-regression baseline on a checkpoint's test articles, computed now with the registry's ``fkgl``:
    ``{"signature", "train_articles", "test_articles", "document_mae": {level: MAE, ..., "all": MAE}}``.

    The one FKGL baseline the shipped checkpoint's cards show (``benchmarks/learned_heldout.py`` keeps it in
    ``sledoc.judged.json``); a training record's own figure is what FKGL gave when it trained.
    """
    documents = load_corpus(data_dir)
    parts = {name: [d for d in documents if d.article in set(split[name])] for name in ("train", "test")}
    fkgl = registry_fkgl()
    predicted = fkgl_baseline(parts["train"], parts["test"], fkgl)
    return {"signature": fkgl.signature(), "train_articles": len(split["train"]), "test_articles": len(split["test"]),
            "document_mae": mae_by_level(predicted, parts["test"], len(LEVEL_NAMES))}


def test_articles_section(training: dict, baseline: dict) -> str:
    """The model card's test-article table: the checkpoint's document MAE (its training record) beside the one
    FKGL-regression baseline (:func:`test_articles_fkgl_baseline`, as the judged record holds it)."""
    levels, ours, theirs = training["levels"], training["test_document_mae"], baseline["document_mae"]
    rows = [f"| {key} {levels[key]} | {ours[key]:.3f} | {theirs[key]:.3f} |" for key in levels]
    return "\n".join([
        "Document MAE between the predicted level (mean over the document's sentences) and the true level.",
        "The baseline is a least-squares line from the document's FKGL to its level, fitted on the training articles;",
        f"its FKGL is the registry's, `{baseline['signature']}`.", "",
        "| level | SLE | FKGL regression |", "|---|---|---|", *rows,
        f"| all | {ours['all']:.3f} | {theirs['all']:.3f} |"])


def _loo_section(training: dict, read: str) -> str:
    """The leave-one-dataset-out table of the epoch choice by score ``read``, when rated data chose it."""
    if "leave_one_dataset_out" not in training:
        return ""
    table = loo_table([(read, folds_from_record(training["leave_one_dataset_out"]))])
    return ("## Leave-one-dataset-out (rated data never trained on)\n"
            f"Each row: the epoch chosen by the mean r of `{read}` with simplicity on the other datasets, its r on "
            "the dataset left out, beside the baselines on the same items.\n\n" + "\n".join(table) + "\n\n")


def model_card(config, read: str) -> str:
    """The checkpoint's model card, written from its training record (no number typed by hand); ``read``: the score
    whose r on rated data chose the epoch."""
    t = config.training
    baseline = {"signature": t.get("fkgl_signature", "fkgl"), "document_mae": t["test_document_mae_fkgl_baseline"]}
    sizes = ", ".join(f"{name} {len(articles)}" for name, articles in t["split"].items())
    s = t["settings"]
    return f"""# SLE (OneStopEnglish, {config.encoder} frozen + regression head)

Estimates a sentence's reading level on OneStopEnglish's scale: 0 Advanced, 1 Intermediate,
2 Elementary (higher is simpler). A text's level is the mean of its sentences' (SLEdoc, Cripwell et
al. 2024, eq. 1). Used by the metrics `sle`, `sle-delta` and `sledoc` of `simpeval-sle`.

## Data and procedure
- Corpus: {t['corpus']}; articles split by a seeded shuffle (seed {s['seed']}), all three versions of an
  article in the same part, so each part holds every level equally: {sizes} articles.
  The article names of each part are in `sle_config.json`.
- Sentences: each line of an article split with the core's Punkt splitter; the label line
  "Intermediate" that opens the Intermediate files is dropped.
- Labels (SLE's softening): each sentence takes its article's level, spread by -FKGL within the level
  (1st/99th percentile outliers dropped, min-max scaled to [0, 2], level mean subtracted, level added);
  {t['train_sentences']} training sentences kept, {t['dropped_outliers']} outliers dropped.
- Model: {config.encoder} (frozen; mean-pooled last layer, {config.input_size} dims) ->
  Linear({config.input_size}, {config.hidden_size}) -> GELU -> dropout {config.dropout} -> Linear({config.hidden_size}, 1);
  mean squared error, Adam (lr {s['learning_rate']}, weight decay {s['weight_decay']}), batch {s['batch_size']}.
- Stopping: at most {s['max_epochs']} epochs, {s['patience']} without a lower validation document MAE
  (lowest: epoch {t['best_epoch']}, MAE {t['best_valid_document_mae']:.3f}).
- Selection: {t.get('selection', 'the epoch with the lowest validation document MAE')}: epoch {t.get('selected_epoch', t['best_epoch'])}.
- Cost: {t['seconds']} s in all (sentence embedding included) on {t['machine']}, {t['date']},
  load average {t['load_average']}.

## Test articles (scored once, after selection)
{test_articles_section(t, baseline)}

{_loo_section(t, read)}## Differs from the paper
SLE was trained on Newsela (five levels, 0-4, licensed) with a fine-tuned RoBERTa; this checkpoint
is trained on OneStopEnglish's three levels with a frozen MiniLM and a small head, so its scale is 0-2
and its scores are not comparable with published SLE values.
"""
