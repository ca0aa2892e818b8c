"""``simpeval train simpq``: simpq on the trainer protocol (:mod:`simpeval.learning.trainer`).

Features of every rated dataset are computed once (:func:`simpeval_simpq.training.featurize`); each
variant's model for each aspect is chosen by the one selection loop, its candidates (ridge penalties,
single features) each fitted in one closed-form epoch (:func:`simpeval.learning.loo.select`), and the
kept candidate refitted on every dataset. Imports nothing heavy (the registry reads this class at start-up).
"""

from __future__ import annotations

from pathlib import Path

from simpeval import UsageError
from simpeval.learning.trainer import Option, Trainer, dataset_names
from simpeval_simpq.files import CHECKPOINT_FILE

DEFAULT_DATASETS = "simplicity-da,structural-simplicity"


class SimpqTrainer(Trainer):
    """Train simpq's three aspects; print each aspect's leave-one-dataset-out table beside the baselines."""

    name = "simpq"
    short_help = "Train simpq on the rated datasets, selected by leave-one-dataset-out."
    checkpoint_files = (CHECKPOINT_FILE,)
    loader = "simpeval_simpq.model:Checkpoint"  # variant -> aspect -> model, each variant read when asked
    options = (
        Option("--datasets", default=DEFAULT_DATASETS, help="Rated datasets to train on (SimpEval_2022 is test data and refused)."),
        Option("--embeddings/--no-embeddings", bool, True,
               "Also train the variants with MiniLM similarity features (encodes every text once)."),
        Option("--feature-cache", "file", None, "An .npz where features are kept between runs.", show_default=False),
    )

    def __init__(self, data_dir: Path | None = None, datasets: str = DEFAULT_DATASETS, embeddings: bool = True,
                 feature_cache: Path | None = None) -> None:
        super().__init__(data_dir)
        self.names = dataset_names(datasets)
        self.embeddings, self.feature_cache = embeddings, feature_cache

    def data(self, log) -> None:
        from simpeval.datadir import resolve_data_dir
        from simpeval.learning.rated import check_trainable, load_rated
        from simpeval_simpq.model import ASPECTS
        from simpeval_simpq.training import aspect_labels, available_groups

        check_trainable(self.names)
        self.sets = load_rated(resolve_data_dir(self.data_dir), self.names)
        if all(len(aspect_labels(self.sets, aspect)) < 2 for aspect in ASPECTS):  # before any feature is computed
            raise UsageError("no aspect is rated by two of these datasets: leave-one-dataset-out needs two")
        self.groups = tuple(g for g in available_groups() if self.embeddings or g != "embeddings")

    def features(self, log) -> None:
        from simpeval_simpq.training import featurize

        self.matrices = featurize(self.sets, self.feature_cache, self.groups, log=log)

    def fit(self, log) -> None:
        """Every variant's model for every aspect, each through the selection loop (:func:`simpeval_simpq.training.train`)."""
        from simpeval_simpq.training import train

        self.results = train(self.sets, self.matrices, groups=self.groups)

    def save(self, directory: Path) -> None:
        from simpeval_simpq.model import save, to_json
        from simpeval_simpq.training import training_record

        save(directory, to_json({key: {a: r.model for a, r in aspects.items()} for key, aspects in self.results.items()},
                                training_record(self.results)))

    def report(self, directory: Path, log) -> None:
        from simpeval.learning.report import loo_table

        results = self.results
        log("\n".join(loo_table([(f"simpq-{aspect} ({variant})", result.folds)
                                 for variant, aspects in results.items() for aspect, result in aspects.items()])))
        log("kept (the best mean left-out r, fitted on every dataset): " + "; ".join(
            f"{variant} {aspect}: {result.chosen}" for variant, aspects in results.items() for aspect, result in aspects.items()))
        log(f"checkpoint in {directory}")
