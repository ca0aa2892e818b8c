"""Texts' SLE levels from a checkpoint, kept by a run: what the metrics ``sle``, ``sle-delta`` and ``sledoc`` read.

The checkpoint is loaded by the trainer class it names (:func:`simpeval.learning.trainer.load_from_checkpoint`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from simpeval.learning.trainer import load_from_checkpoint
from simpeval_sle.encoder import embed
from simpeval_sle.model import predict_embeddings
from simpeval_sle.segment import sentences_of
from simpeval_sle.trainer import SleTrainer

if TYPE_CHECKING:
    from simpeval.run import Run


class Predictor:
    """Sentence and text levels from one checkpoint; each sentence's level is computed once while
    the run keeps it (in the run's memory, within its budget).

    :param run: the run that keeps the encoder and the levels (default: a private one).
    """

    def __init__(self, directory: str | Path, run: Run | None = None, device: str | None = None) -> None:
        from simpeval.run import Run

        self.config, self.head = load_from_checkpoint(directory, [SleTrainer])
        self.run = run or Run()
        self.device = device  # the encoder's (cpu, cuda, cuda:N, mps; None: cuda if available); the head runs on the CPU

    def sentence_levels(self, sentences: Sequence[str], batch_size: int = 64) -> list[float]:
        memory = self.run.memory
        levels = {s: memory.get((self, s)) for s in dict.fromkeys(sentences)}
        missing = [s for s, level in levels.items() if level is None]
        if missing:
            vectors = embed(self.config.encoder, missing, batch_size, run=self.run, device=self.device)
            for sentence, level in zip(missing, predict_embeddings(self.head, vectors)):
                levels[sentence] = level
                memory.put((self, sentence), level, LEVEL_BYTES + len(sentence))
        return [levels[s] for s in sentences]

    def text_levels(self, texts: Sequence[str], batch_size: int = 64) -> list[float]:
        """The mean sentence level of each text (SLEdoc eq. 1); NaN for a text with no sentence."""
        split = [sentences_of(t) for t in texts]
        levels = iter(self.sentence_levels([s for sentences in split for s in sentences], batch_size))
        return [sum(next(levels) for _ in sentences) / len(sentences) if sentences else math.nan
                for sentences in split]


LEVEL_BYTES = 200
"""What a kept sentence level costs beyond the sentence's characters (a float, a key, a table slot)."""


def predictor(run: Run, directory: str, device: str | None = None) -> Predictor:
    """The run's :class:`Predictor` of a checkpoint on an encoder ``device``, keyed by its content, so
    ``sle``, ``sle-delta`` and ``sledoc`` in one run encode each sentence once."""
    from simpeval import models

    key = ("sle-predictor", models.content_hash(models.locate(directory, "sle:checkpoint")), device)
    return run.resource(key, lambda: Predictor(directory, run, device))
