"""The ``simpq`` metric (sub-scores ``simpq-simplicity``, ``simpq-meaning``, ``simpq-fluency``) and its trainer.

Nothing heavy is imported here (numpy and wordfreq load when the metric first scores).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import simpeval
from simpeval_simpq import __version__

SHIPPED = "shipped"
CHECKPOINT = Path(__file__).parent / "checkpoint"


class Simpq(simpeval.Metric):
    """simpq: simplicity, meaning and fluency predicted from interpretable features by a ridge model per aspect.

    The primary score ``simpq`` is ``simpq-simplicity``. Each aspect was trained on the human labels
    of that aspect only, every rated dataset simpeval has (never SimpEval_2022), and chosen by
    leave-one-dataset-out correlation (``checkpoint/MODEL_CARD.md``). Scores are on the z-scale of
    the training labels (0 = an average output). References help (SARI, BLEU); without them those
    features are 0.
    """

    name = "simpq"
    sub_scores = ("simpq", "simpq-simplicity", "simpq-meaning", "simpq-fluency")
    description = "learned simplicity/meaning/fluency from interpretable features (ridge, leave-one-dataset-out)"
    requires_references = False
    version = __version__
    trained_on = ("simplicity-da", "structural-simplicity", "simpeval-past")
    model_card = str(CHECKPOINT / "MODEL_CARD.md")
    options = {
        "checkpoint": simpeval.Option(str, default=SHIPPED, path=True,
                                      help="a directory written by `simpeval train simpq`; 'shipped': the packaged one"),
    }

    def __init__(self, **settings) -> None:
        super().__init__(**settings)
        self._models = None

    @classmethod
    def locate_model(cls, option_name: str, value: object) -> Path:
        """The coefficients file: the packaged one for ``shipped``, else ``simpq.json`` in the directory given."""
        return (CHECKPOINT if value == SHIPPED else Path(str(value))) / "simpq.json"

    def directory(self) -> Path:
        return CHECKPOINT if self.checkpoint == SHIPPED else Path(self.checkpoint)

    def fingerprint(self, option_name: str, value: object) -> str:
        from simpeval import models

        return models.fingerprint(self.locate_model(option_name, value), option=f"{self.name}:checkpoint",
                                  label=SHIPPED if value == SHIPPED else None)

    def _score_items(self, sources: Sequence[str], outputs: Sequence[str],
                     references: Sequence[Sequence[str]] | None = None) -> dict[str, list[float]]:
        if self._models is None:
            from simpeval_simpq.model import load

            self._models = load(self.directory())
        if not outputs:
            return {key: [] for key in self.score_names()}
        from simpeval_simpq.features import features

        matrix = features(sources, outputs, references, self.run)
        scores = {f"simpq-{aspect}": model.predict(matrix).tolist() for aspect, model in self._models.items()}
        return {"simpq": scores["simpq-simplicity"], **scores}


@simpeval.hookimpl
def simpeval_register_metrics():
    return [Simpq]


@simpeval.hookimpl
def simpeval_register_commands(cli, train) -> None:
    from simpeval_simpq.cli import train_simpq_command

    train.add_command(train_simpq_command, name="simpq")
