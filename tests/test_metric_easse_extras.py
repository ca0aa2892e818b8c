"""``sent-bleu`` and ``f1-token``, EASSE's two extra reference-based metrics, against their oracles:
sacrebleu's own sentence BLEU (what EASSE calls) and the cases of EASSE's ``tests/test_compression.py``."""

from __future__ import annotations

import numpy as np
import pytest
from sacrebleu.metrics import BLEU

from simpeval.datasets.testsets import load_test_set
from simpeval.metrics.bleu import SentBleu
from simpeval.metrics.f1_token import F1Token

SYS = "A mother and her teenage son are accused of committing one robbery"
REF1 = "A mother are accused of committing one local robbery"
REF2 = "A mother accused of committing robbery"


def test_sent_bleu_is_the_mean_of_sacrebleu_sentence_bleu(data_dir):
    test_set = load_test_set(data_dir, "turkcorpus_test")
    outputs = (data_dir / "system_outputs/turkcorpus/test/Dress-Ls").read_text(encoding="utf-8").splitlines()
    scorer = BLEU(tokenize="13a", smooth_method="floor", effective_order=True)
    expected = np.mean([scorer.sentence_score(o, r).score for o, r in zip(outputs, test_set.references)])
    corpus = SentBleu().corpus_score(test_set.sources, outputs, test_set.references)["sent-bleu"]
    assert corpus == pytest.approx(expected, abs=1e-9)


def test_f1_token_single_reference_as_easse_tests_it():
    # 8 shared tokens, 12 in the output, 9 in the reference
    precision, recall = 8 / 12, 8 / 9
    expected = 100 * 2 * precision * recall / (precision + recall)
    assert F1Token().corpus_score(["x"], [SYS], [[REF1]])["f1-token"] == pytest.approx(expected)


def test_f1_token_keeps_the_best_reference():
    f1_ref2 = 2 * (6 / 12) * (6 / 6) / ((6 / 12) + (6 / 6))
    assert F1Token().sentence_scores(["x"], [SYS], [[REF2]])["f1-token"] == [pytest.approx(100 * f1_ref2)]
    both = F1Token().sentence_scores(["x"], [SYS], [[REF2, REF1]])["f1-token"][0]
    assert both == pytest.approx(100 * 2 * (8 / 12) * (8 / 9) / (8 / 12 + 8 / 9))


def test_f1_token_lowercases_by_default_and_scores_empty_outputs_zero():
    assert F1Token().sentence_scores(["x"], ["THE CAT"], [["the cat"]])["f1-token"] == [100.0]
    assert F1Token(lowercase=False).sentence_scores(["x"], ["THE CAT"], [["the cat"]])["f1-token"] == [0.0]
    assert F1Token().sentence_scores(["x"], [""], [["the cat"]])["f1-token"] == [0.0]
