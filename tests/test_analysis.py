"""Word-level operations (``--analysis``) on hand-made examples whose labels are known."""

from __future__ import annotations

import pytest

from simpeval.analysis import align_words, analyse_operations, label_f1, operation_counts, reference_agreement
from simpeval.metrics.operations import Operations, OperationsF1


def labels(source: str, output: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    alignment = align_words(source.split(), output.split())
    return alignment.source_labels, alignment.output_labels


def test_a_copy_keeps_every_word():
    assert labels("The cat sat .", "the cat sat .") == (("kept",) * 4, ("kept",) * 4)


def test_deletions():
    src, out = labels("The cat sat on the mat .", "The cat sat .")
    assert src == ("kept", "kept", "kept", "deleted", "deleted", "deleted", "kept")
    assert out == ("kept",) * 4


def test_replacements_are_a_deletion_and_an_addition_at_the_same_place():
    src, out = labels("He bought an automobile .", "He bought a car .")
    assert src == ("kept", "kept", "replaced", "replaced", "kept")
    assert out == ("kept", "kept", "replaced", "replaced", "kept")
    assert align_words("He bought an automobile .".split(), "He bought a car .".split()).pairs == (
        (0, 0), (1, 1), (2, 2), (3, 3), (4, 4))


def test_a_word_that_changes_place_is_moved():
    src, out = labels("Yesterday I went home .", "I went home yesterday .")
    assert src == ("moved", "kept", "kept", "kept", "kept")
    assert out == ("kept", "kept", "kept", "moved", "kept")


def test_additions():
    src, out = labels("It rained .", "It rained a lot .")
    assert src == ("kept", "kept", "kept") and out == ("kept", "kept", "added", "added", "kept")


def test_uneven_stretches_pair_in_order_and_leave_the_rest():
    src, out = labels("The very big dog barked .", "The huge dog barked loudly .")
    assert src == ("kept", "replaced", "deleted", "kept", "kept", "kept")
    assert out == ("kept", "replaced", "kept", "kept", "added", "kept")


def test_counts_and_corpus_proportions_pool_the_items():
    first = operation_counts("The cat sat on the mat .".split(), "The cat sat .".split())
    second = operation_counts("It rained .".split(), "It rained a lot .".split())
    assert first == (4, 3, 0, 0, 7, 0, 4) and second == (3, 0, 0, 0, 3, 2, 5)
    corpus = analyse_operations(["The cat sat on the mat .".split(), "It rained .".split()],
                                ["The cat sat .".split(), "It rained a lot .".split()])
    assert corpus.proportions == {"kept": 7 / 10, "deleted": 3 / 10, "replaced": 0.0, "moved": 0.0, "added": 2 / 9}
    assert corpus.reference_f1 is None


def test_label_f1_follows_scikit_learn():
    ref = ["kept", "deleted", "deleted", "kept"]
    sys = ["kept", "deleted", "kept", "kept"]
    assert label_f1(ref, sys, "deleted") == pytest.approx(2 * 1 / (2 + 1))
    assert label_f1(ref, sys, "kept") == pytest.approx(2 * 2 / (2 + 3))
    assert label_f1(ref, sys, "moved") == 0.0  # absent on both sides: 0, as sklearn's f1_score


def test_agreement_with_the_references_takes_the_best_reference_per_operation():
    source = "The cat sat on the mat .".split()
    output = "The cat sat .".split()
    refs = ["The cat sat .".split(), "The cat sat on the mat .".split()]
    f1 = reference_agreement(source, output, refs)
    assert f1 == {"kept": 1.0, "deleted": 1.0, "replaced": 0.0, "moved": 0.0}
    # against the copy alone: kept 2*4/(4+7); nothing deleted in the reference
    only_copy = reference_agreement(source, output, refs[1:])
    assert only_copy["kept"] == pytest.approx(8 / 11) and only_copy["deleted"] == 0.0


def test_metrics_wrap_the_analysis():
    sources, outputs = ["The cat sat on the mat .", "It rained ."], ["The cat sat .", "It rained a lot ."]
    corpus = Operations().corpus_score(sources, outputs)
    assert corpus["ops-kept"] == pytest.approx(0.7) and corpus["ops-added"] == pytest.approx(2 / 9)
    sentences = Operations().sentence_scores(sources, outputs)
    assert sentences["ops-deleted"] == [pytest.approx(3 / 7), 0.0]
    f1 = OperationsF1().sentence_scores(sources, outputs, [["The cat sat ."], ["It rained a lot ."]])
    assert f1["ops-f1-kept"] == [100.0, 100.0] and f1["ops-f1-deleted"] == [100.0, 0.0]
