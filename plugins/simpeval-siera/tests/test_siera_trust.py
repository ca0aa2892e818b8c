"""Scores follow the checkpoint's content, and a checkpoint cannot make simpeval run code."""

import json
import os
import shutil
import subprocess
import sys

import pytest
from safetensors.torch import load_file, save_file
from simpeval_siera.plugin import SHIPPED_DIR

from simpeval.testing import save_remote_code_model

SOURCES = [
    "The municipality subsequently constructed an enormous bridge across the river.",
    "Notwithstanding the inclement weather, the ceremony proceeded as scheduled.",
]
OUTPUTS = ["The city built a big bridge.", "The ceremony went ahead despite the bad weather."]


def evaluate(tmp_path, checkpoint, *extra, stdin=None):
    orig, sys_ = tmp_path / "orig.txt", tmp_path / "sys.txt"
    orig.write_text("\n".join(SOURCES) + "\n")
    sys_.write_text("\n".join(OUTPUTS) + "\n")
    return subprocess.run(
        [sys.executable, "-m", "simpeval", "evaluate", "--orig", str(orig), "--sys", str(sys_),
         "-m", f"siera:checkpoint={checkpoint}", "--format", "json", *extra],
        capture_output=True, text=True, input=stdin, timeout=300,
        env={**os.environ, "SIMPEVAL_CACHE_DIR": str(tmp_path / "cache")},
    )


def corpus_score(done):
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["corpus"]


@pytest.mark.slow
def test_changed_weights_in_place_are_scored_anew_with_the_cache_on(tmp_path):
    checkpoint = tmp_path / "ckpt"
    shutil.copytree(SHIPPED_DIR, checkpoint)
    before = corpus_score(evaluate(tmp_path, checkpoint))
    assert corpus_score(evaluate(tmp_path, checkpoint)) == before  # served from the cache
    weights = load_file(str(checkpoint / "model.safetensors"))
    last = sorted(name for name in weights if name.startswith("head."))[-2:]  # the output layer's bias and weight
    for name in last:
        weights[name] = weights[name] * -1.0  # swaps which sentence the head calls simpler
    save_file(weights, str(checkpoint / "model.safetensors"))  # same path, same size
    after = corpus_score(evaluate(tmp_path, checkpoint))
    uncached = corpus_score(evaluate(tmp_path, checkpoint, "--no-cache"))
    assert after == uncached
    assert after != before


def test_a_checkpoint_whose_encoder_ships_code_is_refused(tmp_path):
    marker = tmp_path / "marker"
    encoder = save_remote_code_model(tmp_path / "encoder", marker)
    checkpoint = tmp_path / "ckpt"
    shutil.copytree(SHIPPED_DIR, checkpoint)
    config = json.loads((checkpoint / "siera_config.json").read_text())
    (checkpoint / "siera_config.json").write_text(json.dumps({**config, "encoder": str(encoder)}))
    done = evaluate(tmp_path, checkpoint, stdin="y\ny\ny\n")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f'Error: model "{encoder}" ships its own code (config.json has "auto_map") and simpeval never runs '
        "code from model directories: use a model of an architecture transformers includes"
    ]
    assert not marker.exists()


@pytest.mark.slow
def test_training_on_an_encoder_that_ships_code_is_refused(tmp_path, sentences):
    marker = tmp_path / "marker"
    encoder = save_remote_code_model(tmp_path / "encoder", marker)
    (tmp_path / "orig.txt").write_text("\n".join(c for c, _ in sentences) + "\n")
    (tmp_path / "simp.txt").write_text("\n".join(s for _, s in sentences) + "\n")
    done = subprocess.run(
        [sys.executable, "-m", "simpeval", "train", "siera", "--orig", str(tmp_path / "orig.txt"),
         "--simp", str(tmp_path / "simp.txt"), "--encoder", str(encoder), "-o", str(tmp_path / "out")],
        capture_output=True, text=True, input="y\ny\ny\n", timeout=300,
    )
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "ships its own code" in done.stderr
    assert not marker.exists()
