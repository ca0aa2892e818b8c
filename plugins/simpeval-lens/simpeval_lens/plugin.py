"""The ``lens`` and ``lens-cla`` metrics and the ``simpeval train lens`` / ``lens-cla`` commands.

Nothing heavy is imported here: torch and transformers load when a metric first scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import simpeval
from simpeval import models
from simpeval_lens import __version__
from simpeval_lens.settings import CONFIG_FILE

SHIPPED = "shipped"
CHECKPOINTS = Path(__file__).parent / "checkpoints"


class Lens(simpeval.Metric):
    """LENS: a learned score of an output given its source and references (0-100, higher is better).

    The shipped checkpoint is a feed-forward head on frozen MiniLM embeddings trained on
    SimpEval_past (see ``checkpoints/MODEL_CARD.md``); ``checkpoint=DIR`` loads one written by
    ``simpeval train lens``. An output is scored against each reference; the best counts.
    """

    name = "lens"
    description = "learned simplification quality vs. source and references (LENS, frozen MiniLM)"
    requires_references = True
    neural = True
    version = __version__
    shipped_directory = "lens"
    options = {
        "checkpoint": simpeval.Option(
            str, default=SHIPPED, path=True, help="a directory written by `simpeval train`; 'shipped': the packaged one"),
        "batch_size": simpeval.Option(int, default=32, help="texts per encoder pass", in_signature=False),
    }

    def __init__(self, **settings) -> None:
        super().__init__(**settings)
        if self.batch_size < 1:
            raise simpeval.UsageError(f'option "batch_size" must be at least 1, got {self.batch_size}')

    @classmethod
    def locate_model(cls, option_name: str, value: object) -> Path:
        """Where checkpoint ``value`` lives: the packaged one for ``shipped``, else the path given."""
        return CHECKPOINTS / cls.shipped_directory if value == SHIPPED else Path(str(value))

    def directory(self) -> Path:
        """Where this metric's checkpoint lives (:meth:`locate_model`)."""
        return self.locate_model("checkpoint", self.checkpoint)

    def fingerprint(self, option_name: str, value: object) -> str:
        """The checkpoint (``shipped`` for the packaged one) and the encoder it names, by content."""
        option = f"{self.name}:checkpoint"
        encoder, encoder_hash = models.checkpoint_encoder_reference(self.directory(), CONFIG_FILE, option)
        return models.checkpoint_fingerprint(self.directory(), encoder, option, label=SHIPPED if value == SHIPPED else None,
                                             encoder_hash=encoder_hash, command=f"simpeval train {self.name}")

    def model(self):
        """The checkpoint's head, kept by the metric's run under the checkpoint's content hash."""
        from simpeval_lens.model import load_checkpoint

        directory = self.directory()
        key = ("lens-head", models.content_hash(models.locate(directory, f"{self.name}:checkpoint")))
        return self.run.resource(key, lambda: load_checkpoint(directory))

    def _score_items(self, sources: Sequence[str], outputs: Sequence[str],
                        references: Sequence[Sequence[str]] | None = None) -> dict[str, list[float]]:
        if not sources:
            return {self.name: []}
        from simpeval_lens.inference import lens_scores

        return {self.name: lens_scores(self.model(), sources, outputs, references, self.batch_size, run=self.run)}


class LensCla(Lens):
    """LENS with the context- and literacy-aware modules of Kwak et al. (2024), variant E+R+S when shipped."""

    name = "lens-cla"
    description = "LENS with context/literacy-aware modules (Kwak et al. 2024), frozen MiniLM"
    shipped_directory = "lens-cla"


@simpeval.hookimpl
def simpeval_register_metrics():
    return [Lens, LensCla]


@simpeval.hookimpl
def simpeval_register_commands(cli, train) -> None:
    from simpeval_lens.cli import train_lens_cla_command, train_lens_command

    train.add_command(train_lens_command, name="lens")
    train.add_command(train_lens_cla_command, name="lens-cla")
