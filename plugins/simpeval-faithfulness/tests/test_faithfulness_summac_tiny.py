"""SummaC end to end through the real loading path, on a tiny NLI model the tests save to disk."""

from __future__ import annotations

import logging
import math

import numpy as np

import pytest
import torch

from simpeval import UsageError
from simpeval.testing import no_network
from simpeval_faithfulness.metrics import SummaCConv, SummaCZS

SOURCE = "the cat sat on the warm mat. it was a sunny day in june. the dog slept under the old tree."
OUTPUT = "a cat sat on a mat. the dog was asleep."


def zs(tiny_nli, **options) -> SummaCZS:
    return SummaCZS(model=tiny_nli, progress=False, **options)


@pytest.mark.slow
def test_single_sentences_match_the_model_run_directly(tiny_nli, direct_nli):
    src, out = "the cat sat on the mat.", "a cat was on a mat."
    scores = zs(tiny_nli).sentence_scores([src], [out])
    forward, backward = direct_nli(src, out), direct_nli(out, src)
    assert scores["summac-zs-p"][0] == pytest.approx(forward[0] - forward[1], abs=1e-6)
    assert scores["summac-zs-r"][0] == pytest.approx(backward[0] - backward[1], abs=1e-6)
    assert scores["summac-zs"] == scores["summac-zs-p"]
    assert scores["summac-zs-p"][0] != scores["summac-zs-r"][0]


def test_non_default_label_indices(tiny_nli, direct_nli):
    src, out = "the cat sat on the mat.", "a cat was on a mat."
    scores = zs(tiny_nli, entailment_idx=2, contradiction_idx=0).sentence_scores([src], [out])
    probabilities = direct_nli(src, out)
    assert scores["summac-zs-p"][0] == pytest.approx(probabilities[2] - probabilities[0], abs=1e-6)
    with pytest.raises(UsageError, match="entailment_idx=3 but the NLI model has 3 labels"):
        zs(tiny_nli, entailment_idx=3).sentence_scores([src], [out])


def test_documents_take_max_over_chunks_and_mean_over_sentences(tiny_nli, direct_nli):
    sources = ["the cat sat on the warm mat.", "it was a sunny day in june.", "the dog slept under the old tree."]
    outputs = ["a cat sat on a mat.", "the dog was asleep."]
    ent = np.array([[direct_nli(s, o)[0] for o in outputs] for s in sources])
    con = np.array([[direct_nli(s, o)[1] for o in outputs] for s in sources])
    expected = np.mean(ent.max(axis=0) - con.max(axis=0))
    scores = zs(tiny_nli).sentence_scores([SOURCE], [OUTPUT])
    assert scores["summac-zs-p"][0] == pytest.approx(expected, abs=1e-6)


def test_paragraph_premises(tiny_nli, direct_nli):
    paragraphs = ["the cat sat on the warm mat. it was a sunny day.", "the dog slept under the old tree."]
    output = "the dog was asleep."
    scores = zs(tiny_nli, granularity="paragraph").sentence_scores(["\n\n".join(paragraphs)], [output])
    expected = max(direct_nli(p, output)[0] for p in paragraphs) - max(direct_nli(p, output)[1] for p in paragraphs)
    assert scores["summac-zs-p"][0] == pytest.approx(expected, abs=1e-6)
    # recall: the output is the premise (one paragraph), the source's three sentences the hypotheses
    sentences = ["the cat sat on the warm mat.", "it was a sunny day.", "the dog slept under the old tree."]
    recall = np.mean([direct_nli(output, s)[0] - direct_nli(output, s)[1] for s in sentences])
    assert scores["summac-zs-r"][0] == pytest.approx(recall, abs=1e-6)


def test_recall_is_precision_with_the_roles_swapped(tiny_nli):
    metric = zs(tiny_nli)
    forward = metric.sentence_scores([SOURCE, "one more text here."], [OUTPUT, "and its output text."])
    swapped = metric.sentence_scores([OUTPUT, "and its output text."], [SOURCE, "one more text here."])
    assert forward["summac-zs-r"] == swapped["summac-zs-p"]
    assert forward["summac-zs-p"] == swapped["summac-zs-r"]


def test_batching_does_not_change_scores(tiny_nli):
    sources = [SOURCE, "short one here.", "the sun rose over the hills and the birds sang loudly."]
    outputs = [OUTPUT, "a short output.", "the sun rose. birds sang."]
    one = zs(tiny_nli, batch_size=1).sentence_scores(sources, outputs)
    many = zs(tiny_nli, batch_size=64).sentence_scores(sources, outputs)
    for key in one:
        np.testing.assert_allclose(one[key], many[key], atol=1e-5)


def test_long_premises_are_truncated_and_reported(tiny_nli, caplog):
    long_source = "the river ran past the mill " + "and then further on " * 10 + "to the sea."  # ~220 tokens
    with caplog.at_level(logging.WARNING, logger="simpeval.faithfulness"):
        scores = zs(tiny_nli, max_length=100).sentence_scores([long_source], ["the river ran."])
    assert "exceed max_length=100 tokens" in caplog.text
    assert all(-1.0 <= v <= 1.0 for v in scores["summac-zs-p"] + scores["summac-zs-r"])
    with pytest.raises(RuntimeError):  # the model has 128 positions: untruncated, the pair cannot run
        zs(tiny_nli, max_length=1000).sentence_scores([long_source], ["the river ran."])


def test_premise_chunks_are_capped_with_a_warning(tiny_nli, caplog):
    with caplog.at_level(logging.WARNING, logger="simpeval.faithfulness"):
        capped = zs(tiny_nli, max_chunks=2).sentence_scores([SOURCE], [OUTPUT])
    assert "1 of 2 premise texts have more than max_chunks=2" in caplog.text
    first_two = "the cat sat on the warm mat. it was a sunny day in june."
    assert capped["summac-zs-p"] == zs(tiny_nli).sentence_scores([first_two], [OUTPUT])["summac-zs-p"]


def test_empty_and_one_word_inputs(tiny_nli):
    scores = zs(tiny_nli).sentence_scores(["the cat sat on the mat.", "", "the cat sat on the mat."],
                                         ["", "something.", "Yes."])
    assert scores["summac-zs-p"][:2] == [0.0, 0.0] and scores["summac-zs-r"][:2] == [0.0, 0.0]
    assert scores["summac-zs-p"][2] != 0.0 and math.isfinite(scores["summac-zs-p"][2])


def test_conv_end_to_end(tiny_nli, tmp_path, direct_nli):
    weights = tmp_path / "conv.bin"
    torch.save({
        "mlp.weight": torch.ones(1, 4), "mlp.bias": torch.zeros(1),
        "layer_final.weight": torch.tensor([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]]),
        "layer_final.bias": torch.zeros(2),
    }, weights)
    metric = SummaCConv(model=tiny_nli, weights=str(weights), bins="even4", progress=False)
    src, out = "the cat sat on the mat.", "a cat was on a mat."
    scores = metric.sentence_scores([src], [out])
    # One premise chunk and one hypothesis: the histogram has a single count, so the row value is 1
    # whatever the probability, and the score is sigmoid(1).
    assert scores["summac-conv-p"][0] == pytest.approx(1 / (1 + math.exp(-1)))
    assert scores["summac-conv-f1"][0] == pytest.approx(scores["summac-conv-p"][0])
    assert scores["summac-conv"] == scores["summac-conv-p"]
    with pytest.raises(UsageError, match="pass weights=PATH"):
        SummaCConv(model=tiny_nli).sentence_scores([src], [out])


def test_conv_documents_histogram_each_output_sentence(tiny_nli, tmp_path, direct_nli):
    weights = tmp_path / "conv4.bin"
    torch.save({
        "mlp.weight": torch.tensor([[1.0, 2.0, 3.0, 4.0]]), "mlp.bias": torch.tensor([-2.0]),
        "layer_final.weight": torch.tensor([[0.0, 0.0, 0.0], [0.5, 0.0, 0.0]]),
        "layer_final.bias": torch.tensor([0.0, 0.1]),
    }, weights)
    sources = ["the cat sat on the warm mat.", "it was a sunny day in june.", "the dog slept under the old tree."]
    outputs = ["a cat sat on a mat.", "the dog was asleep."]
    rows = []
    for output in outputs:  # entailment at index 0 of each (source sentence, output sentence) pair
        counts = np.histogram([direct_nli(s, output)[0] for s in sources], bins=[0, 0.25, 0.5, 0.75, 1])[0]
        rows.append(counts @ np.array([1.0, 2.0, 3.0, 4.0]) - 2.0)
    expected = 1 / (1 + math.exp(-(0.5 * np.mean(rows) + 0.1)))
    metric = SummaCConv(model=tiny_nli, weights=str(weights), bins="even4", progress=False)
    forward = metric.sentence_scores([SOURCE], [OUTPUT])
    assert forward["summac-conv-p"][0] == pytest.approx(expected, abs=1e-6)
    backward = metric.sentence_scores([OUTPUT], [SOURCE])
    assert backward["summac-conv-r"] == forward["summac-conv-p"]
    assert backward["summac-conv-p"] == forward["summac-conv-r"]


def test_unknown_device_is_a_usage_error(tiny_nli):
    with pytest.raises(UsageError, match="pass device=cpu"):
        zs(tiny_nli, device="no-such-device").sentence_scores(["the cat sat."], ["a cat sat."])


def test_default_model_fails_at_once_with_one_line_and_no_download(monkeypatch, tmp_path):
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    with no_network(), pytest.raises(UsageError) as error:
        SummaCZS(progress=False).sentence_scores(["the cat sat."], ["a cat sat."])
    assert str(error.value) == (
        f'model "tals/albert-xlarge-vitaminc-mnli" is neither a local path nor in the Hugging Face cache ({tmp_path}): '
        "pass model=PATH of a local copy, or download it once with `hf download tals/albert-xlarge-vitaminc-mnli`"
    )


def test_only_long_pairs_are_truncated_and_they_match_a_direct_truncated_run(tiny_nli):
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    from simpeval_faithfulness.nli import predict_probabilities

    long_source = "the river ran past the mill " + "and then further on " * 10 + "to the sea."
    pairs = [("the cat sat.", "a cat."), (long_source, "the river ran."), ("a dog.", "the dog barked.")]
    tokenizer = AutoTokenizer.from_pretrained(tiny_nli)
    model = AutoModelForSequenceClassification.from_pretrained(tiny_nli).eval()
    expected = []
    for premise, hypothesis in pairs:
        encoded = tokenizer(premise, hypothesis, truncation="longest_first", max_length=100, return_tensors="pt")
        with torch.no_grad():
            expected.append(torch.softmax(model(**encoded).logits, dim=-1)[0].tolist())
    assert len(tokenizer(long_source, "the river ran.")["input_ids"]) > 100  # really cut
    np.testing.assert_allclose(predict_probabilities(pairs, tiny_nli, max_length=100), expected, atol=1e-5)
