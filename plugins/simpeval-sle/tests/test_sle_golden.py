"""Golden values of ``sle`` and ``sle-delta`` with the shipped checkpoint, pinned with their
``formula_version`` (see simpeval's ``tests/test_golden_values.py``): a change of numbers must come
with a version bump."""

from __future__ import annotations

import pytest

from simpeval.registry import load_registry
from simpeval_sle import plugin

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
    "sle": ("1", ([1.1005319356918335, 1.4974724253018696, 1.6260350346565247], 1.4080131318834093)),
    "sle-delta": ("1", ([0.27075493335723877, 0.35666673382123304, 0.4170321822166443], 0.34815128313170535)),
}


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_values_change_only_with_the_formula_version(name):
    metric = load_registry(autoload=False, plugins=[plugin]).create_metric(name)
    version, (values, total) = GOLDEN[name]
    assert type(metric).formula_version == version, f"{name}: formula_version changed: write its new values here"
    sentences, corpus = metric.sentence_scores(SOURCES, OUTPUTS), metric.corpus_score(SOURCES, OUTPUTS)
    assert (sentences, corpus) == ({name: pytest.approx(values, abs=1e-5)}, {name: pytest.approx(total, abs=1e-5)}), (
        f"{name} changed but formula_version is still {version!r}: bump it and write the new values here")
