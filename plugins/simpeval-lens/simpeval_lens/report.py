"""What a lens-mini checkpoint records about its training: data, labels, the choice, the left-out table."""

from __future__ import annotations

from collections.abc import Sequence

from simpeval.learning.rated import LABELS
from simpeval.learning.report import folds_record
from simpeval_lens.data import Example
from simpeval_lens.settings import TrainSettings


def training_record(result, settings: TrainSettings, examples: dict[str, Sequence[Example]]) -> dict:
    return {
        "data": {name: {"outputs": len(ex), "label": LABELS["simplicity"][name]} for name, ex in examples.items()},
        "target": "the dataset's simplicity label, z-scored within the dataset; texts lower-cased; "
                  "references equal to the output left out",
        "selection": "seed and epochs with the best mean leave-one-dataset-out Pearson r (no split of one dataset); "
                     "each left-out row: the seed and epochs chosen on the other datasets",
        "settings": {"learning_rate": settings.learning_rate, "batch_size": settings.batch_size,
                     "max_epochs": settings.max_epochs},
        "selected": {"seed": result.seed, "epochs": result.epochs},
        "leave_one_dataset_out": folds_record(result.folds),
        "curves": {str(seed): {n: [round(r, 4) for r in c] for n, c in curves.items()}
                   for seed, curves in result.curves.items()},
        "seconds": round(result.seconds, 1),
    }
