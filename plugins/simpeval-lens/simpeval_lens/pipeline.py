"""One training run end to end: SimpEval_past examples in, the best of several seeds saved.

The texts are encoded once for every seed; each seed trains a model with early stopping on the
validation split, and the seed with the lowest validation loss is saved. Nothing here looks at a
test set.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from simpeval.run import Run, using
from simpeval_lens.data import Example, grouped_split
from simpeval_lens.model import LensConfig, LensModel
from simpeval_lens.settings import TrainSettings
from simpeval_lens.training import TrainReport, featurize, train


@dataclass
class RunResult:
    """Every seed's model and report, and which one was saved."""

    models: dict[int, LensModel] = field(default_factory=dict)
    reports: dict[int, TrainReport] = field(default_factory=dict)
    best_seed: int = 0


def train_seeds(config: LensConfig, examples: Sequence[Example], settings: TrainSettings, seeds: Sequence[int],
                output: Path | None, valid_fraction: float = 0.2, split_seed: int = 0,
                log: Callable[[str], None] = lambda _: None, run: Run | None = None) -> RunResult:
    """Train one model per seed on the same split; save the best on validation to ``output``.

    :param run: the run that keeps the encoder and the texts' embeddings (default: one for this call).
    """
    train_examples, valid_examples = grouped_split(examples, valid_fraction, split_seed)
    log(f"{len(train_examples)} training and {len(valid_examples)} validation outputs; encoding texts")
    with using(run) as run:  # one encoder load for both splits
        train_set = featurize(config.encoder, train_examples, run=run)
        valid_set = featurize(config.encoder, valid_examples, run=run)
    result = RunResult()
    for seed in seeds:
        model, report = train(config, train_set, valid_set, _with_seed(settings, seed), log)
        result.models[seed], result.reports[seed] = model, report
    result.best_seed = min(seeds, key=lambda s: result.reports[s].best_valid_loss)
    best = result.models[result.best_seed]
    best.config.training = {
        "data": "simpeval-past (SimpEval_past, Maddela et al. 2023) with ASSET test references; "
                "ASSET-reference systems and references equal to the output left out",
        "target": "mean of the rating z-scores",
        "split": f"{valid_fraction:.0%} of the originals held out for validation (split seed {split_seed})",
        "train_outputs": len(train_examples),
        "valid_outputs": len(valid_examples),
        "settings": vars(settings) | {"seed": result.best_seed},
        "seeds": {str(s): {"best_epoch": r.best_epoch, "valid_loss": round(r.best_valid_loss, 5),
                           "valid_pearson": round(r.valid_pearson, 4), "seconds": round(r.seconds, 1)}
                  for s, r in result.reports.items()},
        "selected_seed": result.best_seed,
    }
    if output is not None:
        best.save(output)
    return result


def _with_seed(settings: TrainSettings, seed: int) -> TrainSettings:
    from dataclasses import replace

    return replace(settings, seed=seed)
