"""Golden values of ``sle`` and ``sle-delta`` with the shipped checkpoint, pinned with their
``formula_version`` (see simpeval's ``tests/test_golden_values.py``): a change of numbers must come
with a version bump."""

from __future__ import annotations

import pytest

from simpeval.registry import load_registry
from simpeval.testing import GOLDEN_OUTPUTS_WITHOUT_ELLIPSIS, assert_golden_scores, golden_scores
from simpeval_sle import plugin

GOLDEN = {
    "sle": ("1", {"sle": ([1.1005319356918335, 1.4974724253018696, 1.6260350346565247], 1.4080131318834093)}),
    "sle-delta": ("1", {"sle-delta": ([0.27075493335723877, 0.35666673382123304, 0.4170321822166443],
                                    0.34815128313170535)}),
}


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_values_change_only_with_the_formula_version(name):
    metric = load_registry(autoload=False, plugins=[plugin]).create_metric(name)
    version, pinned = GOLDEN[name]  # neural: CPUs may differ in the last digits
    scores = golden_scores(metric, GOLDEN_OUTPUTS_WITHOUT_ELLIPSIS)
    assert_golden_scores(metric, scores, version, pinned, setting=name, tolerance=1e-5,
                         update="write the new values here")
