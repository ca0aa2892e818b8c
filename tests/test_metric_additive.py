"""A metric with additive statistics implements two steps and gets its item and corpus scores."""

from __future__ import annotations

import math

import pytest

from simpeval.metrics.base import AdditiveMetric
from simpeval.metrics.bleu import Bleu, BleuSource
from simpeval.metrics.fkgl import Fkgl
from simpeval.metrics.operations import Operations
from simpeval.metrics.sari import Sari, SariLegacy

SOURCES = ["The cat sat on the mat .", "It was a very sunny day in the old town ."]
OUTPUTS = ["The cat sat .", "It was sunny in the town ."]
REFERENCES = [["The cat sat on a mat .", "A cat sat ."], ["It was sunny .", "The day was sunny in town ."]]


class WordShare(AdditiveMetric):
    """Words of the output per word of the source: two counts per item."""

    name = "word-share"

    def _item_statistics(self, sources, outputs, references=None):
        return [(len(o.split()), len(s.split())) for s, o in zip(sources, outputs)]

    def _score_from_totals(self, totals):
        return {self.name: totals[0] / totals[1]}


def test_two_steps_give_item_and_corpus_scores_and_statistics():
    metric = WordShare()
    assert metric.sentence_scores(SOURCES, OUTPUTS) == {"word-share": [4 / 7, 7 / 11]}
    assert metric.corpus_score(SOURCES, OUTPUTS) == {"word-share": 11 / 18}  # pooled, not the mean
    assert metric.corpus_level and metric.has_statistics()
    assert metric.corpus_score_from_statistics([11, 18]) == {"word-share": 11 / 18}


def test_no_item_has_no_score():
    assert math.isnan(WordShare().corpus_score([], [])["word-share"])


def test_a_metric_with_only_one_of_the_two_steps_cannot_be_made():
    class CountsOnly(AdditiveMetric):
        name = "counts-only"

        def _item_statistics(self, sources, outputs, references=None):
            return [(1,) for _ in outputs]

    with pytest.raises(TypeError, match="_score_from_totals"):
        CountsOnly()


@pytest.mark.parametrize("cls", [Bleu, BleuSource, Sari, SariLegacy, Fkgl, Operations])
def test_built_in_metrics_score_items_and_corpus_from_one_formula(cls):
    metric = cls()
    assert isinstance(metric, AdditiveMetric)
    statistics = metric.corpus_statistics(SOURCES, OUTPUTS, REFERENCES)
    totals = [sum(column) for column in zip(*statistics)]
    assert metric.corpus_score(SOURCES, OUTPUTS, REFERENCES) == metric.corpus_score_from_statistics(totals)
    per_item = metric.sentence_scores(SOURCES, OUTPUTS, REFERENCES)
    for i, item in enumerate(statistics):
        assert {key: values[i] for key, values in per_item.items()} == metric._score_from_item(item)


def test_sentence_bleu_smooths_where_corpus_bleu_does_not():
    metric = Bleu()
    [item] = metric.corpus_statistics(["a b c d"], ["a x c y"], [["a b c d"]])
    assert metric._score_from_item(item) != metric._score_from_totals(item)


def test_counting_pauses_the_garbage_collector_and_restores_it():
    """The additive metrics count with Python's cyclic collector paused (it would walk every object the
    process holds at each collection their allocations trigger), and leave it as they found it."""
    import gc

    from simpeval.store import gc_paused

    seen = []

    class Recording(WordShare):
        def _item_statistics(self, sources, outputs, references=None):
            seen.append(gc.isenabled())
            return super()._item_statistics(sources, outputs, references)

    metric = Recording()
    assert gc.isenabled()
    metric.sentence_scores(SOURCES, OUTPUTS)
    metric.corpus_score(SOURCES, OUTPUTS)
    metric.corpus_statistics(SOURCES, OUTPUTS)
    assert seen == [False, False, False] and gc.isenabled()
    with pytest.raises(ZeroDivisionError):
        with gc_paused():
            1 / 0
    assert gc.isenabled()
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()  # paused by someone else: stays so
    finally:
        gc.enable()
