"""The ``simpq`` metric (sub-scores ``simpq-simplicity``, ``simpq-meaning``, ``simpq-fluency``) and its trainer.

Nothing heavy is imported here (numpy and wordfreq load when the metric first scores).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import simpeval
from simpeval_simpq import __version__
from simpeval_simpq.files import CHECKPOINT_FILE

SHIPPED = "shipped"
CHECKPOINT = Path(__file__).parent / "checkpoint"


class Simpq(simpeval.Metric):
    """simpq: simplicity, meaning and fluency predicted from interpretable features by a linear model per aspect.

    The primary score ``simpq`` is ``simpq-simplicity``. Each aspect was trained on the human labels
    of that aspect only (simplicity net of the same raters' meaning and fluency judgements), on the
    rated datasets that have them (never SimpEval_2022), and chosen by leave-one-dataset-out
    correlation (``checkpoint/MODEL_CARD.md``). Scores are on the z-scale of the training labels
    (0 = an average output). References help (SARI, BLEU, embeddings); without them those features
    are 0. CEScore's parts are features when the ``simpeval-cescore`` plugin is installed
    (``cescore=auto``, the signature says which); MiniLM similarities only with ``embeddings=yes``
    (slower: the encoder costs most of the time).
    """

    name = "simpq"
    sub_scores = ("simpq", "simpq-simplicity", "simpq-meaning", "simpq-fluency")
    description = "learned simplicity/meaning/fluency from interpretable features (linear, leave-one-dataset-out)"
    requires_references = False
    version = __version__
    formula_version = "2"  # 2: CEScore and embedding feature variants; simplicity net of meaning and fluency
    trained_on = ("simplicity-da", "structural-simplicity")
    model_card = str(CHECKPOINT / "MODEL_CARD.md")
    options = {
        "checkpoint": simpeval.Option(str, default=SHIPPED, path=True,
                                      help="a directory written by `simpeval train simpq`; 'shipped': the packaged one"),
        "cescore": simpeval.Option(str, default="auto", choices=("auto", "yes", "no"),
                                   help="CEScore's S/M/G as features; auto: when simpeval-cescore is installed"),
        "embeddings": simpeval.Option(bool, default=False,
                                      help="MiniLM similarity to the source and references as features (slower)"),
    }

    def __init__(self, **settings) -> None:
        super().__init__(**settings)
        from simpeval_simpq.features import cescore_available

        if self.cescore == "auto":  # resolved here, so the signature and cache key say what was used
            self.cescore = self.settings["cescore"] = "yes" if cescore_available() else "no"
        elif self.cescore == "yes" and not cescore_available():
            raise simpeval.UsageError("simpq:cescore=yes needs the CEScore plugin: pip install -e plugins/simpeval-cescore")
        self._models = None

    def groups(self) -> tuple[str, ...]:
        """The feature groups these settings read (the checkpoint variant used)."""
        return ("base", *(("cescore",) if self.cescore == "yes" else ()), *(("embeddings",) if self.embeddings else ()))

    @classmethod
    def locate_model(cls, option_name: str, value: object) -> Path:
        """The coefficients file: the packaged one for ``shipped``, else ``simpq.json`` in the directory given."""
        return (CHECKPOINT if value == SHIPPED else Path(str(value))) / CHECKPOINT_FILE

    def directory(self) -> Path:
        return CHECKPOINT if self.checkpoint == SHIPPED else Path(self.checkpoint)

    def fingerprint(self, option_name: str, value: object) -> str:
        from simpeval import models

        return models.fingerprint(self.locate_model(option_name, value), option=f"{self.name}:checkpoint",
                                  label=SHIPPED if value == SHIPPED else None)

    def _score_items(self, sources: Sequence[str], outputs: Sequence[str],
                     references: Sequence[Sequence[str]] | None = None) -> dict[str, list[float]]:
        if self._models is None:
            from simpeval.learning.trainer import load_from_checkpoint
            from simpeval_simpq.model import variant_key

            self._models = load_from_checkpoint(self.directory(), simpeval_register_trainers())[variant_key(self.groups())]
        if not outputs:
            return {key: [] for key in self.score_names()}
        from simpeval_simpq.features import rows

        matrix = rows(sources, outputs, references, self.run, self.groups())
        scores = {f"simpq-{aspect}": model.predict(matrix).tolist() for aspect, model in self._models.items()}
        return {"simpq": scores["simpq-simplicity"], **scores}


@simpeval.hookimpl
def simpeval_register_metrics():
    return [Simpq]


@simpeval.hookimpl
def simpeval_register_trainers():
    from simpeval_simpq.trainer import SimpqTrainer

    return [SimpqTrainer]
