"""``simpeval train simpq``: features of the rated datasets, a linear model per variant and aspect chosen by
leave-one-dataset-out."""

from __future__ import annotations

import os
from pathlib import Path

import click

DEFAULT_DATASETS = "simplicity-da,structural-simplicity"


@click.command("simpq", short_help="Train simpq on the rated datasets, selected by leave-one-dataset-out.")
@click.option("--data-dir", type=click.Path(file_okay=False, path_type=Path),
              default=lambda: os.environ.get("SIMPEVAL_DATA_DIR"), help="Data directory (default: $SIMPEVAL_DATA_DIR).")
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Directory for the checkpoint (use it with -m simpq:checkpoint=DIR).")
@click.option("--datasets", default=DEFAULT_DATASETS, show_default=True,
              help="Rated datasets to train on (SimpEval_2022 is test data and refused).")
@click.option("--embeddings/--no-embeddings", default=True, show_default=True,
              help="Also train the variants with MiniLM similarity features (encodes every text once).")
@click.option("--feature-cache", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="An .npz where features are kept between runs.")
def train_simpq_command(data_dir, output, datasets, embeddings, feature_cache) -> None:
    """Train simpq's three aspects; print each aspect's leave-one-dataset-out table beside the baselines."""
    from simpeval.datadir import resolve_data_dir
    from simpeval.learning.rated import check_trainable, load_rated
    from simpeval.learning.report import loo_table
    from simpeval_simpq.model import ASPECTS, save, to_json
    from simpeval_simpq.training import aspect_labels, available_groups, featurize, train, training_record

    names = [n.strip() for n in datasets.split(",") if n.strip()]
    check_trainable(names)
    sets = load_rated(resolve_data_dir(data_dir), names)
    if all(len(aspect_labels(sets, aspect)) < 2 for aspect in ASPECTS):  # before any feature is computed
        raise click.UsageError("no aspect is rated by two of these datasets: leave-one-dataset-out needs two")
    groups = tuple(g for g in available_groups() if embeddings or g != "embeddings")
    matrices = featurize(sets, feature_cache, groups, log=click.echo)
    results = train(sets, matrices, groups=groups)
    click.echo("\n".join(loo_table([(f"simpq-{aspect} ({variant})", result.folds)
                                    for variant, aspects in results.items() for aspect, result in aspects.items()])))
    click.echo("kept (the best mean left-out r, fitted on every dataset): " + "; ".join(
        f"{variant} {aspect}: {result.chosen}" for variant, aspects in results.items() for aspect, result in aspects.items()))
    path = save(output, to_json({key: {a: r.model for a, r in aspects.items()} for key, aspects in results.items()},
                                training_record(results)))
    click.echo(f"checkpoint in {path.parent}")
