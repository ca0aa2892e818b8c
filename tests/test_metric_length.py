"""Length and compression statistics."""

from __future__ import annotations

import math

from simpeval.metrics.length import Length


def test_lengths_and_ratios() -> None:
    source = "The cat, which was old, sat on the mat."  # 39 characters, 12 tokens, 1 sentence
    output = "The cat was old. It sat."  # 24 characters, 8 tokens, 2 sentences
    scores = Length().score_sentences([source], [output])
    assert scores == {
        "length": [8.0],
        "length-sentences": [2.0],
        "length-compression": [24 / 39],
        "length-token-ratio": [8 / 12],
        "length-splits": [2.0],
    }


def test_empty_lines() -> None:
    scores = Length().score_sentences(["", "Some source."], ["Output.", ""])
    assert scores["length"] == [2.0, 0.0]
    assert math.isnan(scores["length-compression"][0])  # ratio over an empty source
    assert scores["length-compression"][1] == 0.0
    assert scores["length-splits"][1] == 0.0


def test_directions() -> None:
    assert not Length.is_higher_better("length")
    assert not Length.is_higher_better("length-compression")
    assert Length.is_higher_better("length-splits")
