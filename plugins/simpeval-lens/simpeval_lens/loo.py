"""lens-mini / lens-cla-mini judged on data they never saw: :func:`leave_one_dataset_out`, the trainer
(:mod:`simpeval_lens.trainer`) on examples already read (:func:`simpeval_lens.data.rated_examples`).

Each (seed, epochs) is a candidate, judged like SIERA's and SLE's epochs through the one selection loop
(:func:`simpeval.learning.loo.leave_one_dataset_out`): a left-out dataset's row reports the candidate
chosen on the *other* datasets' left-out correlations, so no row's choice read its own labels. No split
of one dataset is ever used, and SimpEval_2022 is refused (test data). A fold does not train on, or
choose by, the other datasets' examples that are items of the dataset it leaves out (the same
lower-cased source and output, rated twice).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from simpeval.learning.trainer import fit
from simpeval_lens.data import Example
from simpeval_lens.model import LensConfig
from simpeval_lens.settings import TrainSettings
from simpeval_lens.trainer import LensTrainer

if TYPE_CHECKING:
    import numpy as np

    from simpeval.run import Run

__all__ = ["leave_one_dataset_out"]


def leave_one_dataset_out(config: LensConfig, examples: dict[str, Sequence[Example]], settings: TrainSettings,
                          seeds: Sequence[int], baselines: dict[str, dict[str, np.ndarray]],
                          log: Callable[[str], None] = lambda _: None, run: Run | None = None) -> LensTrainer:
    """Choose seed and epochs by mean left-out correlation, then train on every dataset: the trainer of
    ``simpeval train lens-mini`` on examples already read, fitted (its ``choice``, ``curves``, ``seed``,
    ``epochs_kept``, ``model`` and ``seconds``).

    :param run: the run that keeps the encoder and the texts' embeddings (default: one for this call),
        so every fold reuses the embeddings.
    """
    if len(examples) < 2:
        raise ValueError("leave-one-dataset-out needs at least two datasets")
    return fit(LensTrainer.given({"seeds": seeds, "variant": config.variant, "run": run}, config=config,
                                 examples=dict(examples), baselines=baselines, settings=settings), log)
