"""All simpeval hook specifications, in one module (as pytest's ``hookspec.py``).

Plugins implement these with :data:`simpeval.hookimpl`; the built-in metrics and
datasets are registered through the very same hooks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    import click

    from simpeval.datasets.base import Dataset
    from simpeval.metrics.base import Metric
    from simpeval.presets import Preset
    from simpeval.reproduce.paper import Paper

PROJECT_NAME = "simpeval"

hookspec = pluggy.HookspecMarker(PROJECT_NAME)
hookimpl = pluggy.HookimplMarker(PROJECT_NAME)


# -------------------------------------------------------------------------
# Registration hooks
# -------------------------------------------------------------------------


@hookspec
def simpeval_register_metrics() -> list[type[Metric]]:
    """Return the metric classes this plugin provides.

    Called once when the registry is built. Each class subclasses
    :class:`simpeval.Metric` and has a unique ``name``. The plugin module must not
    import heavy libraries (torch, transformers, spacy) at import time: metrics
    load them on first use.

    :returns: a list of :class:`simpeval.Metric` subclasses.
    """


@hookspec
def simpeval_register_datasets() -> list[type[Dataset]]:
    """Return the dataset classes (human-rated data for meta-evaluation) this plugin provides.

    Called once when the dataset registry is built.

    :returns: a list of :class:`simpeval.datasets.base.Dataset` subclasses, each with a unique ``name``.
    """


@hookspec
def simpeval_register_presets() -> list[Preset]:
    """Return the presets (a published setup's metric settings and text preparation) this plugin provides.

    :returns: a list of :class:`simpeval.presets.Preset`, each with a unique ``name``.
    """


@hookspec
def simpeval_register_papers() -> list[Paper]:
    """Return the published papers this plugin reproduces: ``simpeval reproduce --list`` lists them and
    ``simpeval reproduce NAME`` prints each paper's numbers beside simpeval's.

    :returns: a list of :class:`simpeval.reproduce.paper.Paper`, each with a unique ``name``.
    """


@hookspec
def simpeval_register_trainers() -> list[type]:
    """Return the trainer classes this plugin provides: ``simpeval train NAME`` runs each, and
    :func:`simpeval.learning.trainer.load_from_checkpoint` reads the checkpoints naming it.

    :returns: a list of :class:`simpeval.learning.trainer.Trainer` subclasses, each with a unique ``name``
        (their module must import nothing heavy).
    """


@hookspec
def simpeval_register_commands(cli: click.Group, train: click.Group) -> None:
    """Add click commands to the ``simpeval`` command line.

    Called once when the CLI starts.

    :param cli: the root ``simpeval`` group; add top-level commands here.
    :param train: the ``simpeval train`` group; a learnable metric adds its trainer
        here under the metric's name (``simpeval train siera ...``).
    """
