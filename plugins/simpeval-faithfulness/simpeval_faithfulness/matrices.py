"""SummaC's entailment matrices: NLI probabilities for every (premise chunk, hypothesis sentence).

For a pair of texts, the premise text is cut into chunks (capped at
``max_chunks``, as SummaC caps documents at 100 sentences) and the hypothesis
text into sentences; row ``i``, column ``j`` of each matrix holds the NLI
probability that chunk ``i`` entails (contradicts) sentence ``j``. All the
pairs of a corpus go through the NLI model in one batched pass, each distinct
(premise, hypothesis) pair once.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from simpeval.run import Run, using
from simpeval_faithfulness.nli import check_label_indices, load_nli, predict_probabilities
from simpeval_faithfulness.segment import chunk, split_sentences

logger = logging.getLogger("simpeval.faithfulness")


@dataclass(frozen=True)
class EntailmentMatrix:
    """NLI probabilities of one text pair; rows are premise chunks, columns hypothesis sentences.

    ``neutral`` is ``1 - entailment - contradiction``: the third label of a
    three-label model (SummaC takes the remaining index as neutral).
    """

    entailment: np.ndarray
    contradiction: np.ndarray

    @property
    def neutral(self) -> np.ndarray:
        return np.clip(1.0 - self.entailment - self.contradiction, 0.0, 1.0)

    @property
    def is_empty(self) -> bool:
        """True when either text had no sentence: there is nothing to compare."""
        return self.entailment.size == 0


@dataclass(frozen=True)
class NLISettings:
    """How texts are cut and which NLI model labels them (everything that changes a score)."""

    model: str
    entailment_idx: int = 0
    contradiction_idx: int = 1
    granularity: str = "sentence"
    min_chars: int = 10
    max_chunks: int = 100
    max_length: int = 500


def build_matrices(
    text_pairs: Sequence[tuple[str, str]],
    settings: NLISettings,
    *,
    batch_size: int = 32,
    device: str = "cpu",
    progress: bool = False,
    run: Run | None = None,
) -> list[EntailmentMatrix]:
    """One :class:`EntailmentMatrix` per (premise text, hypothesis text) pair.

    Premise texts with more than ``settings.max_chunks`` chunks keep their first
    ``max_chunks``; how many texts were cut is logged as a warning.
    """
    units = [_units(premise, hypothesis, settings) for premise, hypothesis in text_pairs]
    capped = sum(n_chunks > settings.max_chunks for _, _, n_chunks in units)
    if capped:
        logger.warning(
            "%d of %d premise texts have more than max_chunks=%d chunks: only their first %d were scored",
            capped, len(units), settings.max_chunks, settings.max_chunks,
        )
    index: dict[tuple[str, str], int] = {}
    for chunks, sentences, _ in units:
        for premise in chunks:
            for hypothesis in sentences:
                index.setdefault((premise, hypothesis), len(index))
    with using(run) as run:
        columns = _entailment_contradiction(list(index), settings, batch_size, device, progress, run)
    matrices = []
    for chunks, sentences, _ in units:
        ids = np.array([[index[(p, h)] for h in sentences] for p in chunks], dtype=int)
        ids = ids.reshape(len(chunks), len(sentences))
        matrices.append(EntailmentMatrix(columns[ids, 0], columns[ids, 1]))
    return matrices


def _entailment_contradiction(
    pairs: list[tuple[str, str]], settings: NLISettings, batch_size: int, device: str, progress: bool, run: Run
) -> np.ndarray:
    """Entailment and contradiction probabilities, shape ``(len(pairs), 2)``."""
    if not pairs:
        return np.zeros((0, 2))
    _, nli = load_nli(run, settings.model, device)
    check_label_indices(
        int(nli.config.num_labels),
        entailment_idx=settings.entailment_idx,
        contradiction_idx=settings.contradiction_idx,
    )
    probabilities = predict_probabilities(
        pairs, settings.model, max_length=settings.max_length,
        batch_size=batch_size, device=device, progress=progress, run=run,
    )
    return probabilities[:, [settings.entailment_idx, settings.contradiction_idx]]


def _units(premise: str, hypothesis: str, settings: NLISettings) -> tuple[list[str], list[str], int]:
    chunks = chunk(premise, settings.granularity, settings.min_chars)
    return chunks[: settings.max_chunks], split_sentences(hypothesis, settings.min_chars), len(chunks)
