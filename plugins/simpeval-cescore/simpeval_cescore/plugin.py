"""The entry module: registers the CEScore metrics with simpeval."""

from __future__ import annotations

import simpeval
from simpeval_cescore.metrics import (
    CEScoreMetric,
    SemiMatchMetric,
    TextSimplicityMetric,
)


@simpeval.hookimpl
def simpeval_register_metrics() -> list[type[simpeval.Metric]]:
    return [CEScoreMetric, TextSimplicityMetric, SemiMatchMetric]
