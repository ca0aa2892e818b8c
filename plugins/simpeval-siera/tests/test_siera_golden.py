"""Golden values of ``siera`` with the shipped checkpoint, pinned with its ``formula_version`` (see
simpeval's ``tests/test_golden_values.py``): a change of numbers must come with a version bump."""

from __future__ import annotations

import pytest

from simpeval.registry import load_registry
from simpeval_siera import plugin

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
VERSION = "1"
GOLDEN = {
    "siera": ([0.5496697127819061, 0.9154505059123039, 0.9579290058463812], 0.8076830748468637),
    "siera-bwd": ([0.2361443042755127, 0.9169073551893234, 0.9384162835776806], 0.6971559810141722),
    "siera-fwd": ([0.8631951212882996, 0.9139936566352844, 0.9774417281150818], 0.9182101686795553),
}


def test_values_change_only_with_the_formula_version():
    metric = load_registry(autoload=False, plugins=[plugin]).create_metric("siera")
    assert type(metric).formula_version == VERSION, "siera's formula_version changed: write its new values here"
    sentences, corpus = metric.sentence_scores(SOURCES, OUTPUTS), metric.corpus_score(SOURCES, OUTPUTS)
    assert sentences.keys() == GOLDEN.keys()
    for key, (values, total) in GOLDEN.items():  # neural: CPUs may differ in the last digits
        assert (sentences[key], corpus[key]) == (pytest.approx(values, abs=1e-5), pytest.approx(total, abs=1e-5)), (
            f"siera: {key} changed but formula_version is still {VERSION!r}: bump it and write the new values here")
