"""``meaningbert``: the authors' published checkpoint format, scored as their model card scores it.

``tests/data/meaningbert-tiny`` was written by ``benchmarks/meaningbert_parity.py``: a random
one-output ``BertForSequenceClassification`` saved with ``save_pretrained`` (transformers 4.45),
as ``davebulaval/MeaningBERT`` is. The values below are what the authors' documented procedure
(``tokenizer(documents, simplifications, truncation=True, padding=True)``, the logits) gave on it
in a separate environment (``benchmarks/results/meaningbert_parity.json``).
"""

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import simpeval
from simpeval.cli import cli
from simpeval_faithfulness.metrics import MeaningBert

DATA = Path(__file__).parent / "data" / "meaningbert-tiny"
SOURCES = [
    "He wanted to make them pay.",
    "This sandwich looks delicious.",
    "He wants to eat.",
    "The municipality subsequently constructed an enormous bridge over the river, and the cat sat on the mat "
    "while the dog ran around the city.",
    "She ran to the city.",
]
OUTPUTS = [
    "He wanted to make them pay.",
    "This sandwich looks delicious.",
    "Whatever, whenever, this is a sentence.",
    "The cat sat. The dog ran.",
    "The city is where she ran to, and the dog sat on the mat; the cat wanted to eat a sandwich.",
]
# the model card's call with (documents=SOURCES, simplifications=OUTPUTS), and with the two swapped
AUTHORS = [48.289039611816406, 49.595916748046875, 86.75101470947266, 133.18568420410156, 95.21722412109375]
AUTHORS_SWAPPED = [48.289039611816406, 49.595916748046875, 98.75835418701172, 68.19761657714844, 109.65958404541016]
TOLERANCE = 1e-4  # the authors' own batch and one-pair-at-a-time results differ by 3e-5 (padding)


@pytest.mark.parametrize("batch_size", [1, 2, 32])
def test_scores_equal_the_authors_procedure_whatever_the_batches(batch_size):
    scores = MeaningBert(model=str(DATA), batch_size=batch_size).sentence_scores(SOURCES, OUTPUTS)["meaningbert"]
    assert scores == pytest.approx(AUTHORS, abs=TOLERANCE)


def test_the_source_is_the_first_segment():
    metric = MeaningBert(model=str(DATA))
    forward = metric.sentence_scores(SOURCES, OUTPUTS)["meaningbert"]
    backward = metric.sentence_scores(OUTPUTS, SOURCES)["meaningbert"]
    assert backward == pytest.approx(AUTHORS_SWAPPED, abs=TOLERANCE)
    assert abs(forward[2] - backward[2]) > 10  # the order reaches the network: (source, output) is the authors'


def test_the_scale_is_the_logit_itself_and_clip_bounds_it_to_0_100():
    raw = MeaningBert(model=str(DATA)).sentence_scores(SOURCES, OUTPUTS)["meaningbert"]
    assert raw[3] > 100  # nothing rescales or clips by default, as in the model card
    clipped = MeaningBert(model=str(DATA), clip=True).sentence_scores(SOURCES, OUTPUTS)["meaningbert"]
    assert clipped[3] == 100.0 and clipped[:3] == raw[:3] and clipped[4] == raw[4]
    assert "clip:yes" in MeaningBert(model=str(DATA), clip=True).signature()


def test_pytorch_model_bin_and_the_hub_cache_layout_load_too(tmp_path, monkeypatch):
    import torch
    from safetensors.torch import load_file

    snapshot = tmp_path / "hub" / "models--davebulaval--MeaningBERT" / "snapshots" / "abc123"
    shutil.copytree(DATA, snapshot)
    state = load_file(str(snapshot / "model.safetensors"))
    (snapshot / "model.safetensors").unlink()
    torch.save(state, snapshot / "pytorch_model.bin")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    assert MeaningBert.missing_weights() == []
    metric = MeaningBert()
    assert metric.signature().startswith("meaningbert|formula:1|lang:en|model:davebulaval/MeaningBERT@")
    scores = metric.sentence_scores(SOURCES[2:4], OUTPUTS[2:4])["meaningbert"]
    assert scores == pytest.approx(AUTHORS[2:4], abs=TOLERANCE)


def test_a_pickled_object_in_the_weights_is_never_unpickled(tmp_path):
    import torch

    shutil.copytree(DATA, tmp_path / "m")
    (tmp_path / "m" / "model.safetensors").unlink()
    torch.save({"classifier.weight": Path("x")}, tmp_path / "m" / "pytorch_model.bin")
    with pytest.raises(simpeval.UsageError, match="never unpickles"):
        MeaningBert(model=str(tmp_path / "m")).sentence_scores(["a"], ["b"])


def test_the_signature_follows_the_content_not_the_path(tmp_path):
    shutil.copytree(DATA, tmp_path / "meaningbert-tiny")
    before = MeaningBert(model=str(tmp_path / "meaningbert-tiny")).signature()
    assert before == MeaningBert(model=str(DATA)).signature() and str(tmp_path) not in before
    config = tmp_path / "meaningbert-tiny" / "config.json"
    config.write_text(config.read_text() + "\n")
    assert MeaningBert(model=str(tmp_path / "meaningbert-tiny")).signature() != before


def test_missing_weights_are_one_line_with_where_to_put_them(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    (tmp_path / "o.txt").write_text("The cat sat.\n")
    result = CliRunner().invoke(cli, ["evaluate", "--orig", str(tmp_path / "o.txt"), "--sys", str(tmp_path / "o.txt"),
                                      "-m", "meaningbert"])
    assert result.exit_code == 2
    message = result.output.strip()
    assert len(message.splitlines()) == 1 and "Traceback" not in message
    assert "-m meaningbert:model=DIR" in message and str(tmp_path / "models--davebulaval--MeaningBERT") in message
    assert "config.json" in message
    assert MeaningBert.missing_weights() == ["davebulaval/MeaningBERT"]


def test_another_classifier_is_refused(tiny_nli):
    with pytest.raises(simpeval.UsageError, match="not MeaningBERT's one-output BertForSequenceClassification"):
        MeaningBert(model=tiny_nli).sentence_scores(["a"], ["b"])


def test_metrics_show_prints_the_card_headline():
    result = CliRunner().invoke(cli, ["metrics", "show", "meaningbert"])
    assert result.exit_code == 0, result.output
    assert "trained on: simpda-2022, simplicity-da" in result.output
    assert "Continuous Scale Meaning Dataset" in result.output and "meaningbert.md" in result.output
    assert MeaningBert.neural and not MeaningBert.requires_references
