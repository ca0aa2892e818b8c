"""A tiny BERT and word-level tokenizer built in a temporary directory, so tests train in seconds offline."""

from __future__ import annotations

import os

import pytest

os.environ["HF_HUB_OFFLINE"] = "1"

FIGURE1 = (
    (
        "According to Ledford, Northrop executives said they would build substantial parts "
        "of the bomber in Palmdale, creating about 1,500 jobs."
    ),
    (
        "According to Ledford, Northrop said they would build most of the bomber parts "
        "in Palmdale. It would create 1,500 jobs."
    ),
)

SENTENCES = [
    ("the committee postponed the decision because of considerable disagreement .", "the group delayed the choice ."),
    ("the municipality subsequently constructed an enormous bridge .", "the city then built a big bridge ."),
    ("numerous residents expressed dissatisfaction with the proposal .", "many people did not like the plan ."),
    ("the physician administered the medication immediately .", "the doctor gave the medicine at once ."),
    ("the organisation acquired additional premises in the vicinity .", "the group bought more buildings nearby ."),
    ("the investigation demonstrated that the allegations were unfounded .", "the study showed the claims were false ."),
]


@pytest.fixture()
def figure1() -> tuple[str, str]:
    """The (original, simplified) pair of the paper's Figure 1."""
    return FIGURE1


@pytest.fixture()
def sentences() -> list[tuple[str, str]]:
    """Hand-written (complex, simple) pairs whose words make up the tiny vocabulary."""
    return list(SENTENCES)


@pytest.fixture(scope="session")
def tiny_encoder(tmp_path_factory) -> str:
    """A 2-layer BERT (hidden size 32) with a vocabulary of the test sentences, saved to a directory."""
    import torch
    from transformers import BertConfig, BertModel, BertTokenizer

    directory = tmp_path_factory.mktemp("tiny-bert")
    words = sorted({w for pair in SENTENCES for text in pair for w in text.split()} | {",", "a", "b", "c"})
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *words]
    (directory / "vocab.txt").write_text("\n".join(vocab) + "\n")
    BertTokenizer(vocab_file=str(directory / "vocab.txt")).save_pretrained(str(directory))
    torch.manual_seed(0)
    config = BertConfig(
        hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=37,
        vocab_size=len(vocab), max_position_embeddings=128,
    )
    BertModel(config).save_pretrained(str(directory))
    return str(directory)


@pytest.fixture()
def tiny_model(tiny_encoder):
    """A fresh SIERA model on the tiny encoder and its tokenizer."""
    from simpeval_siera.model import SieraConfig, SieraModel, load_tokenizer

    config = SieraConfig(encoder=tiny_encoder, max_length=64)
    return SieraModel(config), load_tokenizer(config)
