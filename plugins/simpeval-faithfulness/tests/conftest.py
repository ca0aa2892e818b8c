"""Fixtures: a tiny three-label NLI model saved to disk, and a hub that never downloads."""

from __future__ import annotations

import pytest

from simpeval_faithfulness.testing import save_tiny_nli


@pytest.fixture(autouse=True)
def offline_hub(monkeypatch):
    """No test may reach the Hugging Face hub."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


@pytest.fixture(scope="session")
def tiny_nli(tmp_path_factory) -> str:
    """A random 3-label BERT classifier with a WordPiece vocab.txt, saved with save_pretrained (128 positions)."""
    return save_tiny_nli(tmp_path_factory.mktemp("tiny-nli"))


@pytest.fixture(scope="session")
def direct_nli(tiny_nli):
    """``f(premise, hypothesis) -> [p0, p1, p2]``: the tiny model run directly on one unpadded pair.

    The reference the plugin's batched, sorted, deduplicated path must agree with.
    """
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(tiny_nli)
    model = AutoModelForSequenceClassification.from_pretrained(tiny_nli).eval()

    def probabilities(premise: str, hypothesis: str) -> list[float]:
        with torch.no_grad():
            logits = model(**tokenizer(premise, hypothesis, return_tensors="pt")).logits
        return torch.softmax(logits, dim=-1)[0].tolist()

    return probabilities
