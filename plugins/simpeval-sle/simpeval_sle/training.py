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

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simpeval import models
from simpeval.learning.epochs import EpochLoop
from simpeval.learning.features import cached_array
from simpeval_sle.corpus import Document
from simpeval_sle.encoder import MAX_LENGTH, embed
from simpeval_sle.labels import sentence_fkgl, soften_labels
from simpeval_sle.segment import sentences_of
from simpeval_sle.settings import TrainSettings


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
    vectors = cached_embeddings(encoder, flat, cache_dir, batch_size)
    grades = sentence_fkgl(flat)
    bounds = np.cumsum([0, *(len(s) for s in split)])
    return Features(
        list(documents),
        [vectors[a:b] for a, b in zip(bounds[:-1], bounds[1:])],
        [grades[a:b] for a, b in zip(bounds[:-1], bounds[1:])],
    )


def cached_embeddings(encoder: str, sentences: list[str], cache_dir: Path | None, batch_size: int) -> np.ndarray:
    """Each sentence's embedding, kept on disk by the encoder's content and the sentences."""
    from simpeval_sle.encoder import resolve_encoder

    model = models.content_hash(models.locate(resolve_encoder(encoder), "encoder"))  # by content, never by path
    return cached_array("sle-features", [model, MAX_LENGTH, sentences], lambda: embed(encoder, sentences, batch_size),
                        cache_dir)


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


class Epochs(EpochLoop):
    """The head from seed ``settings.seed``, one epoch per :meth:`step` (the epoch of every SLE trainer; early
    stopping on the validation document MAE and every epoch's weights: :class:`EpochLoop`)."""

    def __init__(self, train: Features, valid: Features, settings: TrainSettings,
                 log: Callable[[str], None] = print) -> None:
        import torch

        from simpeval_sle.model import SleConfig, build_head

        super().__init__(settings, log)
        x, y, self.dropped_outliers = training_examples(train)
        torch.manual_seed(settings.seed)
        self.config = SleConfig(input_size=x.shape[1], hidden_size=settings.hidden_size, dropout=settings.dropout)
        self.head = build_head(self.config)
        self.optimiser = torch.optim.Adam(self.head.parameters(), lr=settings.learning_rate,
                                          weight_decay=settings.weight_decay)
        self.generator = torch.Generator().manual_seed(settings.seed)
        self.inputs, self.targets = torch.from_numpy(x), torch.from_numpy(y)
        self.valid, self.train_sentences = valid, len(y)

    def run_epoch(self) -> tuple[float, dict[str, float]]:
        import torch
        from torch import nn

        from simpeval_sle.model import predict_embeddings

        head, n = self.head, len(self.targets)
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
        self.log(f"epoch {self.epoch}: train loss {total / n:.4f}, validation document MAE {valid_mae:.4f}")
        return valid_mae, {"train_loss": total / n, "valid_document_mae": valid_mae}

    def state(self) -> dict:
        return {k: v.detach().clone() for k, v in self.head.state_dict().items()}

    def load_state(self, state: dict) -> None:
        self.head.load_state_dict(state)
        self.head.eval()


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
