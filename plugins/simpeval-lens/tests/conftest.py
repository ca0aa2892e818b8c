"""A tiny BERT built in a temporary directory, so tests encode and train in seconds offline."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ["HF_HUB_OFFLINE"] = "1"

WORDS = ("the a cat dog sat ran on mat big small house old man woman city was is it he she "
         "and . , quickly slowly enormous feline tiny").split()


@pytest.fixture(scope="session")
def tiny_encoder(tmp_path_factory) -> str:
    """A 2-layer BERT (hidden size 32) over a small vocabulary, saved to a directory."""
    from simpeval.testing import save_tiny_bert

    return str(save_tiny_bert(tmp_path_factory.mktemp("tiny-bert"), WORDS))


@pytest.fixture()
def examples():
    """Hand-written rated outputs: simple ones score high, copies and garbage low."""
    from simpeval_lens.data import make_example

    rows = [
        ("the enormous feline sat on the mat .", "the big cat sat on the mat .", 1.2),
        ("the enormous feline sat on the mat .", "the enormous feline sat on the mat .", -0.4),
        ("the enormous feline sat on the mat .", "mat the on", -1.5),
        ("the old man ran quickly .", "the man ran .", 0.9),
        ("the old man ran quickly .", "the old man ran quickly .", -0.3),
        ("the old man ran quickly .", "quickly quickly", -1.4),
        ("the tiny dog ran on the big mat .", "the small dog ran .", 1.0),
        ("the tiny dog ran on the big mat .", "dog dog dog", -1.6),
        ("she was in the old city .", "she was in the city .", 0.8),
        ("she was in the old city .", "city the was", -1.2),
    ]
    refs = {
        "the enormous feline sat on the mat .": ["the big cat sat on the mat .", "the cat sat on the mat ."],
        "the old man ran quickly .": ["the man ran .", "the old man ran ."],
        "the tiny dog ran on the big mat .": ["the small dog ran .", "the dog ran on the mat ."],
        "she was in the old city .": ["she was in the city .", "she was in the old city ."],
    }
    return [make_example(s, o, refs[s], z, s) for s, o, z in rows]


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """``$SIMPEVAL_DATA_DIR`` (tox sets it to ../shared/data), through simpeval's CI rule."""
    from simpeval.testing import shared_data_dir

    return shared_data_dir("simpeval")
