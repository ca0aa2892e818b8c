"""Training a LENS or LENS-CLA head on cached frozen-encoder embeddings.

Every distinct text is encoded once (:func:`featurize`); a step mixes the layers of the rows it
needs, scores each (source, output, reference) triple, and takes LENS's top-k squared error over
each output's references, plus Kwak et al.'s auxiliary losses for the ``lens-cla`` variants.
The epoch with the lowest validation loss is kept (early stopping with a patience); only the
validation split of the training data is ever looked at.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import torch

from simpeval.learning.epochs import EpochLoop, TrainReport
from simpeval_lens.data import Example
from simpeval_lens.encoder import encode_layers
from simpeval_lens.losses import max_over_references, top_k_mse
from simpeval_lens.model import LensConfig, LensModel
from simpeval_lens.settings import TrainSettings

if TYPE_CHECKING:
    from simpeval.run import Run


@dataclass
class Features:
    """Examples as indices into one table of per-layer embeddings of their distinct texts."""

    table: torch.Tensor  # texts x layers x hidden
    source: torch.Tensor  # items
    output: torch.Tensor  # items
    references: torch.Tensor  # items x max references (0 where padded)
    mask: torch.Tensor  # items x max references
    target: torch.Tensor  # items

    def __len__(self) -> int:
        return len(self.source)


def index_texts(sources: Sequence[str], outputs: Sequence[str], references: Sequence[Sequence[str]]):
    """The distinct texts and, per item, the positions of its source, output and references."""
    texts: dict[str, int] = {}
    for text in (*sources, *outputs, *(r for refs in references for r in refs)):
        texts.setdefault(text, len(texts))
    width = max(len(refs) for refs in references)
    ref_index = torch.zeros(len(references), width, dtype=torch.long)
    mask = torch.zeros(len(references), width, dtype=torch.bool)
    for i, refs in enumerate(references):
        ref_index[i, : len(refs)] = torch.tensor([texts[r] for r in refs])
        mask[i, : len(refs)] = True
    source = torch.tensor([texts[s] for s in sources])
    output = torch.tensor([texts[o] for o in outputs])
    return list(texts), source, output, ref_index, mask


def featurize(encoder: str, examples: Sequence[Example], batch_size: int = 32, run: Run | None = None) -> Features:
    """Encode the examples' distinct texts once and index the examples into the table.

    :param run: the run that keeps the encoder and the embeddings (default: one for this call).
    """
    texts, source, output, refs, mask = index_texts(
        [e.source for e in examples], [e.output for e in examples], [e.references for e in examples]
    )
    table = encode_layers(encoder, texts, batch_size, run=run)
    return Features(table, source, output, refs, mask, torch.tensor([e.target for e in examples]))


def predict(model: LensModel, features: Features, rows: torch.Tensor | None = None):
    """Per-reference predictions (rows x references) and the auxiliary parts for ``rows`` (default: all)."""
    rows = torch.arange(len(features)) if rows is None else rows
    refs, mask = features.references[rows], features.mask[rows]
    item = torch.arange(len(rows)).unsqueeze(1).expand_as(mask)[mask]
    scores, parts = model(features.table[features.source[rows]], features.table[features.output[rows]],
                          features.table[refs[mask]], item)
    grid = torch.zeros(mask.shape)
    grid[mask] = scores
    return grid, mask, parts


def batch_loss(model: LensModel, features: Features, rows: torch.Tensor) -> torch.Tensor:
    """Top-k squared error plus, for LENS-CLA, its auxiliary losses over the rows' triples."""
    grid, mask, parts = predict(model, features, rows)
    target = features.target[rows]
    loss = top_k_mse(grid, mask, target, model.config.top_k)
    if parts:
        loss = loss + model.auxiliary_loss(parts, target)
    return loss


def scores(model: LensModel, features: Features) -> np.ndarray:
    """The best-over-references prediction per item, without dropout."""
    model.eval()
    with torch.no_grad():
        grid, mask, _ = predict(model, features)
        best = max_over_references(grid, mask).numpy()
    model.train()
    return best


def evaluate(model: LensModel, features: Features) -> tuple[float, float]:
    """``(loss, Pearson r of the max-over-references score with the target)`` without dropout."""
    model.eval()
    with torch.no_grad():
        loss = float(batch_loss(model, features, torch.arange(len(features))))
    return loss, float(np.corrcoef(scores(model, features), features.target.numpy())[0, 1])


class Epochs(EpochLoop):
    """A head from seed ``settings.seed``, its optimiser and its shuffling: one pass per :meth:`train_epoch` (the
    epoch of every LENS trainer: leave-one-dataset-out's, and, validated after each with early stopping on
    ``valid_set``'s loss, :meth:`step`'s, :class:`EpochLoop`)."""

    def __init__(self, config: LensConfig, train_set: Features, settings: TrainSettings, valid_set: Features | None = None,
                 log: Callable[[str], None] = lambda _: None) -> None:
        super().__init__(settings, log)
        torch.manual_seed(settings.seed)
        self.model = LensModel(config)
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=settings.learning_rate)
        self.generator = torch.Generator().manual_seed(settings.seed)
        self.train_set, self.valid_set, self.batch_size = train_set, valid_set, settings.batch_size
        self.model.train()

    def train_epoch(self) -> None:
        order = torch.randperm(len(self.train_set), generator=self.generator)
        for begin in range(0, len(order), self.batch_size):
            self.optimizer.zero_grad()
            batch_loss(self.model, self.train_set, order[begin : begin + self.batch_size]).backward()
            self.optimizer.step()

    def run_epoch(self) -> tuple[float, dict[str, float]]:
        self.train_epoch()
        valid_loss, valid_r = evaluate(self.model, self.valid_set)
        self.log(f"seed {self.settings.seed} epoch {self.epoch}: validation loss {valid_loss:.4f}, Pearson {valid_r:.3f}")
        return valid_loss, {"valid_loss": valid_loss, "valid_pearson": valid_r}

    def state(self) -> dict:
        return copy.deepcopy(self.model.state_dict())

    def load_state(self, state: dict) -> None:
        self.model.load_state_dict(state)
        self.model.eval()


def train(config: LensConfig, train_set: Features, valid_set: Features, settings: TrainSettings,
          log: Callable[[str], None] = lambda _: None) -> tuple[LensModel, TrainReport]:
    """Train one model from seed ``settings.seed``; returns the best-validation model and a report."""
    epochs = Epochs(config, train_set, settings, valid_set, log)
    return epochs.model, epochs.run()
