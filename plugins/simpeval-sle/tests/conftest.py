"""A tiny OneStopEnglish-shaped corpus and a tiny BERT encoder, so training runs in seconds offline."""

from __future__ import annotations

import os

import pytest

os.environ["HF_HUB_OFFLINE"] = "1"

# (advanced, intermediate, elementary) versions of a few made-up articles
ARTICLES = {
    "bridge": ("The municipality subsequently constructed an enormous suspension bridge across the estuary.",
               "The city then built a very large bridge across the river mouth.",
               "The city built a big bridge."),
    "doctor": ("The physician administered the experimental medication immediately. Recovery was remarkable.",
               "The doctor gave the new medicine at once. The patient got much better.",
               "The doctor gave the medicine. He got better."),
    "plan": ("Numerous residents expressed considerable dissatisfaction with the controversial proposal.",
             "Many people said they were unhappy with the plan.",
             "People did not like the plan."),
    "study": ("The investigation demonstrated conclusively that the allegations were unfounded.",
              "The study showed that the claims were not true.",
              "The study said the claims were false."),
    "group": ("The organisation acquired additional premises in the immediate vicinity.",
              "The group bought more buildings close by.",
              "The group bought more houses."),
    "vote": ("Parliamentary representatives overwhelmingly rejected the constitutional amendment yesterday.",
             "Members of parliament voted against the change to the law yesterday.",
             "They voted no to the new law."),
}


def write_corpus(root):
    """``root/onestopenglish/{Adv,Int,Ele}/NAME-{adv,int,ele}.txt``, with a BOM and the Intermediate label line."""
    for level, (folder, suffix) in enumerate((("Adv", "adv"), ("Int", "int"), ("Ele", "ele"))):
        directory = root / "onestopenglish" / folder
        directory.mkdir(parents=True)
        for name, versions in ARTICLES.items():
            label = "Intermediate\n" if folder == "Int" else ""
            (directory / f"{name}-{suffix}.txt").write_text("\ufeff" + label + versions[level] + " \n", encoding="utf-8")
    return root


@pytest.fixture()
def corpus(tmp_path):
    return write_corpus(tmp_path / "data")


@pytest.fixture(scope="session")
def tiny_encoder(tmp_path_factory) -> str:
    """A 2-layer BERT (hidden size 32) whose word vocabulary covers the articles above."""
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
    """``$SIMPEVAL_DATA_DIR`` (tox sets it to ../shared/data), which holds onestopenglish/."""
    from pathlib import Path

    return Path(os.environ["SIMPEVAL_DATA_DIR"])
