"""Golden values of the CEScore metrics, pinned with their ``formula_version`` (see simpeval's
``tests/test_golden_values.py``): a change of numbers must come with a version bump, which renews
their score-cache keys."""

from __future__ import annotations

import pytest

from simpeval.registry import load_registry
from simpeval.testing import GOLDEN_OUTPUTS_WITHOUT_ELLIPSIS, assert_golden_scores, golden_scores
from simpeval_cescore import plugin

GOLDEN = {
    "cescore": ("1", {
        "cescore": ([0.42236065662214956, 0.1634140484941586, 0.1666046453369389], 0.250793116817749),
        "cescore-g": ([0.3375, 0.0, 0.0], 0.1125),
        "cescore-m": ([0.6914215330901338, 0.6239609024011822, 0.7243314906737778], 0.6799046420550313),
        "cescore-s": ([0.5047842784798733, 0.6360629538476738, 0.5963749825340067], 0.5790740716205178),
    }),
    "cescore-tss": ("1", {
        "cescore-asf": ([3.3655325737083333, 5.219881655814583, 6.378094656011111], 4.987836295178009),
        "cescore-sls": ([0.8532096601986177, 0.34073961154861454, 0.6592603884513855], 0.6177365533995393),
        "cescore-tss": ([5.228979790828686, 6.105938959007986, 7.53873540223051], 6.291218050689061),
    }),
    "cescore-semimatch": ("1", {
        "cescore-semimatch": ([0.3375, 0.17721028971028968, 0.03571428571428571], 0.18347485847485848),
    }),
}


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_values_change_only_with_the_formula_version(name):
    metric = load_registry(autoload=False, plugins=[plugin]).create_metric(name)
    version, pinned = GOLDEN[name]
    scores = golden_scores(metric, GOLDEN_OUTPUTS_WITHOUT_ELLIPSIS)
    assert_golden_scores(metric, scores, version, pinned, setting=name, update="write the new values here")
