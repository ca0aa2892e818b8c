"""The metric classes: ``summac-zs``, ``summac-conv``, ``esa`` and ``meaningbert``.

Each is reference-free and accepts sentences or whole documents. The SummaC
metrics score two orientations in one NLI pass (Cripwell et al. 2024, 3.3):
precision (``-p``; premise = source chunks, hypotheses = output sentences, as
in SummaC) and recall (``-r``; the roles swapped, so every source sentence
must be supported by the output). The primary score is the precision, the
released SummaC definition.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from simpeval import Metric, Option, UsageError, models
from simpeval_faithfulness import __version__
from simpeval_faithfulness.aggregate import harmonic_mean
from simpeval_faithfulness.entities import DEFAULT_PIPELINE
from simpeval_faithfulness.segment import GRANULARITIES

if TYPE_CHECKING:
    from simpeval_faithfulness.matrices import EntailmentMatrix

Scores = dict[str, list[float]]
CARDS = Path(__file__).parent / "cards"

DEFAULT_NLI_MODEL = "tals/albert-xlarge-vitaminc-mnli"
"""The NLI model of Cripwell et al. (2024) and of SummaC-Conv's released weights."""

CONV_LABEL_SETS = ("e", "c", "n", "ec", "en", "cn", "ecn")
"""The probabilities SummaC-Conv can histogram, in SummaC's order: entailment, contradiction, neutral."""

_NLI_OPTIONS = {
    "model": Option(str, default=DEFAULT_NLI_MODEL,
                    help="NLI model: local directory (save_pretrained) or a name in the hub cache", path=True),
    "entailment_idx": Option(int, default=0, help="index of the entailment label in the model's output", short="ent"),
    "contradiction_idx": Option(int, default=1, help="index of the contradiction label", short="con"),
    "granularity": Option(str, default="sentence", choices=GRANULARITIES,
                          help="premise units: sentence, paragraph or document", short="gran"),
    "min_chars": Option(int, default=10, help="sentences of at most N characters are dropped, unless all are"),
    "max_chunks": Option(int, default=100, help="premise units kept per text (the rest are cut, with a warning)"),
    "max_length": Option(int, default=500, help="NLI input length in tokens (longer pairs are truncated)"),
    "batch_size": Option(int, default=32, help="NLI pairs per batch", in_signature=False),
    "device": Option(str, default="cpu", help="torch device", in_signature=False),
    "progress": Option(bool, default=True, help="progress bar on a terminal", in_signature=False),
}


class _SummaC(Metric):
    """What the two SummaC variants share: the options and the NLI matrices of both orientations."""

    requires_references = False
    level = "document"
    neural = True
    version = __version__
    options = _NLI_OPTIONS

    def _orientations(
        self, sources: Sequence[str], outputs: Sequence[str]
    ) -> tuple[list[EntailmentMatrix], list[EntailmentMatrix]]:
        """Entailment matrices for precision (source -> output) and recall (output -> source)."""
        from simpeval_faithfulness.matrices import NLISettings, build_matrices

        for option in ("max_chunks", "max_length", "batch_size"):
            if getattr(self, option) < 1:
                raise UsageError(f"{option}={getattr(self, option)} for {self.name}: pass {option}=N with N >= 1")

        settings = NLISettings(
            model=self.model, entailment_idx=self.entailment_idx,
            contradiction_idx=self.contradiction_idx, granularity=self.granularity,
            min_chars=self.min_chars, max_chunks=self.max_chunks, max_length=self.max_length,
        )
        pairs = list(zip(sources, outputs)) + list(zip(outputs, sources))
        matrices = build_matrices(
            pairs, settings, batch_size=self.batch_size, device=self.device, progress=self.progress, run=self.run
        )
        return matrices[: len(sources)], matrices[len(sources):]


class SummaCZS(_SummaC):
    """SummaC-ZS: mean over sentences of max entailment minus max contradiction, in [-1, 1].

    No ``-f1``: the scores can be negative, and a harmonic mean of signed
    numbers is not a meaningful average.
    """

    name = "summac-zs"
    sub_scores = ("summac-zs", "summac-zs-p", "summac-zs-r")
    description = "SummaC zero-shot NLI consistency (Laban et al. 2022); -p source->output, -r output->source"

    def _score_items(
        self, sources: Sequence[str], outputs: Sequence[str], references: Sequence[Sequence[str]] | None = None
    ) -> Scores:
        from simpeval_faithfulness.zs import zs_score

        forward, backward = self._orientations(sources, outputs)
        precision = [zs_score(m) for m in forward]
        recall = [zs_score(m) for m in backward]
        return {"summac-zs": precision, "summac-zs-p": precision, "summac-zs-r": recall}


class SummaCConv(_SummaC):
    """SummaC-Conv: a trained layer over histograms of entailment probabilities, in [0, 1].

    Needs the trained layer (``weights=PATH``), which fits only the NLI model it
    was trained with. ``-f1`` is the harmonic mean of ``-p`` and ``-r`` (both probabilities).
    """

    name = "summac-conv"
    sub_scores = ("summac-conv", "summac-conv-p", "summac-conv-r", "summac-conv-f1")
    description = "SummaC-Conv NLI consistency (Laban et al. 2022); needs weights=PATH"
    options = {
        **_NLI_OPTIONS,
        "weights": Option(str, default=None, help="SummaC-Conv state dict (e.g. summac_conv_vitc_sent_perc_e.bin)",
                          path=True),
        "bins": Option(str, default="percentile",
                       help="histogram bins the weights were trained with: percentile or evenN"),
        "labels": Option(str, default="e", choices=CONV_LABEL_SETS,
                         help="probabilities histogrammed: e(ntailment), c(ontradiction), n(eutral)"),
    }

    def _score_items(
        self, sources: Sequence[str], outputs: Sequence[str], references: Sequence[Sequence[str]] | None = None
    ) -> Scores:
        from simpeval_faithfulness.conv import load_conv_layer

        if not self.weights:
            raise UsageError(
                "summac-conv needs its trained layer: pass weights=PATH "
                "(e.g. summac_conv_vitc_sent_perc_e.bin from tingofurro/summac)"
            )
        layer = load_conv_layer(self.weights, self.bins, self.labels)
        forward, backward = self._orientations(sources, outputs)
        precision = [layer.score(m) for m in forward]
        recall = [layer.score(m) for m in backward]
        return {
            "summac-conv": precision,
            "summac-conv-p": precision,
            "summac-conv-r": recall,
            "summac-conv-f1": [harmonic_mean(p, r) for p, r in zip(precision, recall)],
        }


class EntityMatch(Metric):
    """ESA: precision, recall and F1 of the output's named entities against the source's (primary: F1)."""

    name = "esa"
    sub_scores = ("esa", "esa-p", "esa-r", "esa-f1")
    description = "entity-based semantic adequacy: spaCy named entities of output vs source"
    requires_references = False
    level = "document"
    version = __version__
    options = {
        "spacy_model": Option(str, default=DEFAULT_PIPELINE, help="installed spaCy pipeline with NER",
                              short="spacy", path=True),
        "entity_labels": Option(str, default="all", help="spaCy labels to keep, joined by + (PERSON+GPE), or all",
                                short="ents"),
        "batch_size": Option(int, default=64, help="texts per spaCy batch", in_signature=False),
    }

    def __init__(self, **settings: object) -> None:
        super().__init__(**settings)
        if self.batch_size < 1:
            raise UsageError(f"batch_size={self.batch_size} for esa: pass batch_size=N with N >= 1")
        # () keeps every entity; otherwise only the labels named
        self.labels = () if self.entity_labels == "all" else tuple(
            x for x in re.split(r"[+,\s]+", self.entity_labels) if x
        )
        if self.entity_labels != "all" and not self.labels:
            raise UsageError("entity_labels is empty for esa: pass entity_labels=all or labels joined by + (PERSON+GPE)")

    def fingerprint(self, option_name: str, value: object) -> str:
        """The pipeline's name and the content hash of its package (or directory)."""
        located = models.locate_spacy(str(value), option="spacy_model")
        return models.fingerprint(located)

    @classmethod
    def missing_weights(cls) -> list[str]:
        default = cls.options["spacy_model"].default
        return [] if models.spacy_pipeline_available(default) else [default]

    def _score_items(
        self, sources: Sequence[str], outputs: Sequence[str], references: Sequence[Sequence[str]] | None = None
    ) -> Scores:
        from simpeval_faithfulness.entities import esa_scores, extract_entities

        entities = extract_entities(list(sources) + list(outputs), self.spacy_model, self.labels, self.batch_size,
                                    run=self.run)
        scores = [esa_scores(s, o) for s, o in zip(entities[: len(sources)], entities[len(sources):])]
        f1 = [s.f1 for s in scores]
        return {
            "esa": f1,
            "esa-p": [s.precision for s in scores],
            "esa-r": [s.recall for s in scores],
            "esa-f1": f1,
        }


class MeaningBert(Metric):
    """MeaningBERT (Beauchemin et al. 2023): meaning preservation of the output, about 0-100, with the authors' weights.

    ``model`` is the authors' directory (``config.json``, ``model.safetensors`` or ``pytorch_model.bin``,
    tokenizer files), or a hub id in the local Hugging Face cache (default ``davebulaval/MeaningBERT``);
    scores equal the authors' documented procedure (``benchmarks/meaningbert_parity.py``).
    """

    name = "meaningbert"
    description = "MeaningBERT (Beauchemin et al. 2023): meaning preservation, the authors' published checkpoint"
    requires_references = False
    neural = True
    version = __version__
    trained_on = ("simpda-2022", "simplicity-da")  # two of the four rated sets behind the authors' CSMD
    model_card = str(CARDS / "meaningbert.md")
    options = {
        "model": Option(str, default="davebulaval/MeaningBERT", path=True,
                        help="the authors' checkpoint: a directory (config.json, weights, tokenizer) or a hub id"),
        "clip": Option(bool, default=False,
                       help="clip to [0, 100] as the authors' later MeaningBERTScorer (the model card does not)"),
        "batch_size": Option(int, default=32, help="pairs per forward pass", in_signature=False),
    }

    def __init__(self, **settings: object) -> None:
        super().__init__(**settings)
        if self.batch_size < 1:
            raise UsageError(f"batch_size={self.batch_size} for meaningbert: pass batch_size=N with N >= 1")

    def missing_message(self) -> str:
        """One line: the weights are missing, and where to put them."""
        from simpeval_faithfulness.meaningbert import HUB_ID, WEIGHT_FILES

        repo = f"models--{HUB_ID.replace('/', '--')}"
        return (f"the authors' MeaningBERT weights are not installed: put their model directory (config.json, "
                f"{' or '.join(WEIGHT_FILES)}, tokenizer files, from https://huggingface.co/{HUB_ID}) anywhere and "
                f"pass -m meaningbert:model=DIR, or into the Hugging Face cache as "
                f"{models.hub_cache_dir() / repo}/snapshots/REVISION/")

    @classmethod
    def missing_weights(cls) -> list[str]:
        """The default checkpoint when the hub cache lacks it (cheap: no torch)."""
        from simpeval_faithfulness.meaningbert import locate

        default = cls.options["model"].default
        try:
            locate(default, "meaningbert:model", "missing")
        except UsageError:
            return [default]
        return []

    def fingerprint(self, option_name: str, value: object) -> str:
        """``label@hash`` of every file of the checkpoint directory (weights, config, tokenizer)."""
        from simpeval_faithfulness.meaningbert import locate

        locate(str(value), "meaningbert:model", self.missing_message())  # missing weights: the one-line remedy
        return models.fingerprint(str(value), option="meaningbert:model")

    def _score_items(
        self, sources: Sequence[str], outputs: Sequence[str], references: Sequence[Sequence[str]] | None = None
    ) -> Scores:
        from simpeval_faithfulness.meaningbert import scores

        values = scores(self.run, str(self.model), list(zip(sources, outputs)), batch_size=self.batch_size,
                        option="meaningbert:model", missing=self.missing_message())
        if self.clip:
            values = [min(100.0, max(0.0, v)) for v in values]
        return {self.name: values}
