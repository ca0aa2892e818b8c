"""The layer mix, the variants' losses, training on cached embeddings and checkpoints, on a tiny BERT."""

import numpy as np
import pytest
import torch
from simpeval import UsageError

from simpeval_lens.data import ASSET_REFERENCE_SYSTEMS, grouped_split, make_example, simpeval_past_examples
from simpeval_lens.encoder import encode_layers, layer_count
from simpeval_lens.inference import lens_scores, to_percent
from simpeval_lens.model import LensConfig, LensModel, load_checkpoint
from simpeval_lens.settings import TrainSettings
from simpeval_lens.training import featurize, predict, train


def _config(encoder, variant="lens"):
    return LensConfig(encoder=encoder, layers=layer_count(encoder), hidden=32, variant=variant,
                      head_hidden=16, projection=8)


@pytest.mark.slow
def test_pooled_layers_are_mean_pooled_hidden_states(tiny_encoder):
    from transformers import AutoModel, AutoTokenizer

    tokenizer, model = AutoTokenizer.from_pretrained(tiny_encoder), AutoModel.from_pretrained(tiny_encoder).eval()
    texts = ["the cat sat .", "the big old dog ran on the mat .", "the cat sat ."]
    table = encode_layers(tiny_encoder, texts, batch_size=2)
    assert table.shape == (3, 3, 32) and torch.equal(table[0], table[2])
    with torch.no_grad():
        states = model(**tokenizer(texts[1], return_tensors="pt"), output_hidden_states=True).hidden_states
    expected = torch.stack([s[0].mean(0) for s in states])
    assert torch.allclose(table[1], expected, atol=1e-5)  # padding in its batch changes nothing


def test_mixing_pooled_layers_equals_pooling_mixed_states():
    model = LensModel(LensConfig(layers=3, hidden=4))
    with torch.no_grad():
        model.layer_weights.copy_(torch.tensor([0.5, -1.0, 2.0]))
        model.gamma.fill_(1.5)
    states = torch.randn(3, 5, 4)  # layers x tokens x hidden
    mixed_then_pooled = model.mix(states.transpose(0, 1)).mean(0)
    pooled_then_mixed = model.mix(states.mean(1))
    assert torch.allclose(mixed_then_pooled, pooled_then_mixed, atol=1e-6)


def test_features_and_auxiliary_losses_per_variant():
    torch.manual_seed(0)
    rows = torch.randn(6, 3, 4)
    z = torch.tensor([3.0, -3.0])
    for variant, n_features in [("lens", 7 * 4), ("E", 7 * 4 + 6 * 2), ("E+R", 7 * 4 + 6 * 2), ("E+R+S", 7 * 4 + 6 * 2)]:
        model = LensModel(LensConfig(layers=3, hidden=4, variant=variant, head_hidden=5, projection=2))
        assert model.estimator[0].in_features == n_features
        scores, parts = model(rows[:2], rows[2:4], rows[4:])
        assert scores.shape == (2,)
        assert model.auxiliary_loss(parts, z).item() >= 0
        assert hasattr(model, "reconstruct") == ("R" in variant)
    assert LensModel(LensConfig(layers=3, hidden=4)).auxiliary_loss({}, z).item() == 0.0
    with pytest.raises(UsageError, match="unknown LENS variant"):
        LensConfig(variant="E+S")


def test_adaptive_target_changes_only_the_literacy_loss():
    torch.manual_seed(0)
    rows = torch.randn(6, 3, 4)
    fixed = LensModel(LensConfig(layers=3, hidden=4, variant="E+R", head_hidden=5, projection=2))
    adaptive = LensModel(LensConfig(layers=3, hidden=4, variant="E+R+S", head_hidden=5, projection=2))
    adaptive.load_state_dict(fixed.state_dict())
    _, parts = fixed(rows[:2], rows[2:4], rows[4:])
    high = torch.tensor([5.0, 5.0])  # CS_t = -1: the fixed targets
    assert adaptive.auxiliary_loss(parts, high).item() == pytest.approx(fixed.auxiliary_loss(parts, high).item())
    low = torch.tensor([-5.0, -5.0])  # CS_t = 1: source and output alike in literacy
    assert adaptive.auxiliary_loss(parts, low).item() != pytest.approx(fixed.auxiliary_loss(parts, low).item())


def test_training_learns_and_early_stopping_keeps_the_best_epoch(tiny_encoder, examples):
    train_examples, valid_examples = grouped_split(examples, 0.25, seed=1)
    assert not {e.group for e in train_examples} & {e.group for e in valid_examples}
    train_set, valid_set = featurize(tiny_encoder, train_examples), featurize(tiny_encoder, valid_examples)
    settings = TrainSettings(learning_rate=3e-3, batch_size=2, max_epochs=6, patience=2, seed=0)
    model, report = train(_config(tiny_encoder, "E+R+S"), train_set, valid_set, settings)
    losses = [h["valid_loss"] for h in report.history]
    assert report.best_value == min(losses) and report.history[report.best_epoch - 1]["valid_loss"] == min(losses)
    again, report2 = train(_config(tiny_encoder, "E+R+S"), train_set, valid_set, settings)
    assert report2.history == report.history  # seeded
    grid, mask, _ = predict(model, train_set)
    assert grid.shape == mask.shape == (len(train_examples), 2)


def test_checkpoint_round_trip_and_scores(tiny_encoder, examples, tmp_path):
    model = LensModel(_config(tiny_encoder, "E+R"))
    model.eval()
    model.save(tmp_path / "ckpt")
    loaded = load_checkpoint(tmp_path / "ckpt")
    sources, outputs = [examples[0].source, examples[3].source], [examples[0].output, examples[3].output]
    refs = [list(examples[0].references), list(examples[3].references)]
    assert lens_scores(loaded, sources, outputs, refs) == pytest.approx(lens_scores(model, sources, outputs, refs))
    # the score is the best over the references, on 0-100
    single = [lens_scores(model, sources[:1], outputs[:1], [[r]])[0] for r in refs[0]]
    assert lens_scores(model, sources[:1], outputs[:1], refs[:1])[0] == pytest.approx(max(single))
    assert np.isnan(lens_scores(model, ["a"], ["b"], [[]])[0])
    assert to_percent(0.0) == 50.0 and to_percent(1.0) == pytest.approx(84.1345, abs=1e-4)


def test_broken_checkpoints_are_usage_errors(tmp_path):
    with pytest.raises(UsageError, match="not a LENS checkpoint"):
        load_checkpoint(tmp_path)
    (tmp_path / "lens_config.json").write_text("{}")
    (tmp_path / "model.safetensors").write_bytes(b"nonsense")
    with pytest.raises(UsageError, match="broken LENS checkpoint"):
        load_checkpoint(tmp_path)


def test_training_data_rules(data_dir):
    examples = simpeval_past_examples(data_dir)
    assert len(examples) == 2200  # 24 systems x 100 originals, minus the two ASSET-reference systems
    assert all(e.output.lower() == e.output and e.output not in e.references for e in examples)
    # ten references, less those equal to the output (up to three for some copies)
    assert max(len(e.references) for e in examples) == 10 and min(len(e.references) for e in examples) == 7
    assert ASSET_REFERENCE_SYSTEMS == ("asset.test.simp", "new_asset.test.simp.second")
    train_examples, valid_examples = grouped_split(examples, 0.2, seed=0)
    assert len({e.group for e in valid_examples}) == 20 and len(valid_examples) == 440
    example = make_example("A B.", "Same  thing.", ["same thing.", "Other."], 0.5, "g")
    assert example.references == ("other.",)


@pytest.mark.parametrize("variant", ["lens", "E+R+S"])
def test_per_item_factoring_equals_the_concatenated_features(variant):
    torch.manual_seed(0)
    model = LensModel(LensConfig(layers=3, hidden=4, variant=variant, head_hidden=5, projection=2)).eval()
    source, output, reference = torch.randn(2, 3, 4), torch.randn(2, 3, 4), torch.randn(5, 3, 4)
    item = torch.tensor([0, 0, 1, 1, 1])
    scores, _ = model(source, output, reference, item)
    s, o, r = model.mix(source)[item], model.mix(output)[item], model.mix(reference)
    features = [s, o, r, o * r, (o - r).abs(), o * s, (o - s).abs()]  # E_u, in LENS's order
    if variant != "lens":  # E_v = [C_s; C_o; C_r; L_s; L_o; L_r]
        features += [p(x) for p, x in zip(model.context, (s, o, r))]
        features += [p(x) for p, x in zip(model.literacy, (s, o, r))]
    assert torch.allclose(scores, model.estimator(torch.cat(features, dim=-1)).squeeze(-1), atol=1e-6)



def test_scoring_mixes_texts_a_few_at_a_time_with_the_same_numbers(tiny_encoder, examples, monkeypatch):
    """Issue 28: a batch's scoring held a table of every text's layers and a gathered copy of every
    reference's (66 + 55 MB for 512 items with 10 references), which grew a long run's peak RSS. Texts
    are now mixed TEXTS_PER_STEP at a time, never stacked whole, with the numbers of the whole table."""
    import simpeval.encoding as encoding
    from simpeval_lens import inference
    from simpeval_lens.data import Example

    torch.manual_seed(0)
    for variant in ("lens", "E+R+S"):
        model = LensModel(_config(tiny_encoder, variant))
        model.eval()
        sources = [e.source for e in examples] * 3
        outputs = [e.output for e in examples] * 3
        refs = [list(e.references)[: 1 + i % 2] for i, e in enumerate(examples * 3)]  # 1 or 2 references
        whole = featurize(tiny_encoder, [Example(s.lower(), o.lower(), tuple(r.lower() for r in rs), 0.0, "g")
                                         for s, o, rs in zip(sources, outputs, refs)])
        with torch.no_grad():
            grid, mask, _ = predict(model, whole)  # one step over the table of every text, as before
        expected = [to_percent(z) for z in grid.masked_fill(~mask, float("-inf")).max(dim=1).values.tolist()]

        monkeypatch.setattr(inference, "TEXTS_PER_STEP", 3)
        stacked, trims = [], []
        real_mix = model.mix
        monkeypatch.setattr(model, "mix", lambda layers: stacked.append(len(layers)) or real_mix(layers), raising=False)
        monkeypatch.setattr(encoding, "release_freed_heap", lambda: trims.append(1))
        assert lens_scores(model, sources, outputs, refs) == expected  # the same numbers, to the last digit
        monkeypatch.undo()
        assert len(whole.table) > 6 and stacked and max(stacked) <= 3 and sum(stacked) == len(whole.table)
        assert len(trims) >= 2  # after each batch through the encoder, and after the head
