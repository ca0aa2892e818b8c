"""simpeval entry point of the faithfulness plugin: registers ``summac-zs``, ``summac-conv``, ``esa`` and ``meaningbert``.

Imports nothing heavy: torch, transformers and spaCy load when a metric first scores.
"""

from __future__ import annotations

import simpeval
from simpeval_faithfulness.metrics import EntityMatch, MeaningBert, SummaCConv, SummaCZS


@simpeval.hookimpl
def simpeval_register_metrics() -> list[type[simpeval.Metric]]:
    return [SummaCZS, SummaCConv, EntityMatch, MeaningBert]
