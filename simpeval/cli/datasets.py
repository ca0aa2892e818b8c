"""``simpeval datasets``: list the registered datasets and measure their inter-annotator agreement."""

from __future__ import annotations

import click

from simpeval.datadir import DATA_DIR_HELP


@click.group("datasets")
def datasets() -> None:
    """Human-rated datasets for meta-evaluation."""


@datasets.command("list")
def datasets_list() -> None:
    """Name, aspects, default references, item keys and description of every dataset."""
    from simpeval.cli.state import current_state, echo_plugin_faults
    from simpeval.tables import render

    reg = current_state().listing()
    rows = [
        [name, ",".join(cls.aspect_names()), cls.default_references or "-", ",".join(cls.key_columns),
         reg.provider[name].distribution, cls.description]
        for name, cls in sorted(reg.datasets.items())
    ]
    click.echo(render(["name", "aspects", "references", "keys", "provider", "description"], rows), nl=False)
    echo_plugin_faults(reg)


@datasets.command("agreement")
@click.argument("name")
@click.option("--aspect", default=None, help="Aspect whose individual ratings to use (default: the dataset's first).")
@click.option("--repetitions", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Repetitions of the simulated two-rater Spearman.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@click.option("--data-dir", default=None, help=DATA_DIR_HELP)
def datasets_agreement(name, aspect, repetitions, seed, fmt, data_dir) -> None:
    """ICC(1,1) and simulated two-rater Spearman of a dataset's ratings (Alva-Manchego et al. 2021, §3)."""
    import dataclasses

    import numpy as np

    from simpeval.cli.state import registry
    from simpeval.datadir import resolve_data_dir
    from simpeval.jsontext import dumps
    from simpeval.metaeval.agreement import agreement
    from simpeval.tables import render

    dataset = registry().dataset_class(name)(resolve_data_dir(data_dir))
    result = agreement(dataset, aspect or dataset.aspects[0], np.random.default_rng(seed), repetitions)
    if fmt == "json":
        click.echo(dumps(dataclasses.asdict(result), indent=2))
        return
    row = [result.dataset, result.aspect, result.items, result.ratings_per_item,
           "z" if result.standardized else "raw", result.icc, result.spearman_mean, result.spearman_std]
    columns = ["dataset", "aspect", "items", "k", "scale", "ICC(1,1)", "spearman", "std"]
    click.echo(render(columns, [row], digits=3), nl=False)
