"""Golden values of ``siera`` with the shipped checkpoint, pinned with its ``formula_version`` (see
simpeval's ``tests/test_golden_values.py``): a change of numbers must come with a version bump."""

from __future__ import annotations

from simpeval.registry import load_registry
from simpeval.testing import GOLDEN_OUTPUTS_WITHOUT_ELLIPSIS, assert_golden_scores, golden_scores
from simpeval_siera import plugin

VERSION = "1"
GOLDEN = {
    "siera": ([0.5496697127819061, 0.9154505059123039, 0.9579290058463812], 0.8076830748468637),
    "siera-bwd": ([0.2361443042755127, 0.9169073551893234, 0.9384162835776806], 0.6971559810141722),
    "siera-fwd": ([0.8631951212882996, 0.9139936566352844, 0.9774417281150818], 0.9182101686795553),
}


def test_values_change_only_with_the_formula_version():
    metric = load_registry(autoload=False, plugins=[plugin]).create_metric("siera")
    scores = golden_scores(metric, GOLDEN_OUTPUTS_WITHOUT_ELLIPSIS)  # neural: CPUs may differ in the last digits
    assert_golden_scores(metric, scores, VERSION, GOLDEN, setting="siera", tolerance=1e-5,
                         update="write the new values here")
