"""A checkpoint pins the encoder it was trained on: an absolute location and a content hash.

Trained with a relative ``--encoder``, it still finds that encoder from any other directory
(never another model at the same relative path there), and a different model at the stored
location is refused in one line whose remedy exists.
"""

import json
import os
import subprocess
import sys

from conftest import SENTENCES

from simpeval.testing import save_tiny_bert

WORDS = sorted({w for pair in SENTENCES for text in pair for w in text.split()} | {",", "a", "b", "c"})


def simpeval(cwd, *args):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "SIMPEVAL_CACHE_DIR": str(cwd / "cache")}
    return subprocess.run([sys.executable, "-m", "simpeval", *map(str, args)], cwd=cwd, capture_output=True,
                          text=True, timeout=300, env=env)


def test_relative_encoder_is_stored_absolute_with_its_hash_and_checked(tmp_path):
    trained_in, elsewhere = tmp_path / "a", tmp_path / "b"
    save_tiny_bert(trained_in / "enc", WORDS, seed=0)
    save_tiny_bert(elsewhere / "enc", WORDS, seed=1)  # another model at the same relative path
    (trained_in / "orig.txt").write_text("\n".join(c for c, _ in SENTENCES) + "\n")
    (trained_in / "simp.txt").write_text("\n".join(s for _, s in SENTENCES) + "\n")
    done = simpeval(trained_in, "train", "siera", "--orig", "orig.txt", "--simp", "simp.txt", "--encoder", "enc",
                    "-o", "ckpt", "--max-epochs", "1", "--variant", "base", "--rated-datasets", "none")
    assert done.returncode == 0, done.stderr
    config = json.loads((trained_in / "ckpt" / "siera_config.json").read_text())
    assert config["encoder"] == str(trained_in / "enc")
    assert len(config["encoder_hash"]) == 12

    (elsewhere / "orig.txt").write_text("the city then built a big bridge .\n")
    (elsewhere / "sys.txt").write_text("the city built a bridge .\n")
    args = ("evaluate", "--orig", "orig.txt", "--sys", "sys.txt", "-m", f"siera:checkpoint={trained_in / 'ckpt'}",
            "--format", "json", "--no-cache")
    scored = simpeval(elsewhere, *args)
    assert scored.returncode == 0, scored.stderr
    from_home = simpeval(trained_in, *args[:2], elsewhere / "orig.txt", args[3], elsewhere / "sys.txt", *args[5:])
    assert json.loads(scored.stdout)["corpus"] == json.loads(from_home.stdout)["corpus"]  # the same encoder

    save_tiny_bert(trained_in / "enc", WORDS, seed=2)  # a different model where the encoder was
    refused = simpeval(elsewhere, *args)
    assert refused.returncode == 2
    [line] = refused.stderr.strip().splitlines()
    assert line.startswith(f"Error: {trained_in / 'ckpt'} was trained on the encoder {trained_in / 'enc'} with "
                           f"content {config['encoder_hash']}, but")
    assert line.endswith(f"retrain with `simpeval train siera --encoder {trained_in / 'enc'}`")


def test_an_older_checkpoint_naming_a_relative_encoder_is_refused(tmp_path):
    save_tiny_bert(tmp_path / "enc", WORDS)
    (tmp_path / "ckpt").mkdir()
    (tmp_path / "ckpt" / "siera_config.json").write_text(json.dumps({"encoder": "enc"}))
    (tmp_path / "ckpt" / "model.safetensors").write_bytes(b"")
    (tmp_path / "orig.txt").write_text("a b c\n")
    done = simpeval(tmp_path, "evaluate", "--orig", "orig.txt", "--sys", "orig.txt", "-m", "siera:checkpoint=ckpt")
    assert done.returncode == 2
    [line] = done.stderr.strip().splitlines()
    assert "names its encoder by the relative path 'enc'" in line
    assert "`simpeval train siera --encoder enc`" in line
