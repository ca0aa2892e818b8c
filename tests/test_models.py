"""The model loader: offline lookup, refusal of remote code, content fingerprints."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from simpeval import UsageError
from simpeval import models
from simpeval.testing import no_network, save_remote_code_model


@pytest.fixture
def hub(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty Hugging Face hub cache of the test's own."""
    cache = tmp_path / "hub"
    cache.mkdir()
    monkeypatch.setenv("HF_HUB_CACHE", str(cache))
    return cache


@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 2-layer BERT with a 10-word vocabulary, saved with save_pretrained."""
    from transformers import BertConfig, BertModel, BertTokenizer

    directory = tmp_path_factory.mktemp("tiny-bert")
    words = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "the", "cat", "sat", "on", "mat"]
    (directory / "vocab.txt").write_text("\n".join(words) + "\n", encoding="utf-8")
    BertTokenizer.from_pretrained(str(directory)).save_pretrained(str(directory))
    config = BertConfig(hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=37,
                        vocab_size=len(words))
    BertModel(config).save_pretrained(str(directory))
    return directory


def _cache_repo(hub: Path, repo_id: str, files: dict[str, str], ref: bool = True) -> Path:
    repo = hub / f"models--{repo_id.replace('/', '--')}"
    snapshot = repo / "snapshots" / "abc123"
    snapshot.mkdir(parents=True)
    for name, text in files.items():
        (snapshot / name).write_text(text, encoding="utf-8")
    if ref:
        (repo / "refs").mkdir()
        (repo / "refs" / "main").write_text("abc123", encoding="utf-8")
    return snapshot


def test_locate_finds_paths_and_hub_snapshots(tmp_path: Path, hub: Path) -> None:
    assert models.locate(tmp_path) == tmp_path
    snapshot = _cache_repo(hub, "org/tiny", {"config.json": "{}", "model.safetensors": "w"})
    assert models.locate("org/tiny") == snapshot
    assert models.is_available("org/tiny")
    _cache_repo(hub, "no-weights", {"config.json": "{}"}, ref=False)
    assert models.locate("no-weights").name == "abc123"
    assert not models.is_available("no-weights")


def test_a_missing_model_fails_at_once_with_the_remedy(hub: Path) -> None:
    with no_network(), pytest.raises(UsageError) as error:
        models.locate("roberta-large", option="model")
    assert str(error.value) == (
        f'model "roberta-large" is neither a local path nor in the Hugging Face cache ({hub}): '
        "pass model=PATH of a local copy, or download it once with `hf download roberta-large`"
    )
    assert not models.is_available("roberta-large")


def test_remote_code_is_refused_before_transformers_sees_it(tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    directory = save_remote_code_model(tmp_path / "remote", marker)
    for kind in ("config", "model", "sequence-classification"):
        with pytest.raises(UsageError, match=r'ships its own code \(config.json has "auto_map"\)'):
            models.load_transformers(directory, kind)
    with pytest.raises(UsageError, match="ships its own code"):
        models.fingerprint(directory)
    assert not marker.exists()


@pytest.mark.slow
def test_transformers_itself_would_run_that_code(tmp_path: Path) -> None:
    """The oracle for the test above: the directory really is an attack when trusted."""
    marker = tmp_path / "marker"
    directory = save_remote_code_model(tmp_path / "remote", marker)
    code = f"from transformers import AutoConfig; AutoConfig.from_pretrained({str(directory)!r}, trust_remote_code=True)"
    env = {**os.environ, "HF_MODULES_CACHE": str(tmp_path / "modules")}
    subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, timeout=120)
    assert marker.read_text() == "remote code ran"


def test_a_tokenizer_config_auto_map_is_refused_too(tiny_bert: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    copy.mkdir()
    for file in tiny_bert.iterdir():
        (copy / file.name).write_bytes(file.read_bytes())
    config = json.loads((copy / "tokenizer_config.json").read_text())
    config["auto_map"] = {"AutoTokenizer": ["x.Tok", None]}
    (copy / "tokenizer_config.json").write_text(json.dumps(config))
    with pytest.raises(UsageError, match=r"tokenizer_config.json has \"auto_map\""):
        models.load_transformers(copy, "tokenizer")


def test_load_transformers_reads_a_local_model(tiny_bert: Path) -> None:
    import torch
    from transformers import BertModel

    model = models.load_transformers(tiny_bert, "model")
    expected = BertModel.from_pretrained(str(tiny_bert))
    assert isinstance(model, BertModel)
    for (name, ours), (_, theirs) in zip(model.state_dict().items(), expected.state_dict().items()):
        assert torch.equal(ours, theirs), name
    tokenizer = models.load_transformers(tiny_bert, "tokenizer")
    assert tokenizer("the cat sat")["input_ids"] == [2, 5, 6, 7, 3]
    assert models.load_transformers(tiny_bert, "config").num_hidden_layers == 2


def test_a_broken_model_directory_is_one_usage_error(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text('{"model_type": "no-such-architecture"}')
    with pytest.raises(UsageError, match=r'^cannot load the model of model ".*" \(.*\): pass model=DIR'):
        models.load_transformers(tmp_path, "model")
    with pytest.raises(ValueError, match="kind must be one of"):
        models.load_transformers(tmp_path, "seq2seq")


def test_fingerprint_follows_content_not_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for place in ("a", "b"):
        (tmp_path / place / "ckpt").mkdir(parents=True)
        (tmp_path / place / "ckpt" / "model.safetensors").write_bytes(b"weights")
        (tmp_path / place / "ckpt" / "config.json").write_text("{}")
    (tmp_path / "b" / "ckpt" / ".model.safetensors.tmp").write_bytes(b"half-written")  # hidden: ignored
    monkeypatch.chdir(tmp_path / "a")
    first = models.fingerprint("ckpt")
    monkeypatch.chdir(tmp_path / "b")
    assert models.fingerprint("ckpt") == first  # equal content, equal key
    assert first.startswith("ckpt@") and len(first) == len("ckpt@") + models.HASH_LENGTH
    assert str(tmp_path) not in first
    (tmp_path / "b" / "ckpt" / "model.safetensors").write_bytes(b"WEIGHTS")  # same size, new content
    assert models.fingerprint("ckpt") != first
    (tmp_path / "b" / "ckpt" / "config.json").rename(tmp_path / "b" / "ckpt" / "other.json")
    os.utime(tmp_path / "b" / "ckpt" / "model.safetensors")
    assert models.fingerprint("ckpt", label="mine").startswith("mine@")


def test_fingerprint_of_a_hub_model_keeps_its_name(hub: Path) -> None:
    import hashlib

    _cache_repo(hub, "org/tiny", {"model.safetensors": "w"})
    inner = hashlib.sha256(b"model.safetensors\0" + hashlib.sha256(b"w").hexdigest().encode() + b"\n")
    assert models.fingerprint("org/tiny") == f"org/tiny@{inner.hexdigest()[:12]}"


def test_a_file_is_hashed_once_per_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    weights = tmp_path / "w.bin"
    weights.write_bytes(b"x" * 1000)
    calls = []
    real = models.hashlib.file_digest
    monkeypatch.setattr(models.hashlib, "file_digest", lambda *a: calls.append(1) or real(*a))
    first = models.fingerprint(weights)
    assert models.fingerprint(weights) == first and len(calls) == 1
    weights.write_bytes(b"y" * 1000)
    assert models.fingerprint(weights) != first and len(calls) == 2


def test_torch_state_files_load_without_unpickling_code(tmp_path: Path) -> None:
    import pickle

    import torch

    torch.save({"w": torch.ones(2)}, tmp_path / "ok.bin")
    assert torch.equal(models.load_torch_state(tmp_path / "ok.bin")["w"], torch.ones(2))

    class Evil:
        def __reduce__(self):
            return (Path.write_text, (tmp_path / "marker", "ran"))

    (tmp_path / "evil.bin").write_bytes(pickle.dumps(Evil(), protocol=2))
    with pytest.raises(UsageError, match=r"^cannot read weights=.*evil.bin"):
        models.load_torch_state(tmp_path / "evil.bin")
    assert not (tmp_path / "marker").exists()


def test_locating_imports_nothing_heavy(tmp_path: Path) -> None:
    code = (
        "import sys; from simpeval import models\n"
        f"models.is_available({str(tmp_path)!r}); models.fingerprint({str(tmp_path)!r})\n"
        "print(sorted(m for m in ('torch', 'transformers', 'spacy', 'bert_score', 'huggingface_hub') "
        "if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "[]", done.stderr


def _sharded_bert_with_hidden_shard(directory: Path) -> Path:
    """A tiny BERT saved in two safetensors shards whose index names a hidden file for the first one."""
    from transformers import BertConfig, BertModel

    config = BertConfig(hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=37,
                        vocab_size=10)
    BertModel(config).save_pretrained(str(directory), max_shard_size="30KB")
    index_file = directory / "model.safetensors.index.json"
    index = json.loads(index_file.read_text())
    first = sorted(set(index["weight_map"].values()))[0]
    (directory / first).rename(directory / ".shard1.safetensors")
    index["weight_map"] = {k: ".shard1.safetensors" if v == first else v for k, v in index["weight_map"].items()}
    index_file.write_text(json.dumps(index))
    return directory / ".shard1.safetensors"


def test_the_fingerprint_covers_every_shard_the_index_names_hidden_or_not(tmp_path: Path) -> None:
    import torch
    from safetensors.torch import load_file, save_file

    hidden = _sharded_bert_with_hidden_shard(tmp_path)
    before = models.fingerprint(tmp_path)
    loaded = models.load_transformers(tmp_path, "model")  # the loader reads the hidden shard
    tensors = load_file(str(hidden))
    name = next(iter(tensors))
    assert torch.equal(loaded.state_dict()[name.removeprefix("bert.")], tensors[name])
    save_file({k: v + 1 for k, v in tensors.items()}, str(hidden), metadata={"format": "pt"})
    assert models.fingerprint(tmp_path) != before


def test_an_index_naming_a_file_outside_the_model_is_refused(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text("{}")
    (tmp_path / "model.safetensors.index.json").write_text(
        json.dumps({"weight_map": {"a": "../elsewhere.safetensors", "b": "missing.safetensors"}})
    )
    with pytest.raises(UsageError, match=r"index.json names the shard \"../elsewhere.safetensors\", which is outside"):
        models.fingerprint(tmp_path)
    (tmp_path / "model.safetensors.index.json").write_text(json.dumps({"weight_map": {"b": "missing.safetensors"}}))
    with pytest.raises(UsageError, match=r"missing.safetensors.*does not exist"):
        models.fingerprint(tmp_path)


@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_a_fifo_or_a_device_in_a_model_is_refused_without_hanging(tmp_path: Path, kind: str) -> None:
    for name in ("config.json", "model.safetensors"):
        model = tmp_path / f"{kind}-{name}"
        model.mkdir()
        if kind == "fifo":
            os.mkfifo(model / name)
        else:
            (model / name).symlink_to("/dev/zero")
        outcome = []
        worker = threading.Thread(target=lambda: outcome.append(_raised(models.fingerprint, model)), daemon=True)
        worker.start()
        worker.join(60)  # a FIFO's open would block for ever, /dev/zero never end: either is a hang, not a delay
        assert not worker.is_alive(), f"fingerprinting a model with a {kind} {name} hangs"
        assert isinstance(outcome[0], UsageError)
        assert re.match(rf"^model file .*{name} is not a regular file: replace it", str(outcome[0]))


def _raised(call, *args):
    try:
        call(*args)
    except Exception as exc:  # noqa: BLE001
        return exc
    return None


def test_a_pickle_in_a_model_directory_is_refused_without_torchs_advice(tmp_path: Path) -> None:
    import pickle

    from transformers import BertConfig

    BertConfig(hidden_size=32, num_hidden_layers=1, num_attention_heads=2, intermediate_size=37,
               vocab_size=10).save_pretrained(str(tmp_path))

    class Evil:
        def __reduce__(self):
            return (Path.write_text, (tmp_path / "marker", "ran"))

    (tmp_path / "pytorch_model.bin").write_bytes(pickle.dumps(Evil(), protocol=2))
    with pytest.raises(UsageError) as caught:
        models.load_transformers(tmp_path, "model")
    assert "never unpickles" in str(caught.value) and "weights_only" not in str(caught.value)
    assert caught.value.__cause__ is None and caught.value.__suppress_context__
    assert not (tmp_path / "marker").exists()
