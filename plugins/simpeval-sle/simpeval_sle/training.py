"""Training SLE on a levelled corpus with frozen features, and scoring documents against their levels.

The recipe (Cripwell et al. 2023, on OneStopEnglish instead of Newsela): every
sentence carries its article's level, softened by -FKGL within the level
(:mod:`.labels`); a regression head on frozen mean-pooled encoder embeddings
learns the labels with mean squared error; after every epoch the head predicts
each validation document's level as the mean of its sentences' (SLEdoc eq. 1)
and the epoch with the lowest validation *document* MAE is kept. The encoder is
frozen, so each sentence is embedded once and the vectors are cached on disk
(``$SIMPEVAL_CACHE_DIR/sle-features``): a rerun or a second seed costs seconds.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from simpeval import models
from simpeval.cache import default_cache_dir
from simpeval_sle.corpus import Document
from simpeval_sle.encoder import MAX_LENGTH, embed
from simpeval_sle.labels import sentence_fkgl, soften_labels
from simpeval_sle.segment import sentences_of
from simpeval_sle.settings import TrainSettings


@dataclass
class TrainReport:
    """Per-epoch losses and validation MAE, the epoch kept, sizes and wall-clock seconds."""

    best_epoch: int = 0
    best_valid_mae: float = float("inf")
    history: list[dict[str, float]] = field(default_factory=list)
    snapshots: dict[int, dict] = field(default_factory=dict)  # epoch -> the head's weights after it
    train_sentences: int = 0
    dropped_outliers: int = 0
    seconds: float = 0.0


@dataclass
class Features:
    """Each document's sentence embeddings (rows) and sentence FKGL, aligned with ``documents``."""

    documents: list[Document]
    vectors: list[np.ndarray]
    fkgl: list[list[float]]


def featurize(documents: Sequence[Document], encoder: str, cache_dir: Path | None = None,
              batch_size: int = 64) -> Features:
    """Split, embed (cached on disk by encoder and sentences) and FKGL-score every document."""
    split = [sentences_of(d.text) for d in documents]
    flat = [s for sentences in split for s in sentences]
    vectors = _cached_embeddings(encoder, flat, cache_dir, batch_size)
    grades = sentence_fkgl(flat)
    bounds = np.cumsum([0, *(len(s) for s in split)])
    return Features(
        list(documents),
        [vectors[a:b] for a, b in zip(bounds[:-1], bounds[1:])],
        [grades[a:b] for a, b in zip(bounds[:-1], bounds[1:])],
    )


def _cached_embeddings(encoder: str, sentences: list[str], cache_dir: Path | None, batch_size: int) -> np.ndarray:
    from simpeval_sle.encoder import resolve_encoder

    directory = Path(cache_dir or default_cache_dir()) / "sle-features"
    model = models.content_hash(models.locate(resolve_encoder(encoder), "encoder"))  # by content, never by path
    key = hashlib.sha256(json.dumps([model, MAX_LENGTH, sentences]).encode()).hexdigest()
    path = directory / f"{key}.npy"
    if path.exists():
        return np.load(path)
    vectors = embed(encoder, sentences, batch_size)
    directory.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npy")
    np.save(tmp, vectors)
    tmp.replace(path)
    return vectors


def training_examples(features: Features) -> tuple[np.ndarray, np.ndarray, int]:
    """``(X, y, dropped)``: every kept sentence's embedding and softened label, and how many outliers went."""
    levels = np.concatenate([[d.level] * len(v) for d, v in zip(features.documents, features.vectors)])
    scores = -np.concatenate([np.asarray(g, dtype=float) for g in features.fkgl])
    kept, labels = soften_labels(levels, scores)
    vectors = np.concatenate(features.vectors)
    return vectors[kept].astype(np.float32), labels.astype(np.float32), int((~kept).sum())


def document_levels(predict: Callable[[np.ndarray], list[float]], features: Features) -> np.ndarray:
    """Each document's predicted level: the mean of its sentences' predictions (NaN without sentences)."""
    return mean_levels(predict, features.vectors)


def mean_levels(predict: Callable[[np.ndarray], list[float]], vectors: Sequence[np.ndarray]) -> np.ndarray:
    """Per text (its sentences' embeddings as rows): the mean predicted level, NaN for a text without sentences."""
    flat = predict(np.concatenate(vectors)) if vectors else []
    out, start = [], 0
    for rows in vectors:
        out.append(float(np.mean(flat[start : start + len(rows)])) if len(rows) else np.nan)
        start += len(rows)
    return np.asarray(out)


def mae_by_level(predicted: Sequence[float], documents: Sequence[Document], n_levels: int) -> dict[str, float]:
    """Document MAE against the true level, per level (``"0"``, ``"1"``, ...) and ``"all"``."""
    predicted = np.asarray(predicted, dtype=float)
    truth = np.asarray([d.level for d in documents], dtype=float)
    errors = np.abs(predicted - truth)
    result = {str(level): float(np.nanmean(errors[truth == level])) for level in range(n_levels) if (truth == level).any()}
    result["all"] = float(np.nanmean(errors))
    return result


class Epochs:
    """The head from seed ``settings.seed``, one epoch per :meth:`step` (the epoch of every SLE trainer); every
    epoch's weights are kept, and :meth:`keep` loads one."""

    def __init__(self, train: Features, valid: Features, settings: TrainSettings,
                 log: Callable[[str], None] = print) -> None:
        import torch

        from simpeval_sle.model import SleConfig, build_head

        self.started = time.perf_counter()
        x, y, dropped = training_examples(train)
        torch.manual_seed(settings.seed)
        self.config = SleConfig(input_size=x.shape[1], hidden_size=settings.hidden_size, dropout=settings.dropout)
        self.head = build_head(self.config)
        self.optimiser = torch.optim.Adam(self.head.parameters(), lr=settings.learning_rate,
                                          weight_decay=settings.weight_decay)
        self.generator = torch.Generator().manual_seed(settings.seed)
        self.inputs, self.targets = torch.from_numpy(x), torch.from_numpy(y)
        self.report = TrainReport(train_sentences=len(y), dropped_outliers=dropped)
        self.valid, self.settings, self.log = valid, settings, log
        self.epoch = self.stale = 0

    def step(self) -> bool:
        """One epoch; True when training stops (the last epoch, or ``patience`` without a lower validation MAE)."""
        import torch
        from torch import nn

        from simpeval_sle.model import predict_embeddings

        head, report, n = self.head, self.report, len(self.targets)
        self.epoch += 1
        head.train()
        total = 0.0
        for batch in torch.randperm(n, generator=self.generator).split(self.settings.batch_size):
            self.optimiser.zero_grad()
            loss = nn.functional.mse_loss(head(self.inputs[batch]).squeeze(-1), self.targets[batch])
            loss.backward()
            self.optimiser.step()
            total += loss.item() * len(batch)
        head.eval()
        valid_mae = mae_by_level(document_levels(lambda v: predict_embeddings(head, v), self.valid),
                                 self.valid.documents, len(self.config.levels))["all"]
        report.history.append({"epoch": self.epoch, "train_loss": total / n, "valid_document_mae": valid_mae})
        report.snapshots[self.epoch] = {k: v.detach().clone() for k, v in head.state_dict().items()}
        self.log(f"epoch {self.epoch}: train loss {total / n:.4f}, validation document MAE {valid_mae:.4f}")
        if valid_mae < report.best_valid_mae:
            report.best_epoch, report.best_valid_mae, self.stale = self.epoch, valid_mae, 0
        else:
            self.stale += 1
            if self.stale >= self.settings.patience:
                return True
        return self.epoch >= self.settings.max_epochs

    def keep(self, epoch: int | None = None) -> int:
        """Load epoch ``epoch``'s weights (default: the lowest validation MAE); returns the epoch."""
        epoch = self.report.best_epoch if epoch is None else epoch
        self.head.load_state_dict(self.report.snapshots[epoch])
        self.head.eval()
        self.report.seconds = time.perf_counter() - self.started
        return epoch


def fkgl_baseline(train: Sequence[Document], evaluated: Sequence[Document], fkgl=None) -> np.ndarray:
    """Levels predicted by a least-squares line from document FKGL to level, fitted on ``train``.

    The document's FKGL is ``fkgl``'s (default: the registry's ``fkgl`` with its default settings) over
    the whole text (pooled counts).
    """
    if fkgl is None:
        fkgl = registry_fkgl()
    x = np.asarray(fkgl.grades([d.text for d in train]))
    slope, intercept = np.polyfit(x, np.asarray([d.level for d in train], dtype=float), 1)
    return slope * np.asarray(fkgl.grades([d.text for d in evaluated])) + intercept


def registry_fkgl():
    """The registry's ``fkgl`` metric with its default settings: the one FKGL every baseline here uses."""
    from simpeval.registry import load_registry

    return load_registry(autoload=False).create_metric("fkgl")
