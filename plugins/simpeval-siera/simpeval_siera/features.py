"""Frozen-encoder states, computed once per distinct text pair and reused by every epoch and seed.

On CPU the frozen bottom of the encoder is most of the cost of a training step;
its output never changes, so it is computed once per (first, second) input, in
length-sorted batches, and kept in half precision (the trained top casts back to
float32). Runs over several seeds and data variants share one cache.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from simpeval.encoding import length_batches

if TYPE_CHECKING:
    import torch

    from simpeval_siera.model import SieraModel

Pair = tuple[str, str]


def tokenize_pairs(tokenizer, pairs: Sequence[Pair], max_length: int) -> list[dict[str, list[int]]]:
    """Unpadded encodings of "first [SEP] second" for each pair."""
    encoded = tokenizer(
        [first for first, _ in pairs], [second for _, second in pairs],
        truncation=True, max_length=max_length,
    )
    return [{key: encoded[key][i] for key in encoded} for i in range(len(pairs))]


class FeatureCache:
    """``{(first, second): tokens x hidden}`` states of the frozen bottom of ``model``."""

    def __init__(self, model: SieraModel, tokenizer, batch_size: int = 32) -> None:
        self.model = model
        self.tokenizer = tokenizer
        self.batch_size = batch_size
        self.states: dict[Pair, torch.Tensor] = {}

    def add(self, pairs: Iterable[Pair]) -> int:
        """Compute the states of the pairs not cached yet; returns how many were computed."""
        import torch

        missing = list(dict.fromkeys(p for p in pairs if p not in self.states))
        encodings = tokenize_pairs(self.tokenizer, missing, self.model.config.max_length)
        self.model.eval()
        with torch.inference_mode():
            for batch in length_batches([len(e["input_ids"]) for e in encodings], self.batch_size):
                padded = self.tokenizer.pad([encodings[i] for i in batch], return_tensors="pt")
                hidden = self.model.encode_bottom(**padded)
                for row, index in enumerate(batch):
                    length = len(encodings[index]["input_ids"])
                    self.states[missing[index]] = hidden[row, :length].to(torch.float16).clone()
        return len(missing)

    def batch(self, pairs: Sequence[Pair]) -> tuple[torch.Tensor, torch.Tensor]:
        """Padded float32 states and the attention mask of cached pairs."""
        import torch

        tensors = [self.states[p] for p in pairs]
        longest = max(len(t) for t in tensors)
        hidden = torch.zeros(len(tensors), longest, tensors[0].shape[-1])
        mask = torch.zeros(len(tensors), longest, dtype=torch.long)
        for row, tensor in enumerate(tensors):
            hidden[row, : len(tensor)] = tensor.float()
            mask[row, : len(tensor)] = 1
        return hidden, mask
