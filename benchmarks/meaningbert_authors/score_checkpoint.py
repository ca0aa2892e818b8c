"""Write a MeaningBERT checkpoint in the authors' published format around a tiny random BERT, and score it
as the authors' model card does.

There is no ``meaningbert`` package on PyPI (``pip download meaningbert`` finds none), so the
oracle is the authors' documented procedure, run with plain transformers in another environment
(transformers 4.45, the ``lens-metric`` one) and another process than simpeval:

    tokenizer(documents, simplifications, truncation=True, padding=True, return_tensors="pt")
    scorer(**tokenize_text).logits

    /tmp/lensenv/bin/python benchmarks/meaningbert_authors/score_checkpoint.py OUT_DIR

The checkpoint is what ``davebulaval/MeaningBERT`` holds, at toy size: a
``BertForSequenceClassification`` with one output (2 layers, hidden 32, a WordPiece vocabulary of
characters and a few words, 64 positions so that the long input is truncated), saved with
``save_pretrained`` (``config.json``, ``model.safetensors``, tokenizer files). Writes
``package_scores.json``: the scores of ``inputs.json`` in both pair orders, one batch as in the
model card and one pair at a time, the command and the versions. simpeval never imports this file.
"""

from __future__ import annotations

import json
import platform
import string
import sys
from pathlib import Path

HERE = Path(__file__).parent
CHARACTERS = string.ascii_lowercase + string.digits + string.punctuation
WORDS = "the a cat dog sat ran on mat he she wanted to make them pay this sandwich looks delicious eat city".split()


def build(directory: Path, seed: int = 11) -> Path:
    """The tiny checkpoint, saved as the authors saved theirs (``save_pretrained`` of model and tokenizer)."""
    import torch
    from transformers import BertConfig, BertForSequenceClassification, BertTokenizerFast

    directory.mkdir(parents=True, exist_ok=True)
    vocabulary = list(dict.fromkeys(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *WORDS, *CHARACTERS,
                                     *(f"##{c}" for c in CHARACTERS)]))
    (directory / "vocab.txt").write_text("\n".join(vocabulary) + "\n", encoding="utf-8")
    tokenizer = BertTokenizerFast(vocab_file=str(directory / "vocab.txt"), do_lower_case=True, model_max_length=64)
    torch.manual_seed(seed)
    # a wide initialisation spreads the random logits, so that pairs (and pair orders) differ visibly
    config = BertConfig(vocab_size=len(vocabulary), hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                        intermediate_size=48, max_position_embeddings=64, num_labels=1, initializer_range=0.3,
                        architectures=["BertForSequenceClassification"])
    model = BertForSequenceClassification(config)
    with torch.no_grad():
        model.classifier.bias.fill_(50.0)  # the published head centres its output on the 0-100 scale too
        model.classifier.weight.mul_(40.0)
    model.save_pretrained(str(directory))
    tokenizer.save_pretrained(str(directory))
    return directory


def model_card_scores(directory: Path, documents: list[str], simplifications: list[str]) -> list[float]:
    """The model card's procedure: one call with every pair, ``truncation=True, padding=True``, the logits."""
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(directory))
    scorer = AutoModelForSequenceClassification.from_pretrained(str(directory))
    scorer.eval()
    tokenize_text = tokenizer(documents, simplifications, truncation=True, padding=True, return_tensors="pt")
    with torch.no_grad():
        scores = scorer(**tokenize_text)
    return [row[0] for row in scores.logits.tolist()]


def main() -> None:
    import tokenizers
    import torch
    import transformers

    out = Path(sys.argv[1])
    checkpoint = build(out / "meaningbert-tiny")
    inputs = json.loads((HERE / "inputs.json").read_text(encoding="utf-8"))
    sources, outputs = inputs["sources"], inputs["outputs"]
    record = {
        "command": f"{Path(sys.executable).name} benchmarks/meaningbert_authors/score_checkpoint.py {out}",
        "versions": {"python": platform.python_version(), "torch": torch.__version__,
                     "transformers": transformers.__version__, "tokenizers": tokenizers.__version__},
        "scores": model_card_scores(checkpoint, sources, outputs),
        "swapped": model_card_scores(checkpoint, outputs, sources),
        "one_by_one": [model_card_scores(checkpoint, [s], [o])[0] for s, o in zip(sources, outputs)],
        "tokens": [len(ids) for ids in transformers.AutoTokenizer.from_pretrained(str(checkpoint))(
            sources, outputs, truncation=True)["input_ids"]],
    }
    (out / "package_scores.json").write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(record["scores"]))


if __name__ == "__main__":
    main()
