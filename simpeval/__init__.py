"""simpeval: evaluation and meta-evaluation of text simplification.

The public plugin API lives here: :data:`hookimpl` marks hook implementations,
:class:`Metric` is the base class of every metric, :class:`Option` declares a
metric's settings and :class:`UsageError` reports bad input in one line.
:func:`evaluate`, :func:`evaluate_files` and :func:`meta_evaluate` (from :mod:`simpeval.api`) are the
command line's jobs as Python calls; they load on first use, so ``import simpeval`` stays light.
"""

from simpeval._version import __version__
from simpeval.errors import UsageError
from simpeval.hookspecs import hookimpl
from simpeval.metrics.base import Metric, Option

__all__ = ["Metric", "Option", "UsageError", "__version__", "evaluate", "evaluate_files", "hookimpl", "meta_evaluate"]

_LAZY = {"evaluate", "evaluate_files", "meta_evaluate"}


def __getattr__(name: str):
    """Load :mod:`simpeval.api` only when its functions are first used."""
    if name in _LAZY:
        from simpeval import api

        return getattr(api, name)
    raise AttributeError(f"module 'simpeval' has no attribute {name!r}")
