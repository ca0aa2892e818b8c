"""Fixtures: the tiny corpus of :mod:`sle_testdata` and a tiny BERT encoder, so training runs in seconds offline."""

from __future__ import annotations

import os

import pytest
from sle_testdata import ARTICLES, write_corpus

os.environ["HF_HUB_OFFLINE"] = "1"


@pytest.fixture()
def corpus(tmp_path):
    return write_corpus(tmp_path / "data")


@pytest.fixture(scope="session")
def tiny_encoder(tmp_path_factory) -> str:
    """A 2-layer BERT (hidden size 32) whose word vocabulary covers the test articles."""
    import torch
    from transformers import BertConfig, BertModel, BertTokenizer

    directory = tmp_path_factory.mktemp("tiny-bert")
    words = sorted({w.strip(".,").lower() for versions in ARTICLES.values() for t in versions for w in t.split()})
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", ".", ",", *words]
    (directory / "vocab.txt").write_text("\n".join(vocab) + "\n")
    BertTokenizer(vocab_file=str(directory / "vocab.txt")).save_pretrained(str(directory))
    torch.manual_seed(0)
    config = BertConfig(hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=37,
                        vocab_size=len(vocab), max_position_embeddings=128)
    BertModel(config).save_pretrained(str(directory))
    return str(directory)


@pytest.fixture()
def data_dir():
    """``$SIMPEVAL_DATA_DIR`` (tox sets it to ../shared/data), which holds onestopenglish/: absent, the
    test skips with a reason, or fails under CI=true."""
    from simpeval.testing import shared_data_dir

    return shared_data_dir("onestopenglish")
