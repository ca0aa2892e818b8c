"""Golden values of ``lens-mini`` and ``lens-cla-mini`` with the shipped checkpoints, pinned with their
``formula_version`` (see simpeval's ``tests/test_golden_values.py``): a change of numbers must come with a
version bump (or a new checkpoint, whose content the signature names)."""

from __future__ import annotations

import pytest

from simpeval.registry import load_registry
from simpeval.testing import GOLDEN_OUTPUTS_WITHOUT_ELLIPSIS, GOLDEN_REFERENCES, assert_golden_scores, golden_scores
from simpeval_lens import plugin

VERSION = "1"
GOLDEN = {
    "lens-mini": {"lens-mini": ([46.6704590900568, 51.62061469361151, 72.80289119524012], 57.03132165963615)},
    "lens-cla-mini": {
        "lens-cla-mini": ([42.733843466183096, 56.86847370852004, 77.8711168992331], 59.157811357978744)},
}


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_values_change_only_with_the_formula_version(name):
    metric = load_registry(autoload=False, plugins=[plugin]).create_metric(name)
    # neural: CPUs may differ in the last digits
    scores = golden_scores(metric, GOLDEN_OUTPUTS_WITHOUT_ELLIPSIS, GOLDEN_REFERENCES)
    assert_golden_scores(metric, scores, VERSION, GOLDEN[name], tolerance=1e-5, update="write the new values here")
