"""Aggregated sentence metrics (Maddela & Alva-Manchego 2025): the grouping and the aggregation, worked by hand."""

from __future__ import annotations

import numpy as np
import pytest

from simpeval.metrics.aggregate import Group, aggregated, lexical_similarity, sentence_groups
from simpeval.metrics.base import Metric
from simpeval.metrics.sari import Sari
from simpeval.registry import load_registry

SOURCE = "The cat sat on the mat. The dog barked at the mailman. Birds flew away."
OUTPUT = "The cat sat on the mat. Birds flew away. It rained."
REFERENCE = "The cat sat on the mat. The dog barked."


class WordsOverReference(Metric):
    """Output words minus reference words: a sentence metric whose group scores are counted by eye."""

    name = "words-over-reference"
    requires_references = True

    def _score_items(self, sources, outputs, references=None):
        return {self.name: [len(o.split()) - len(r[0].split()) for o, r in zip(outputs, references)]}


def test_groups_from_similarities_by_hand():
    # inputs 0-3, outputs 0-2: input 0 splits into outputs 0 and 1 (one group), inputs 1 and 2 have no output
    # (one group of two deleted sentences in a row), input 3 -> output 2, and reference 0 links to input 1
    source_output = np.array([[0.9, 0.7, 0.0], [0.1, 0.0, 0.2], [0.0, 0.3, 0.0], [0.0, 0.0, 0.8]])
    source_reference = np.array([[0.0], [0.6], [0.0], [0.0]])
    assert sentence_groups(source_output, None, 0.5) == [
        Group((0,), (0, 1), ()), Group((1, 2), (), ()), Group((3,), (2,), ())]
    # with the reference, input 1 is linked (to reference 0) and no longer runs into input 2
    assert sentence_groups(source_output, source_reference, 0.5) == [
        Group((0,), (0, 1), ()), Group((1,), (), (0,)), Group((2,), (), ()), Group((3,), (2,), ())]
    # an output sentence nothing links to is a group of its own; outputs in a row merge
    assert sentence_groups(np.zeros((1, 2)), None, 0.5) == [Group((0,), (), ()), Group((), (0, 1), ())]


def test_lexical_similarity_is_the_dice_share_of_aligned_words():
    assert lexical_similarity("The cat sat on the mat.", "The cat sat on the mat.") == 1.0
    # "the dog barked" of six and three words: 3 aligned, 2 * 3 / (6 + 3)
    assert lexical_similarity("The dog barked at the mailman.", "The dog barked.") == pytest.approx(6 / 9)
    assert lexical_similarity("Birds flew away.", "It rained.") == 0.0


def test_aggregation_by_hand():
    """Lexical links: input 0 = output 0 = reference 0; input 1 ~ reference 1 (6/9); input 2 = output 1;
    output 2 ("It rained.") alone. Groups and their scores (output words - reference words):
    (in 0, out 0, ref 0): 6 - 6; (in 1, -, ref 1): 0 - 3; (in 2, out 1, -): 3 - 0; (-, out 2, -): 2 - 0.
    Mean 0.5. A second reference "Birds flew away." links to input 2 only: 6, 0, 3 - 3, 2: mean 2; the best
    reference counts."""
    metric = aggregated(WordsOverReference)()
    assert metric.sentence_scores([SOURCE], [OUTPUT], [[REFERENCE]]) == {"agg-words-over-reference": [0.5]}
    both = metric.sentence_scores([SOURCE], [OUTPUT], [[REFERENCE, "Birds flew away."]])
    assert both == {"agg-words-over-reference": [2.0]}


def test_agg_sari_is_sari_per_group():
    agg = load_registry(autoload=False).create_metric("agg-sari")
    groups = [("The cat sat on the mat.", "The cat sat on the mat.", ["The cat sat on the mat."]),
              ("The dog barked at the mailman.", "", ["The dog barked."]),
              ("Birds flew away.", "Birds flew away.", [""]), ("", "It rained.", [""])]
    sari = Sari().sentence_scores(*map(list, zip(*groups)))["sari"]
    assert agg.sentence_scores([SOURCE], [OUTPUT], [[REFERENCE]])["agg-sari"] == pytest.approx([np.mean(sari)])
    assert agg.signature().startswith("agg-sari|formula:1|lang:en|aligner:lexical|thr:0.5|sari_tok:13a")


def test_an_empty_document_is_scored_whole():
    metric = aggregated(WordsOverReference)()
    assert metric.sentence_scores([""], [""], [[""]]) == {"agg-words-over-reference": [0]}


def test_the_minilm_aligner_links_by_embeddings_and_names_its_encoder():
    agg = load_registry(autoload=False).create_metric("agg-bleu", {"aligner": "minilm"})
    assert "|aligner:minilm|thr:0.6|encoder:" in agg.signature()
    # the same sentences, in another order: every output sentence finds its input sentence
    score = agg.sentence_scores(["The cat sat on the mat. The stock market fell sharply today."],
                                ["The stock market fell sharply today. The cat sat on the mat."],
                                [["The cat sat on the mat. The stock market fell sharply today."]])["agg-bleu"]
    assert score == pytest.approx([100.0])


def test_the_bounds_decide_as_the_aligner_does():
    """With ``above``, the cheap bounds must put every pair on the same side of the threshold as the full share."""
    import json

    from simpeval.testing import shared_data_dir
    from simpeval.text import split_sentences

    folder = shared_data_dir("documents/dwiki-ratings") / "documents" / "dwiki-ratings"
    with open(folder / "dwiki_final.jsonl", encoding="utf-8") as handle:
        record = json.loads(handle.readline())
    pairs = [(a, b) for a in split_sentences(record["original"]) for b in split_sentences(record["simplification"])]
    assert len(pairs) > 20
    for threshold in (0.3, 0.5, 0.7):
        for a, b in pairs:
            assert (lexical_similarity(a, b, threshold) > threshold) == (lexical_similarity(a, b) > threshold)
