"""``simpeval train sle``: SLE on the trainer protocol (:class:`simpeval.learning.trainer.EpochTrainer`).

The head learns OneStopEnglish's reading levels (:mod:`.training`), one epoch at a time, never a
rating; its ``sle-delta`` (:mod:`.loo`) read on the rated datasets chooses the epoch shipped. The kept
head is scored once on the test articles, beside an FKGL-regression baseline (:mod:`.pipeline`). Imports
nothing heavy (the registry reads this class at start-up).
"""

from __future__ import annotations

import time
from pathlib import Path

from simpeval.learning import DEFAULT_DATASETS as RATED
from simpeval.learning.trainer import EpochTrainer, Option, encoder_option, epoch_options, rated_option
from simpeval_sle.encoder import DEFAULT_ENCODER
from simpeval_sle.settings import CONFIG_FILE, WEIGHTS_FILE, TrainSettings

DEFAULTS = TrainSettings()


class SleTrainer(EpochTrainer):
    """Train SLE (Cripwell et al. 2023) on OneStopEnglish's three reading levels; choose the epoch on rated data."""

    name = "sle"
    read = "sle-delta"  # SLE(output) - SLE(source), the metric the SLE paper evaluates simplifications with
    checkpoint_files = (CONFIG_FILE, WEIGHTS_FILE)
    loader = "simpeval_sle.model:load_checkpoint"
    options = (
        encoder_option(DEFAULT_ENCODER),
        *epoch_options(DEFAULTS, "Epochs without a lower validation document MAE before stopping.",
                       seed="Seeds the article split and the head's initialisation.",
                       extra=[Option("--hidden-size", int, DEFAULTS.hidden_size, minimum=1)]),
        rated_option("validation MAE"),
    )

    def __init__(self, data_dir: Path | None = None, encoder: str = DEFAULT_ENCODER, rated: str = ",".join(RATED),
                 **settings) -> None:
        super().__init__(data_dir, rated)
        self.encoder, self.settings = encoder, TrainSettings(**settings)

    def data(self, log) -> None:
        from simpeval.datadir import resolve_data_dir
        from simpeval_sle.corpus import load_corpus, split_articles

        self.data_dir = resolve_data_dir(self.data_dir)
        self.read_judge()
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

    def predict(self, names):
        from simpeval_sle.loo import delta_scores
        from simpeval_sle.model import predict_embeddings

        head = self.epochs.head
        return delta_scores(lambda v: predict_embeddings(head.eval(), v), {n: self.rated_texts[n] for n in names})

    def save(self, directory: Path) -> None:
        from simpeval_sle.pipeline import save_trained

        self.config = save_trained(self, directory)

    def report(self, directory: Path, log) -> None:
        self.report_choice(log)
        record = self.config.training
        mae, baseline = record["test_document_mae"], record["test_document_mae_fkgl_baseline"]
        log(f"kept epoch {record['selected_epoch']}; test document MAE {mae['all']:.3f} "
            f"(FKGL regression {baseline['all']:.3f}); {record['seconds']:.0f} s; checkpoint in {directory}")
