"""What a lens-mini checkpoint records about its training: data, labels, the choice, the left-out table (or, for
:class:`~simpeval_lens.trainer.LensSplitTrainer`, the split and every seed's early stopping)."""

from __future__ import annotations

from simpeval.learning.rated import LABELS
from simpeval.learning.report import folds_record


def training_record(trainer) -> dict:
    """The ``training`` record of a :class:`~simpeval_lens.trainer.LensTrainer` that has chosen and fitted."""
    settings = trainer.settings
    return {
        "data": {name: {"outputs": len(ex), "label": LABELS["simplicity"][name]} for name, ex in trainer.examples.items()},
        "target": "the dataset's simplicity label, z-scored within the dataset; texts lower-cased; "
                  "references equal to the output left out",
        "selection": "seed and epochs with the best mean leave-one-dataset-out Pearson r (no split of one dataset); "
                     "each left-out row: the seed and epochs chosen on the other datasets",
        "settings": {"learning_rate": settings.learning_rate, "batch_size": settings.batch_size,
                     "max_epochs": settings.max_epochs},
        "selected": {"seed": trainer.seed, "epochs": trainer.epochs_kept},
        "leave_one_dataset_out": folds_record(trainer.choice.folds),
        "curves": {str(seed): {n: [round(r, 4) for r in c] for n, c in curves.items()}
                   for seed, curves in trainer.curves.items()},
        "seconds": round(trainer.seconds, 1),
    }


def split_record(trainer) -> dict:
    """The ``training`` record of a :class:`~simpeval_lens.trainer.LensSplitTrainer` that has kept a seed."""
    return {
        "data": "simpeval-past (SimpEval_past, Maddela et al. 2023) with ASSET test references; "
                "ASSET-reference systems and references equal to the output left out",
        "target": "mean of the rating z-scores",
        "split": f"{trainer.valid_fraction:.0%} of the originals held out for validation (split seed {trainer.split_seed})",
        "train_outputs": len(trainer.split[0]),
        "valid_outputs": len(trainer.split[1]),
        "settings": vars(trainer.settings) | {"seed": trainer.best_seed},
        "seeds": {str(s): {"best_epoch": r.best_epoch, "valid_loss": round(r.best_value, 5),
                           "valid_pearson": round(r.at_best("valid_pearson"), 4), "seconds": round(r.seconds, 1)}
                  for s, r in trainer.reports.items()},
        "selected_seed": trainer.best_seed,
    }
