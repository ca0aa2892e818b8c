"""``simpeval train siera``: SIERA on the trainer protocol (:class:`simpeval.learning.trainer.EpochTrainer`).

SIERA trains on (original, simplified) pairs and their edit-made intermediates (:mod:`.pipeline`), one
epoch at a time (:class:`~simpeval_siera.training.Epochs`), never on a rating; its two-way score
(``siera``, :mod:`.loo`) read on the rated datasets chooses the epoch saved. Imports nothing heavy (the
registry reads this class at start-up).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from simpeval import models
from simpeval.learning import DEFAULT_DATASETS as RATED
from simpeval.learning.trainer import EpochTrainer, Option, encoder_option, epoch_options, rated_option
from simpeval_siera.augmentation import DEFAULT_CAP
from simpeval_siera.config import CONFIG_FILE, WEIGHTS_FILE
from simpeval_siera.data import NAMED_SETS
from simpeval_siera.training import TrainSettings

VARIANTS = ("base", "silver")


class SieraTrainer(EpochTrainer):
    """Train SIERA (Yamanaka and Tokunaga 2024) on (original, simplified) pairs; choose the epoch on rated data."""

    name = "siera"
    read = "siera"  # the two-way read (paper eq. 9), the metric ``siera``
    checkpoint_files = (CONFIG_FILE, WEIGHTS_FILE)
    loader = "simpeval_siera.model:load_checkpoint"
    options = (
        Option("--dataset", tuple(sorted(NAMED_SETS)), help="A named training set inside the data directory (repeatable).",
               multiple=True, name="datasets", show_default=False),
        Option("--orig", "file", help="Original sentences, one a line.", show_default=False),
        Option("--simp", "file", help="Simplifications aligned with --orig (repeatable).", multiple=True, name="simps",
               show_default=False),
        Option("--variant", VARIANTS, "silver", "base: original pairs only; silver: plus filtered intermediate sentences."),
        encoder_option(models.DEFAULT_ENCODER, "Base"),
        Option("--refs-per-source", int, None, "Use at most this many simplifications per source.", minimum=1,
               show_default=False),
        Option("--m", int, 1, "Intermediate sentences per pair (+Silver).", minimum=1, name="m"),
        Option("--cap", int, DEFAULT_CAP, "Most candidate intermediates per pair.", minimum=1),
        *epoch_options(TrainSettings(), "Epochs without a better validation loss.",
                       learning_rate="The paper used 1e-4 (bert-base, Newsela); MiniLM on ASSET learns too slowly with it."),
        rated_option("validation loss"),
    )

    def __init__(self, data_dir: Path | None = None, datasets: Sequence[str] = (), orig: Path | None = None,
                 simps: Sequence[Path] = (), variant: str = "silver", encoder: str = models.DEFAULT_ENCODER,
                 refs_per_source: int | None = None, m: int = 1, cap: int = DEFAULT_CAP, rated: str = ",".join(RATED),
                 **settings) -> None:
        from simpeval_siera.pipeline import DataSettings

        super().__init__(data_dir, rated)
        self.inputs, self.refs_per_source, self.encoder = (datasets, orig, simps), refs_per_source, encoder
        self.settings = TrainSettings(**settings)
        self.data_settings = DataSettings(variant=variant, m=m, cap=cap, seed=self.settings.seed)
        self.pairs = None

    def data(self, log) -> None:
        from simpeval_siera.pipeline import check_enough_sources, normalized_pairs

        if self.pairs is None:
            from simpeval_siera.data import load_training_pairs, subsample

            self.pairs = subsample(load_training_pairs(*self.inputs, self.data_dir), self.refs_per_source,
                                   self.data_settings.seed)
        self.pairs = normalized_pairs(self.pairs)
        check_enough_sources(self.pairs, self.data_settings.valid_fraction)  # the cheap refusals before the rated data
        self.read_judge()

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

    def predict(self, names):
        from simpeval_siera.loo import two_way_scores

        return two_way_scores(self.model, self.cache, {n: self.rated_pairs[n] for n in names})

    def save(self, directory: Path) -> None:
        from simpeval_siera.pipeline import training_record

        report = self.train_report
        self.selected = self.selection("the epoch with the lowest validation loss")
        self.model.config.training = {**training_record(self.stats, self.data_settings, self.settings, len(self.train_set),
                                                        len(self.valid_set), report), **self.selected}
        self.model.save(directory)

    def report(self, directory: Path, log) -> None:
        report = self.train_report
        self.report_choice(log, Path(directory) / "MODEL_CARD.md",
                           f"Epoch {report.selected_epoch} kept: {self.selected['selection']}; each row: its r on the "
                           "dataset left out, beside the baselines on the same items.")
        log(f"kept epoch {report.selected_epoch}; lowest validation loss: epoch {report.best_epoch} "
            f"({report.best_value:.4f}); {report.seconds:.0f} s; checkpoint in {directory}")
