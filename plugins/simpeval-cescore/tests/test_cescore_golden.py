"""Golden values of the CEScore metrics, pinned with their ``formula_version`` (see simpeval's
``tests/test_golden_values.py``): a change of numbers must come with a version bump, which renews
their score-cache keys."""

from __future__ import annotations

import pytest

from simpeval.registry import load_registry
from simpeval_cescore import plugin

SOURCES = [
    "About 95 species are currently accepted in the genus.",
    "The committee, which met on Tuesday, postponed its decision until further notice. It will meet again in May.",
    "He didn't go to the market because it was raining heavily.",
]
OUTPUTS = [
    "About 95 species are accepted.",
    "The committee met on Tuesday. It put off its decision. It will meet again in May.",
    "He did not go to the market. It was raining.",
]
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
    assert type(metric).formula_version == version, f"{name}: formula_version changed: write its new values here"
    sentences, corpus = metric.sentence_scores(SOURCES, OUTPUTS), metric.corpus_score(SOURCES, OUTPUTS)
    scores = {key: (values, corpus[key]) for key, values in sentences.items()}
    assert scores.keys() == pinned.keys()
    for key, (values, total) in pinned.items():
        assert scores[key] == (pytest.approx(values, rel=1e-9), pytest.approx(total, rel=1e-9)), (
            f"{name}: {key} changed but formula_version is still {version!r}: bump it and write the new values here")
