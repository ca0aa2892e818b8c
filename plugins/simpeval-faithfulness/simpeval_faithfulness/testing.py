"""A tiny, randomly initialised three-label NLI model, for tests and for checking the scoring path.

No NLI weights can be installed offline, so the tests (and the benchmark's
path check) build this one: a 2-layer BERT with 32 hidden units and a
character-level WordPiece vocabulary (any lowercase ASCII text tokenizes
without ``[UNK]``). Its probabilities are random: never report scores made with it.
"""

from __future__ import annotations

import string
from pathlib import Path

_CHARACTERS = string.ascii_lowercase + string.digits + string.punctuation
VOCABULARY = (
    ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + list(_CHARACTERS) + [f"##{c}" for c in _CHARACTERS]
)


def save_tiny_nli(directory: str | Path, seed: int = 7, max_positions: int = 128) -> str:
    """Save the tiny model and its tokenizer with ``save_pretrained`` into ``directory``; return the path.

    :param max_positions: the model's position embeddings; an untruncated longer pair fails.
    """
    import torch
    from transformers import BertConfig, BertForSequenceClassification, BertTokenizer

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "vocab.txt").write_text("\n".join(VOCABULARY) + "\n", encoding="utf-8")
    tokenizer = BertTokenizer.from_pretrained(str(directory))
    torch.manual_seed(seed)
    # With BERT's usual initializer_range (0.02) every pair gets nearly the same probabilities;
    # 0.5 makes them depend on the text and spread over [0, 1], so the tests can tell pairs apart.
    config = BertConfig(
        hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=37,
        num_labels=3, vocab_size=len(VOCABULARY), max_position_embeddings=max_positions,
        initializer_range=0.5,
    )
    model = BertForSequenceClassification(config)
    model.save_pretrained(str(directory))
    tokenizer.save_pretrained(str(directory))
    return str(directory)
