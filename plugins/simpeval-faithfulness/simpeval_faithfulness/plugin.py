"""simpeval entry point of the faithfulness plugin: registers ``summac-zs``, ``summac-conv`` and ``esa``.

Imports nothing heavy: torch, transformers and spaCy load when a metric first scores.
"""

from __future__ import annotations

import simpeval
from simpeval_faithfulness.metrics import EntityMatch, SummaCConv, SummaCZS


@simpeval.hookimpl
def simpeval_register_metrics() -> list[type[simpeval.Metric]]:
    return [SummaCZS, SummaCConv, EntityMatch]
