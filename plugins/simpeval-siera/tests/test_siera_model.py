"""The ranking model on a tiny BERT: training lowers the loss, scores are antisymmetric, checkpoints round-trip."""

import random

import pytest
import torch
from simpeval_siera.features import FeatureCache
from simpeval_siera.inference import second_simpler_probability, siera_scores
from simpeval_siera.model import load_checkpoint
from simpeval_siera.training import (
    TrainSettings,
    both_orders,
    grouped_split,
    shuffled_batches,
    train_model,
    validation_loss,
)


def examples(sentences):
    return both_orders((complex_, simple, group) for group, (complex_, simple) in enumerate(sentences))


def test_both_orders_labels_the_position_of_the_simpler_sentence():
    first, second = both_orders([("hard one", "easy", 7)])
    assert (first.first, first.second, first.label, first.group) == ("hard one", "easy", 1, 7)
    assert (second.first, second.second, second.label) == ("easy", "hard one", 0)


def test_grouped_split_keeps_each_source_on_one_side(sentences):
    train, valid = grouped_split(examples(sentences) * 2, 0.34, seed=1)
    assert len({e.group for e in valid}) == 2
    assert not {e.group for e in train} & {e.group for e in valid}


def test_batches_keep_both_orders_of_a_pair_together(sentences):
    data = examples(sentences)
    batches = shuffled_batches(data, [len(e.first) for e in data], 4, random.Random(0))
    assert sorted(i for batch in batches for i in batch) == list(range(len(data)))
    assert [len(batch) for batch in batches] == [4, 4, 4]
    for batch in batches:
        keys = [tuple(sorted((data[i].first, data[i].second))) for i in batch]
        assert all(keys.count(key) == 2 for key in keys)
        assert sorted(data[i].label for i in batch) == [0, 0, 1, 1]


@pytest.mark.slow
def test_a_few_training_steps_reduce_the_loss(tiny_model, sentences):
    model, tokenizer = tiny_model
    data = examples(sentences)
    cache = FeatureCache(model, tokenizer)
    assert cache.add((e.first, e.second) for e in data) == len(data)
    model.reset_trained(0)
    before = validation_loss(model, cache, data, 8)
    report = train_model(model, cache, data, data, TrainSettings(learning_rate=1e-2, batch_size=4, max_epochs=15,
                                                                  patience=15), log=lambda _: None)
    assert report.best_value == pytest.approx(validation_loss(model, cache, data, 8), abs=1e-6)
    assert report.best_value < before - 0.05


def test_cached_path_matches_the_full_model(tiny_model, sentences):
    model, tokenizer = tiny_model
    pairs = sentences[:3]
    cache = FeatureCache(model, tokenizer)
    cache.add(pairs)
    model.eval()
    hidden, mask = cache.batch(pairs)
    cached = torch.softmax(model(hidden, mask), dim=-1)[:, 1].tolist()
    assert cached == pytest.approx(second_simpler_probability(model, tokenizer, pairs), abs=1e-3)


def test_two_way_is_the_mean_of_both_reads_and_antisymmetric(tiny_model, sentences):
    model, tokenizer = tiny_model
    a, b = sentences[0]
    scores = siera_scores(model, tokenizer, [a, b], [b, a])
    assert scores["two_way"][0] == pytest.approx((scores["forward"][0] + scores["backward"][0]) / 2, abs=1e-12)
    assert scores["backward"][0] == pytest.approx(1 - scores["forward"][1], abs=1e-12)
    assert scores["two_way"][0] + scores["two_way"][1] == pytest.approx(1.0, abs=1e-12)
    assert scores["forward"][0] != pytest.approx(0.5, abs=1e-6)


def test_checkpoint_round_trip_gives_the_same_scores(tiny_model, sentences, tmp_path):
    model, tokenizer = tiny_model
    model.reset_trained(5)
    sources, outputs = [c for c, _ in sentences], [s for _, s in sentences]
    before = siera_scores(model, tokenizer, sources, outputs)
    (tmp_path / "ckpt").mkdir()
    others = tmp_path / "ckpt" / ".model.safetensors.tmp"  # another save's file in progress, under the old fixed name
    others.write_bytes(b"someone else's weights")
    model.save(tmp_path / "ckpt")
    assert others.read_bytes() == b"someone else's weights"  # saves never share a temporary name
    others.unlink()
    assert sorted(p.name for p in (tmp_path / "ckpt").iterdir()) == ["model.safetensors", "siera_config.json"]
    loaded = load_checkpoint(tmp_path / "ckpt")
    assert siera_scores(loaded, tokenizer, sources, outputs) == before


def test_bfloat16_autocast_stays_close_and_antisymmetric(tiny_model, sentences):
    model, tokenizer = tiny_model
    model.reset_trained(1)
    sources, outputs = [c for c, _ in sentences], [s for _, s in sentences]
    exact = siera_scores(model, tokenizer, sources + outputs, outputs + sources)
    fast = siera_scores(model, tokenizer, sources + outputs, outputs + sources, precision="bfloat16")
    assert fast["two_way"] == pytest.approx(exact["two_way"], abs=0.02)
    half = len(sources)
    assert [a + b for a, b in zip(fast["two_way"][:half], fast["two_way"][half:])] == pytest.approx([1.0] * half, abs=1e-12)


@pytest.mark.parametrize(
    ("config", "weights", "problem"),
    [
        ("{", None, "JSONDecodeError"),
        ({"colour": "red"}, None, "TypeError: SieraConfig.__init__() got an unexpected keyword argument 'colour'"),
        ({}, b"not safetensors", "SafetensorError"),
        ({}, {"head.unknown": torch.zeros(1)}, "RuntimeError"),
    ],
)
def test_a_broken_checkpoint_is_a_usage_error(tiny_encoder, tmp_path, config, weights, problem):
    import json

    from safetensors.torch import save_file

    import simpeval

    text = config if isinstance(config, str) else json.dumps({"encoder": tiny_encoder, **config})
    (tmp_path / "siera_config.json").write_text(text)
    if isinstance(weights, dict):
        save_file(weights, str(tmp_path / "model.safetensors"))
    else:
        (tmp_path / "model.safetensors").write_bytes(weights or b"")
    with pytest.raises(simpeval.UsageError) as caught:
        load_checkpoint(tmp_path)
    message = str(caught.value)
    assert message.startswith(f"{tmp_path} holds a broken SIERA checkpoint ({problem}")
    assert message.endswith("save it again with `simpeval train siera`") and "\n" not in message


def test_first_token_state_is_the_whole_layer_read_at_cls(tiny_model, sentences):
    from simpeval_siera.features import tokenize_pairs
    from simpeval_siera.model import first_token_state
    from transformers.masking_utils import create_bidirectional_mask

    model, tokenizer = tiny_model
    model.reset_trained(3)
    model.eval()
    rows = tokenize_pairs(tokenizer, sentences, 64)  # pairs of different lengths: the batch is padded
    padded = tokenizer.pad(rows, return_tensors="pt")
    assert not bool(padded["attention_mask"].all())
    with torch.inference_mode():
        hidden = model.encode_bottom(**padded)
        mask = create_bidirectional_mask(config=model.bottom.config, inputs_embeds=hidden,
                                         attention_mask=padded["attention_mask"])
        whole = model.top[-1](hidden, attention_mask=mask)[:, 0]
        first = first_token_state(model.top[-1], hidden, mask)
        unpadded = first_token_state(model.top[-1], hidden[:1, : len(rows[0]["input_ids"])], None)
    assert first.shape == (len(sentences), hidden.shape[-1])
    assert torch.allclose(first, whole, atol=1e-6, rtol=0)
    assert torch.allclose(unpadded[0], whole[0], atol=1e-6, rtol=0)
    assert not torch.allclose(first[0], hidden[0, 0], atol=1e-3)  # the layer did change the state
