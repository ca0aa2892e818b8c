"""Train every learned metric's trainer on small data with a tiny BERT and write what it saved, so that two
checkouts' outputs can be compared byte for byte (a refactoring of the training code must not move a weight).

Runs, each in a fresh process of the checkout given by PYTHONPATH and the working directory:
``simpeval train`` lens-mini (seeds 3,4, 2 epochs), lens-cla-mini E+R, siera (40 ASSET sources, 3 epochs;
chosen on rated data and by validation loss), sle (3 epochs; rated and validation MAE), simpq
(--no-embeddings), and lens's validation-split trainer (120 SimpEval_past outputs, seeds 0,1: ``train_seeds`` before the protocol, ``LensSplitTrainer`` after).

``python benchmarks/trainer_identity.py OUT`` writes ``OUT/<run>/...`` and ``OUT/digest.txt``: one line per file,
its sha256 after dropping what a run records about its own time (seconds, dates, load, machine); stdout of
each run is kept in ``OUT/<run>.log``. Compare two checkouts' digests with ``diff``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

RATED = "simplicity-da,structural-simplicity"
WORDS = ("the a cat dog sat ran on mat big small house old man woman city was is it he she "
         "and . , quickly slowly enormous feline tiny of in to that for with as by".split())
TIMING_KEYS = {"seconds", "date", "load_average", "machine", "version"}

SEEDS_SNIPPET = """
import sys
from pathlib import Path
from simpeval.datadir import resolve_data_dir
from simpeval_lens.data import simpeval_past_examples
from simpeval_lens.encoder import hidden_size, layer_count
from simpeval_lens.model import LensConfig
from simpeval_lens.settings import TrainSettings
encoder, out = sys.argv[1], Path(sys.argv[2])
config = LensConfig(encoder=encoder, layers=layer_count(encoder), hidden=hidden_size(encoder))
examples = simpeval_past_examples(resolve_data_dir(None))[:120]
settings = TrainSettings(max_epochs=3, batch_size=8)
try:
    from simpeval_lens.trainer import LensSplitTrainer
except ImportError:  # before the trainer protocol
    from simpeval_lens.pipeline import train_seeds
    result = train_seeds(config, examples, settings, [0, 1], out, log=print)
else:
    from simpeval.learning.trainer import fit
    result = fit(LensSplitTrainer.given({"seeds": [0, 1]}, config=config, examples=examples, settings=settings), print)
    result.models[result.best_seed].save(out)
print("best seed", result.best_seed)
"""


def runs(tiny: str, data: Path) -> dict[str, list[str]]:
    train = [sys.executable, "-m", "simpeval", "train"]
    return {
        "lens-mini": [*train, "lens-mini", "--encoder", tiny, "--datasets", RATED, "--seeds", "3,4", "--max-epochs", "2"],
        "lens-cla-mini": [*train, "lens-cla-mini", "--variant", "E+R", "--encoder", tiny, "--datasets", RATED,
                          "--seeds", "3", "--max-epochs", "2"],
        "siera": [*train, "siera", "--orig", str(data / "orig"), "--simp", str(data / "simp0"), "--simp",
                  str(data / "simp1"), "--encoder", tiny, "--max-epochs", "3", "--rated-datasets", RATED],
        "siera-valid": [*train, "siera", "--orig", str(data / "orig"), "--simp", str(data / "simp0"), "--encoder", tiny,
                        "--variant", "base", "--max-epochs", "4", "--patience", "1", "--rated-datasets", "none"],
        "sle": [*train, "sle", "--encoder", tiny, "--max-epochs", "3", "--rated-datasets", RATED],
        "sle-valid": [*train, "sle", "--encoder", tiny, "--max-epochs", "5", "--patience", "2", "--rated-datasets", "none"],
        "simpq": [*train, "simpq", "--datasets", RATED, "--no-embeddings"],
        "lens-seeds": [sys.executable, "-c", SEEDS_SNIPPET, tiny],
    }


def timeless(value):
    if isinstance(value, dict):
        return {k: timeless(v) for k, v in value.items() if k not in TIMING_KEYS}
    if isinstance(value, list):
        return [timeless(v) for v in value]
    return value


def digest(path: Path, out: Path) -> str:
    data = path.read_bytes().replace(str(out).encode(), b"OUT")  # the tiny encoder's path
    if path.suffix == ".json":
        data = json.dumps(timeless(json.loads(data)), sort_keys=True).encode()
    elif path.suffix == ".md":
        data = re.sub(rb"- Cost: .*?load average [^\n]*\n", b"", data, flags=re.S)
    return hashlib.sha256(data).hexdigest()[:16]


def save_tiny_bert(directory: Path) -> Path:
    """A 2-layer BERT (hidden size 32) over :data:`WORDS` with 512 positions (SIERA reads pairs up to 256 tokens)."""
    import torch
    from transformers import BertConfig, BertModel, BertTokenizer

    directory.mkdir(parents=True, exist_ok=True)
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *dict.fromkeys(WORDS)]
    (directory / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    BertTokenizer(vocab_file=str(directory / "vocab.txt")).save_pretrained(str(directory))
    torch.manual_seed(0)
    BertModel(BertConfig(hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=37,
                         vocab_size=len(vocab), max_position_embeddings=512)).save_pretrained(str(directory))
    return directory


def main() -> None:
    out = Path(sys.argv[1]).absolute()
    only = set(sys.argv[2:])
    out.mkdir(parents=True, exist_ok=True)
    tiny = str(save_tiny_bert(out / "tiny-bert"))
    data = out / "siera-data"
    data.mkdir(exist_ok=True)
    asset = Path(os.environ["SIMPEVAL_DATA_DIR"]) / "references" / "asset"
    for name, source in (("orig", "asset.valid.orig"), ("simp0", "asset.valid.simp.0"), ("simp1", "asset.valid.simp.1")):
        (data / name).write_text("".join((asset / source).read_text(encoding="utf-8").splitlines(True)[:40]))
    for name, command in runs(tiny, data).items():
        if only and name not in only:
            continue
        target = out / name
        with open(out / f"{name}.log", "w") as log:
            subprocess.run([*command, *(["-o", str(target)] if command[1] == "-m" else [str(target)])],
                           stdout=log, stderr=subprocess.STDOUT, check=True)
    lines = [f"{p.relative_to(out)} {digest(p, out)}" for p in sorted(out.rglob("*"))
             if p.is_file() and not p.is_relative_to(out / "tiny-bert") and not p.is_relative_to(data)
             and p.suffix != ".log" and p.name != "digest.txt"]
    (out / "digest.txt").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
