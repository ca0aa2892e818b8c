"""simpeval entry point of the judge plugin: registers ``judge`` and ``jury``.

Imports nothing heavy: torch and transformers load when a metric first scores.
"""

from __future__ import annotations

import simpeval
from simpeval_judge.metrics import Judge, Jury


@simpeval.hookimpl
def simpeval_register_metrics() -> list[type[simpeval.Metric]]:
    return [Judge, Jury]
