"""simpeval: evaluation and meta-evaluation of text simplification.

The public plugin API lives here: :data:`hookimpl` marks hook implementations,
:class:`Metric` is the base class of every metric, :class:`Option` declares a
metric's settings and :class:`UsageError` reports bad input in one line.
"""

from simpeval._version import __version__
from simpeval.errors import UsageError
from simpeval.hookspecs import hookimpl
from simpeval.metrics.base import Metric, Option

__all__ = ["Metric", "Option", "UsageError", "__version__", "hookimpl"]
