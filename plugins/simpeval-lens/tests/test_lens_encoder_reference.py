"""A LENS checkpoint pins its encoder by absolute location and content hash (as SIERA's does)."""

import json

import pytest
from conftest import WORDS
from simpeval import UsageError, models

from simpeval.testing import save_tiny_bert
from simpeval_lens.encoder import layer_count
from simpeval_lens.model import LensConfig, LensModel, load_checkpoint
from simpeval_lens.plugin import LensMini


def test_a_different_model_at_the_stored_location_is_refused(tmp_path, monkeypatch):
    save_tiny_bert(tmp_path / "enc", WORDS, seed=0)
    monkeypatch.chdir(tmp_path)
    reference = models.encoder_reference("enc", "LENS")
    assert reference["encoder"] == str(tmp_path / "enc")
    config = LensConfig(**reference, layers=layer_count("enc"), hidden=32, head_hidden=16, projection=8)
    LensModel(config).save(tmp_path / "ckpt")
    assert json.loads((tmp_path / "ckpt" / "lens_config.json").read_text())["encoder_hash"] == reference["encoder_hash"]
    metric = LensMini(checkpoint=str(tmp_path / "ckpt"))
    assert "+enc@" + reference["encoder_hash"] in metric.fingerprint("checkpoint", str(tmp_path / "ckpt"))
    load_checkpoint(tmp_path / "ckpt")

    save_tiny_bert(tmp_path / "enc", WORDS, seed=1)
    with pytest.raises(UsageError, match=r"now holds another model .*retrain with `simpeval train lens-mini --encoder "):
        LensMini(checkpoint=str(tmp_path / "ckpt")).fingerprint("checkpoint", str(tmp_path / "ckpt"))
    with pytest.raises(UsageError, match="now holds another model"):
        load_checkpoint(tmp_path / "ckpt")
