"""Length and compression statistics."""

from __future__ import annotations

import math

from simpeval.metrics.length import Length


def test_lengths_and_ratios() -> None:
    source = "The cat, which was old, sat on the mat."  # 12 tokens, 1 sentence
    output = "The cat was old. It sat."  # 8 tokens, 2 sentences
    # EASSE measures the 13a-tokenised text: "The cat , which was old , sat on the mat ." has
    # 42 characters, "The cat was old . It sat ." 26
    scores = Length().sentence_scores([source], [output])
    assert scores == {
        "length": [8.0],
        "length-sentences": [2.0],
        "length-compression": [26 / 42],
        "length-token-ratio": [8 / 12],
        "length-splits": [2.0],
    }
    raw = Length(normalize=False).sentence_scores([source], [output])
    assert raw["length-compression"] == [24 / 39]  # the raw text: 39 and 24 characters


def test_easse_ratios_on_the_access_outputs(data_dir) -> None:
    # EASSE's corpus_quality_estimation on ACCESS (TurkCorpus test): compression ratio 0.94079
    # (quoted in issue 12 from EASSE), sentence splits 1.2000928505106778 (NLTK's Punkt; see
    # tests/test_metric_qe.py for why issue 12's 1.2015 is not EASSE's)
    from simpeval.datasets.testsets import load_test_set

    sources = load_test_set(data_dir, "turkcorpus_test").sources
    outputs = (data_dir / "system_outputs/turkcorpus/test/ACCESS").read_text(encoding="utf-8").splitlines()
    scores = Length().corpus_score(sources, outputs)
    assert round(scores["length-compression"], 5) == 0.94079
    assert abs(scores["length-splits"] - 1.2000928505106778) < 1e-12


def test_empty_lines() -> None:
    scores = Length().sentence_scores(["", "Some source."], ["Output.", ""])
    assert scores["length"] == [2.0, 0.0]
    assert math.isnan(scores["length-compression"][0])  # ratio over an empty source
    assert scores["length-compression"][1] == 0.0
    assert scores["length-splits"][1] == 0.0


def test_directions() -> None:
    assert not Length.is_higher_better("length")
    assert not Length.is_higher_better("length-compression")
    assert Length.is_higher_better("length-splits")
