"""The ``--jobs`` and ``--dask`` options that ``evaluate`` and ``meta-evaluate`` share."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import os

import click

JOBS_PER_CPU = 4


def max_jobs() -> int:
    """The most ``--jobs`` a machine can use: 4 per CPU (more only adds processes that wait)."""
    return JOBS_PER_CPU * (os.cpu_count() or 1)


def _check_jobs(ctx: click.Context, param: click.Parameter, value: int) -> int:
    if value > max_jobs():
        raise click.BadParameter(f"{value} is more processes than this machine can use: give at most {max_jobs()} "
                                 f"({JOBS_PER_CPU} per CPU); batches beyond the CPUs only wait", ctx, param)
    return value


def _check_dask(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    from simpeval.engine.parallel import check_dask_address

    return check_dask_address(value)


def parallel_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add ``--jobs N`` and ``--dask ADDRESS|local`` to a click command."""
    command = click.option(
        "--dask", default=None, metavar="ADDRESS|local",
        help="Score batches on a Dask scheduler (tcp://HOST:8786), or 'local' for a LocalCluster "
             "of --jobs workers (at least 2); needs simpeval[dask].",
        callback=_check_dask,
    )(command)
    return click.option(
        "--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
        help="Score batches in this many local processes (results are identical to one process; "
             "at most 4 per CPU, and never more than there are batches).",
        callback=_check_jobs,
    )(command)
