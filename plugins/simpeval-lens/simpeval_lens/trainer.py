"""``simpeval train lens-mini`` and ``simpeval train lens-cla-mini``: lens-mini / lens-cla-mini heads on the trainer
protocol (:mod:`simpeval.learning.trainer`), chosen by leave-one-dataset-out over the rated datasets.

Each rated dataset (labels z-scored per dataset) gives examples with its own references
(:func:`simpeval_lens.data.rated_examples`). A start is a seed; for every dataset left out, a head is trained
on the others' examples (without the items they share with it) and scores the left-out dataset after each
epoch, so each (seed, epochs) is a candidate; the shipped head is trained on every dataset with the
candidate of the best mean left-out r. Imports nothing heavy (the registry reads this class at start-up).
"""

from __future__ import annotations

import contextlib
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from simpeval import UsageError
from simpeval.learning import DEFAULT_DATASETS as RATED
from simpeval.learning.trainer import Option, Trainer, dataset_names, encoder_option, epoch_options
from simpeval_lens.encoder import DEFAULT_ENCODER
from simpeval_lens.settings import CONFIG_FILE, WEIGHTS_FILE, TrainSettings

if TYPE_CHECKING:
    from simpeval.learning.loo import Rated
    from simpeval.run import Run

DEFAULTS = TrainSettings()


def candidate(seed: int, epochs: int) -> str:
    """A (seed, epochs) candidate's name in the folds and the training record."""
    return f"seed {seed}, {epochs} epochs"


class LensTrainer(Trainer):
    """Train a lens-mini head (LENS, Maddela et al. 2023, on a frozen encoder) on rated datasets, leave-one-dataset-out."""

    name = "lens-mini"
    renamed = {"lens": '"lens" is the authors\' published checkpoint'}
    short_help = "Train lens-mini (a LENS head on a frozen encoder), leave-one-dataset-out."
    checkpoint_files = (CONFIG_FILE, WEIGHTS_FILE)
    loader = "simpeval_lens.model:load_checkpoint"
    fits_rated = True
    options = (
        encoder_option(DEFAULT_ENCODER),
        Option("--datasets", default=",".join(RATED),
               help="Rated datasets: each is left out in turn (SimpEval_2022 is test data and refused)."),
        Option("--seeds", "seeds", default="0", help="Seeds to try; seed and epochs are chosen by the mean left-out correlation."),
        Option("--max-epochs", int, 6, "Epochs per left-out fold; the best count is used for the final model.", minimum=1),
        Option("--batch-size", int, DEFAULTS.batch_size, "Outputs per step (each with all its references).", minimum=1),
        Option("--learning-rate", float, DEFAULTS.learning_rate, minimum=0, min_open=True),
        Option("--dropout", float, 0.1, minimum=0, maximum=1, max_open=True),
        Option("--threads", int, 1, "Torch CPU threads: on a shared, loaded machine extra threads mostly wait on each other.",
               minimum=1),
    )

    def __init__(self, data_dir: Path | None = None, encoder: str = DEFAULT_ENCODER, datasets: str = ",".join(RATED),
                 seeds=(0,), dropout: float = 0.1, threads: int = 1, variant: str = "lens", run: Run | None = None,
                 max_epochs: int = 6, **settings) -> None:
        super().__init__(data_dir)
        self.encoder, self.seeds, self.variant, self.dropout, self.threads = encoder, list(seeds), variant, dropout, threads
        self.names = dataset_names(datasets)
        self.settings = TrainSettings(max_epochs=max_epochs, **settings)
        self.config = None
        self.examples: dict = {}
        self.baselines: dict = {}
        self.curves: dict[int, dict[str, list[float]]] = {}
        self.given_run, self.run = run, run

    def make_config(self) -> bool:
        """The head's config on the encoder, unless given; True when made."""
        if self.config is not None:
            return False
        from simpeval import models
        from simpeval_lens.encoder import hidden_size, layer_count
        from simpeval_lens.model import LensConfig

        self.config = LensConfig(**models.encoder_reference(self.encoder, "LENS"), layers=layer_count(self.encoder),
                                 hidden=hidden_size(self.encoder), variant=self.variant, dropout=self.dropout)
        return True

    @property
    def label(self) -> str:
        return "lens-mini" if self.variant == "lens" else f"lens-cla-mini ({self.variant})"

    def data(self, log) -> None:
        if self.examples:  # given already (:func:`simpeval_lens.loo.leave_one_dataset_out`)
            return
        import torch

        from simpeval.datadir import resolve_data_dir
        from simpeval.learning.baselines import baseline_scores
        from simpeval.learning.rated import check_trainable, load_rated
        from simpeval_lens.data import rated_examples

        check_trainable(self.names)
        if len(set(self.names)) < 2:
            raise UsageError("leave-one-dataset-out needs at least two --datasets")
        torch.set_num_threads(self.threads)
        sets = load_rated(resolve_data_dir(self.data_dir), self.names)
        self.examples = {s.name: rated_examples(s) for s in sets}
        self.baselines = {n: baseline_scores([e.source for e in ex], [e.output for e in ex], [e.references for e in ex])
                          for n, ex in self.examples.items()}

    @contextlib.contextmanager
    def session(self):
        """One run keeps the encoder and the texts' embeddings for every fold."""
        from simpeval.run import using

        with using(self.given_run) as run:
            self.run = run
            yield

    def features(self, log) -> None:
        from simpeval.itemkeys import pair_keys
        from simpeval.learning.loo import unseen
        from simpeval_lens.training import featurize

        if self.make_config():
            log(", ".join(f"{n}: {len(e)} outputs" for n, e in self.examples.items()) + "; encoding texts")
        names, examples = list(self.examples), self.examples
        self.encoded = {name: featurize(self.config.encoder, examples[name], run=self.run) for name in names}
        self.keys = {n: pair_keys([e.source for e in examples[n]], [e.output for e in examples[n]]) for n in names}
        self.training = {held: [e for n in names if n != held for e, new in zip(examples[n], unseen(self.keys[n], self.keys[held]))
                                if new] for held in names}
        self.labels = {name: self.encoded[name].target.numpy() for name in names}

    def rated(self) -> Rated:
        from simpeval.learning.loo import Rated

        return Rated(self.labels, self.baselines, self.keys)

    def starts(self) -> list[int]:
        return self.seeds

    def start(self, seed: int, without: str | None) -> None:
        from simpeval_lens.training import Epochs, featurize

        examples = self.training[without] if without is not None else [e for n in self.examples for e in self.examples[n]]
        self.epochs = Epochs(self.config, featurize(self.config.encoder, examples, run=self.run), replace(self.settings, seed=seed))
        self.epoch = 0

    def fit_epoch(self) -> bool:
        self.epochs.train_epoch()
        self.epoch += 1
        return self.epoch >= self.settings.max_epochs

    def predict(self, names):
        from simpeval_lens.training import scores

        return {name: scores(self.epochs.model, self.encoded[name]) for name in names}

    def candidate(self, seed: int, epoch: int) -> str:
        return candidate(seed, epoch)

    def fold_done(self, seed: int, without: str, r: list[float], log) -> None:
        self.curves.setdefault(seed, {})[without] = r
        log(f"seed {seed}, {without} left out: r by epoch " + " ".join(f"{x:+.3f}" for x in r))

    def finish(self, kept: str | None) -> None:
        """The head trained on every dataset with the kept seed and epochs."""
        self.seed, self.epochs_kept = {candidate(s, e): (s, e) for s in self.seeds
                                       for e in range(1, self.settings.max_epochs + 1)}[kept]
        self.start(self.seed, None)
        for _ in range(self.epochs_kept):
            self.fit_epoch()
        self.model = self.epochs.model
        self.model.eval()

    def save(self, directory: Path) -> None:
        from simpeval_lens.report import training_record

        self.model.config.training = training_record(self)
        self.model.save(directory)

    def report(self, directory: Path, log) -> None:
        self.report_folds(self.label, log, Path(directory) / "MODEL_CARD.md",
                          f"Seed {self.seed} and {self.epochs_kept} epochs kept: the best mean left-out Pearson r; each "
                          "row: a head trained on the other datasets, r on the one left out with the seed and epochs "
                          "chosen on the other datasets.")
        log(f"seed {self.seed}, {self.epochs_kept} epochs kept; checkpoint and MODEL_CARD.md in {directory}")


class LensClaTrainer(LensTrainer):
    """Train a lens-cla-mini head (Kwak et al. 2024) on rated datasets, leave-one-dataset-out, on a frozen encoder."""

    name = "lens-cla-mini"
    renamed = {"lens-cla": '"lens" is the authors\' published checkpoint'}
    short_help = "Train lens-cla-mini (Kwak et al. 2024's head), leave-one-dataset-out."
    options = (Option("--variant", ("E", "E+R", "E+R+S"), "E+R+S",
                      "E: context/literacy projections; +R: reconstruction loss; +S: rating-adaptive target."),
               *LensTrainer.options)

    def __init__(self, variant: str = "E+R+S", **options) -> None:
        super().__init__(variant=variant, **options)


class LensSplitTrainer(LensTrainer):
    """Train a LENS or LENS-CLA head as Kwak et al. (2024) did: on SimpEval_past's outputs with ASSET test references,
    one head per seed with early stopping on a validation split of the originals; the seed of the lowest
    validation loss kept (``benchmarks/reproduce_kwak_2024.py``; no rated dataset chooses)."""

    name = "lens-split"
    renamed: dict[str, str] = {}
    short_help = "Train a LENS head on SimpEval_past's training split, early stopping on its validation split."
    fits_rated = False
    options = (Option("--variant", ("lens", "E", "E+R", "E+R+S"), "lens", "lens: LENS's head; the rest: lens-cla-mini's."),
               encoder_option(DEFAULT_ENCODER),
               Option("--seeds", "seeds", default="0", help="One head per seed; the lowest validation loss is kept."),
               *epoch_options(DEFAULTS, "Epochs without a lower validation loss.", seed=None),
               Option("--valid-fraction", float, 0.2, "Share of the originals held out for validation.", minimum=0,
                      maximum=1, min_open=True, max_open=True),
               Option("--split-seed", int, 0, minimum=0),
               *LensTrainer.options[-2:])  # --dropout, --threads

    def __init__(self, data_dir: Path | None = None, valid_fraction: float = 0.2, split_seed: int = 0,
                 max_epochs: int = DEFAULTS.max_epochs, **options) -> None:
        super().__init__(data_dir, max_epochs=max_epochs, **options)
        self.valid_fraction, self.split_seed, self.examples = valid_fraction, split_seed, None
        self.models: dict = {}
        self.reports: dict = {}

    def data(self, log) -> None:
        if self.examples is None:
            from simpeval.datadir import resolve_data_dir
            from simpeval_lens.data import simpeval_past_examples

            self.examples = simpeval_past_examples(resolve_data_dir(self.data_dir))

    def features(self, log) -> None:
        """The split by original, and both sides' texts encoded once for every seed."""
        import torch

        from simpeval_lens.data import grouped_split
        from simpeval_lens.training import featurize

        if self.make_config():
            torch.set_num_threads(self.threads)
        self.split = grouped_split(self.examples, self.valid_fraction, self.split_seed)
        log(f"{len(self.split[0])} training and {len(self.split[1])} validation outputs; encoding texts")
        self.train_set, self.valid_set = (featurize(self.config.encoder, part, run=self.run) for part in self.split)

    def rated(self) -> None:
        return None

    def start(self, seed: int, without: None) -> None:
        from simpeval_lens.training import Epochs

        self.seed = seed
        self.epochs = Epochs(self.config, self.train_set, replace(self.settings, seed=seed), self.valid_set, self.log)

    def fit_epoch(self) -> bool:
        if not self.epochs.step():
            return False
        self.reports[self.seed], self.models[self.seed] = self.epochs.keep(), self.epochs.model
        return True

    def finish(self, kept: None) -> None:
        """The seed of the lowest validation loss."""
        from simpeval_lens.report import split_record

        self.best_seed = min(self.seeds, key=lambda s: self.reports[s].best_value)
        self.model = self.models[self.best_seed]
        self.model.config.training = split_record(self)

    def save(self, directory: Path) -> None:
        self.model.save(directory)

    def report(self, directory: Path, log) -> None:
        log(f"seed {self.best_seed} kept (validation loss {self.reports[self.best_seed].best_value:.4f}); checkpoint "
            f"in {directory}")
