"""Golden values of ``simpq`` with the shipped checkpoint, pinned with its ``formula_version`` (see
simpeval's ``tests/test_golden_values.py``): a change of numbers must come with a version bump."""

from __future__ import annotations

from simpeval.registry import load_registry
from simpeval.testing import GOLDEN_OUTPUTS_WITHOUT_ELLIPSIS, assert_golden_scores, golden_scores
from simpeval_simpq import plugin

VERSION = "2"
SIMPLICITY = ([0.08909336849522145, 0.06463648957140286, 0.03215523057790629], 0.061961696214843535)
GOLDEN = {
    "simpq": SIMPLICITY,
    "simpq-simplicity": SIMPLICITY,
    "simpq-meaning": ([-0.3305218766090242, -0.37191240885188526, -0.34770149531065525], -0.35004526025718824),
    "simpq-fluency": ([-0.36778924047963246, -0.8571349249597241, -0.8571349249597241], -0.6940196967996936),
}


def test_values_change_only_with_the_formula_version():
    metric = load_registry(autoload=False, plugins=[plugin]).create_metric("simpq")
    scores = golden_scores(metric, GOLDEN_OUTPUTS_WITHOUT_ELLIPSIS)  # neural features: CPUs may differ in the last digits
    assert_golden_scores(metric, scores, VERSION, GOLDEN, tolerance=1e-5, update="write the new values here")
