"""The ``--jobs`` and ``--dask`` options that ``evaluate`` and ``meta-evaluate`` share."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click


def parallel_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add ``--jobs N`` and ``--dask ADDRESS|local`` to a click command."""
    command = click.option(
        "--dask", default=None, metavar="ADDRESS|local",
        help="Score batches on a Dask scheduler (tcp://HOST:8786), or 'local' for a LocalCluster "
             "of --jobs workers (at least 2); needs simpeval[dask].",
    )(command)
    return click.option(
        "--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
        help="Score batches in this many local processes (results are identical to one process).",
    )(command)
