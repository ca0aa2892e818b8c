"""Training learned metrics so that they are judged on data they never saw.

- :mod:`.rated`: every human-rated dataset with a label for an aspect, ratings normalised per dataset;
- :mod:`.loo`: leave-one-dataset-out folds and the one selection loop every trainer goes through;
- :mod:`.trainer`: the trainer protocol behind ``simpeval train NAME`` (data, features, one epoch, predict,
  save and load), and checkpoints that name their trainer class (:func:`.trainer.load_from_checkpoint`);
- :mod:`.baselines`: every registry metric that needs no model, on the same items;
- :mod:`.verdict`: the one judge: a learned r in its direction beside the strongest baseline, win, loss or
  contaminated;
- :mod:`.heldout`: a shipped learned metric judged on the rated data outside its training data;
- :mod:`.record`: each learned metric's judged record, and its card and ``metrics show`` rendered from it;
- :mod:`.judge`: the rated data that trainers without rated training data (SIERA, SLE) choose on;
- :mod:`.report`: the leave-one-dataset-out table, the checkpoint record and the model-card section.

This module imports nothing heavy (command lines read :data:`DEFAULT_DATASETS` at start-up).
"""

__all__ = ["DEFAULT_DATASETS", "MAX_SEED", "baselines", "heldout", "judge", "loo", "rated", "record", "report", "trainer",
           "verdict"]

DEFAULT_DATASETS = ("simplicity-da", "structural-simplicity", "simpeval-past")
"""Every rated dataset with a simplicity label that trainers may train or select on (SimpEval_2022 is test data)."""

MAX_SEED = 2**64 - 1
"""The largest seed a trainer takes (``--seed``): torch's generators hold 64 bits, and a larger
seed would fail deep inside torch, where it reads as the trainer's bug instead of the user's value."""
