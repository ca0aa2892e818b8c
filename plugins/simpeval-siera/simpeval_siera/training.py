"""Training the ranking model on cached frozen states (paper sections 4.1 and 6.1).

Every "A is simpler than B" relation gives two examples, "B [SEP] A" with label 1
and "A [SEP] B" with label 0 (the label is the position of the simpler sentence);
the loss is cross-entropy over both orders. Validation holds out whole source
sentences, so no source is seen on both sides; training keeps the epoch with the
lowest validation loss (early stopping with a patience).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from simpeval.learning.epochs import EpochLoop, TrainReport
from simpeval.learning.settings import TrainSettings as SharedSettings

if TYPE_CHECKING:
    from simpeval_siera.features import FeatureCache
    from simpeval_siera.model import SieraModel


@dataclass(frozen=True)
class Example:
    """One ordered input: ``label`` is 1 when ``second`` is the simpler sentence, else 0."""

    first: str
    second: str
    label: int
    group: int


def both_orders(relations: Iterable[tuple[str, str, int]]) -> list[Example]:
    """Two examples per (more complex, simpler, group) relation, one in each order."""
    examples = []
    for complex_text, simple_text, group in relations:
        examples.append(Example(complex_text, simple_text, 1, group))
        examples.append(Example(simple_text, complex_text, 0, group))
    return examples


def valid_group_count(n_groups: int, valid_fraction: float) -> int:
    """How many of ``n_groups`` source sentences :func:`grouped_split` holds out for validation."""
    return round(n_groups * valid_fraction)


def grouped_split(
    examples: Sequence[Example], valid_fraction: float, seed: int
) -> tuple[list[Example], list[Example]]:
    """Split by group (source sentence): about ``valid_fraction`` of the groups go to validation."""
    groups = sorted({e.group for e in examples})
    random.Random(seed).shuffle(groups)
    valid_groups = set(groups[: valid_group_count(len(groups), valid_fraction)])
    train = [e for e in examples if e.group not in valid_groups]
    valid = [e for e in examples if e.group in valid_groups]
    return train, valid


@dataclass(frozen=True)
class TrainSettings(SharedSettings):
    """Optimisation settings: the paper's AdamW, batch 16 and 10 epochs, but lr 1e-3 (see the docs)."""

    batch_size: int = 16


def shuffled_batches(
    examples: Sequence[Example], lengths: Sequence[int], batch_size: int, rng: random.Random
) -> list[list[int]]:
    """Random batches that hold both orders of a pair together, of similar length.

    With the two orders of a pair in one batch their order-independent gradients
    cancel and what is left is the signal about which side is simpler; with the
    orders in different batches that signal drowns in noise and training stalls at
    chance (observed on ASSET with MiniLM). Pairs are shuffled, sorted by length
    within windows of 50 batches, cut into batches, and the batches shuffled.
    """
    by_pair: dict[tuple[str, str], list[int]] = {}
    for index, example in enumerate(examples):
        by_pair.setdefault(tuple(sorted((example.first, example.second))), []).append(index)
    units = list(by_pair.values())
    rng.shuffle(units)
    per_batch = max(1, batch_size // 2)
    window = per_batch * 50
    batches = []
    for start in range(0, len(units), window):
        chunk = sorted(units[start : start + window], key=lambda unit: lengths[unit[0]])
        for k in range(0, len(chunk), per_batch):
            batches.append([index for unit in chunk[k : k + per_batch] for index in unit])
    rng.shuffle(batches)
    return batches


def _batch_loss(model: SieraModel, cache: FeatureCache, batch: Sequence[Example]):
    import torch

    hidden, mask = cache.batch([(e.first, e.second) for e in batch])
    labels = torch.tensor([e.label for e in batch])
    return torch.nn.functional.cross_entropy(model(hidden, mask), labels)


def validation_loss(model: SieraModel, cache: FeatureCache, examples: Sequence[Example], batch_size: int) -> float:
    """Mean cross-entropy over ``examples``, in evaluation mode."""
    import torch

    model.eval()
    total = 0.0
    with torch.inference_mode():
        for start in range(0, len(examples), batch_size):
            batch = examples[start : start + batch_size]
            total += float(_batch_loss(model, cache, batch)) * len(batch)
    return total / len(examples)


class Epochs(EpochLoop):
    """The top layers and head from the pretrained top and a seeded head, one epoch per :meth:`step` (the
    epoch of every SIERA trainer; early stopping and every epoch's weights: :class:`EpochLoop`).

    The states of every example must already be in ``cache``.
    """

    def __init__(self, model: SieraModel, cache: FeatureCache, train: Sequence[Example], valid: Sequence[Example],
                 settings: TrainSettings, log: Callable[[str], None] = print) -> None:
        import torch

        super().__init__(settings, log)
        model.reset_trained(settings.seed)
        self.model, self.cache, self.train, self.valid = model, cache, train, valid
        self.rng = random.Random(settings.seed)
        self.optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=settings.learning_rate)
        self.lengths = [len(cache.states[(e.first, e.second)]) for e in train]

    def run_epoch(self) -> tuple[float, dict[str, float]]:
        model, train = self.model, self.train
        model.train()
        model.bottom.eval()
        running = 0.0
        for indices in shuffled_batches(train, self.lengths, self.settings.batch_size, self.rng):
            loss = _batch_loss(model, self.cache, [train[i] for i in indices])
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            running += float(loss.detach()) * len(indices)
        valid_loss = validation_loss(model, self.cache, self.valid, self.settings.batch_size * 4)
        self.log(f"epoch {self.epoch}: train loss {running / len(train):.4f}, valid loss {valid_loss:.4f}")
        return valid_loss, {"train_loss": running / len(train), "valid_loss": valid_loss,
                            "seconds": time.perf_counter() - self.started}

    def state(self) -> dict:
        return self.model.trained_state()

    def load_state(self, state: dict) -> None:
        self.model.load_trained_state(state)
        self.model.eval()


def train_model(
    model: SieraModel,
    cache: FeatureCache,
    train: Sequence[Example],
    valid: Sequence[Example],
    settings: TrainSettings,
    log: Callable[[str], None] = print,
) -> TrainReport:
    """Train the top layers and head from the pretrained top and a seeded head; keep the best epoch.

    The states of every example must already be in ``cache``.
    """
    return Epochs(model, cache, train, valid, settings, log).run()
