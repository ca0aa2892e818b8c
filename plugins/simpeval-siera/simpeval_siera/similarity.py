"""BERTScore F1 (Zhang et al. 2020) for the augmentation filter, with the SIERA encoder itself.

The paper filters with BERTScore; no RoBERTa weights can be installed offline, so
the encoder being trained (MiniLM by default) embeds the tokens instead: no idf
weighting, no baseline rescaling, [CLS]/[SEP] left out, greedy cosine matching.
Each distinct sentence is embedded once, in length-sorted batches.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import torch


def greedy_f1(candidate: torch.Tensor, reference: torch.Tensor) -> float:
    """BERTScore F1 of two sentences given their unit-norm token embeddings (tokens x dim); 0 if one is empty."""
    if len(candidate) == 0 or len(reference) == 0:
        return 0.0
    similarity = candidate @ reference.T
    precision = similarity.max(dim=1).values.mean()
    recall = similarity.max(dim=0).values.mean()
    return float(2 * precision * recall / (precision + recall))


class TokenEmbedder:
    """Unit-norm token embeddings of sentences from one hidden layer of an encoder.

    :param encoder: a Hugging Face encoder returning ``hidden_states``.
    :param tokenizer: its tokenizer.
    :param layer: the hidden layer to use (``-1``: the last).
    """

    def __init__(self, encoder, tokenizer, layer: int = -1, batch_size: int = 64, max_length: int = 256) -> None:
        self.encoder = encoder
        self.tokenizer = tokenizer
        self.layer = layer
        self.batch_size = batch_size
        self.max_length = max_length

    def embed(self, texts: Sequence[str]) -> dict[str, torch.Tensor]:
        """``{text: tokens x dim}`` for each distinct text, special tokens excluded."""
        import torch

        unique = sorted(set(texts), key=len)
        result: dict[str, torch.Tensor] = {}
        self.encoder.eval()
        with torch.inference_mode():
            for start in range(0, len(unique), self.batch_size):
                batch = unique[start : start + self.batch_size]
                encoded = self.tokenizer(
                    batch, padding=True, truncation=True, max_length=self.max_length,
                    return_tensors="pt", return_special_tokens_mask=True,
                )
                special = encoded.pop("special_tokens_mask")
                states = self.encoder(**encoded, output_hidden_states=True).hidden_states[self.layer]
                keep = encoded["attention_mask"].bool() & ~special.bool()
                for row, text in enumerate(batch):
                    vectors = states[row][keep[row]]
                    result[text] = torch.nn.functional.normalize(vectors.float(), dim=-1)
        return result

    def f1(self, queries: Sequence[tuple[str, str]]) -> list[float]:
        """BERTScore F1 of each (candidate, reference) pair."""
        embeddings = self.embed([text for pair in queries for text in pair])
        return [greedy_f1(embeddings[candidate], embeddings[reference]) for candidate, reference in queries]
