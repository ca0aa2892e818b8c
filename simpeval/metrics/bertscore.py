"""BERTScore (Zhang et al. 2020) through the ``bert-score`` package, as EASSE uses it.

Each output is scored against every reference of its item and the best reference
is kept (``bert_score`` takes the maximum of P, R and F1 over a multi-reference
group, which is what EASSE reports). ``bert_score`` deduplicates the sentences and
sorts them by length before batching, so batches hold texts of similar length.

Defaults follow EASSE: ``roberta-large`` at ``bert_score``'s default layer (17),
text tokenized with 13a first, rescaled with ``bert_score``'s baseline where one
ships for the model (``rescale`` unset = "if available"). Any local model directory
works with ``model=PATH`` (its last layer unless ``layer=N``). The model is found
and loaded by :mod:`simpeval.models`: never downloaded, missing weights give a
one-line :class:`~simpeval.UsageError` at once, and it enters the signature as its
name and content hash. torch and bert_score are imported on first use.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import simpeval
from simpeval import models
from simpeval.errors import UsageError
from simpeval.metrics.base import Metric, Option
from simpeval.text import tokenize
from simpeval.tokenizers import TOKENIZER_NAMES

DEFAULT_MODEL = "roberta-large"
OPTION = "bertscore:model"


def _baseline_file(model: str) -> str | None:
    """bert_score's rescaling baseline for ``model`` (English), found without importing torch."""
    spec = importlib.util.find_spec("bert_score")
    if spec is None or spec.origin is None:
        return None
    path = os.path.join(os.path.dirname(spec.origin), "rescale_baseline", "en", f"{model}.tsv")
    return path if os.path.isfile(path) else None


@lru_cache(maxsize=4)
def _load_scorer(
    model: str, layer: int | None, rescale: bool, batch_size: int, device: str | None
) -> Any:
    """A ``bert_score.BERTScorer``, loaded once per process and setting (see :mod:`simpeval.models`)."""
    if layer is None:
        from bert_score.utils import model2layers

        # bert_score knows the best layer of the models it was tuned on; for any
        # other model (a local path) it needs one: take the last.
        layer = model2layers.get(model) or models.load_transformers(model, "config", OPTION).num_hidden_layers
    return models.load_bert_scorer(
        model,
        OPTION,
        num_layers=layer,
        batch_size=batch_size,
        device=device,
        lang="en" if rescale else None,
        rescale_with_baseline=rescale,
        baseline_path=_baseline_file(model) if rescale else None,
    )


class BertScore(Metric):
    """BERTScore precision, recall and F1 against the best-matching reference."""

    name = "bertscore"
    sub_scores = ("bertscore", "bertscore-p", "bertscore-r", "bertscore-f1")
    description = "BERTScore P/R/F1 against the best reference (bert-score package)"
    requires_references = True
    neural = True
    options = {
        "model": Option(str, DEFAULT_MODEL, "model name or local directory", path=True),
        "layer": Option(int, None, "hidden layer (default: bert_score's, or the last)"),
        "rescale": Option(bool, None, "rescale with bert_score's baseline (default: if one exists)"),
        "tokenizer": Option(
            str, "13a", "word tokenizer applied first (EASSE)", choices=TOKENIZER_NAMES, short="tok"
        ),
        "lowercase": Option(bool, False, "lowercase first", short="lc"),
        "batch_size": Option(int, 64, "texts per batch", in_signature=False),
        "device": Option(str, None, "torch device (default: cuda if available)", in_signature=False),
    }
    presets = {"metaeval-2021": {"rescale": False}}

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        if self.batch_size < 1:
            raise UsageError(f'option "batch_size" of bertscore must be at least 1, got {self.batch_size}')
        if self.rescale is None:
            self.rescale = _baseline_file(self.model) is not None
            self.settings["rescale"] = self.rescale
        elif self.rescale and _baseline_file(self.model) is None:
            raise UsageError(
                f"bert_score has no rescaling baseline for model {self.model}: pass bertscore:rescale=no"
            )

    def _prepare(self, text: str) -> str:
        return " ".join(tokenize(text, self.tokenizer, self.lowercase))

    def score_sentences(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
    ) -> dict[str, list[float]]:
        if any(len(refs) == 0 for refs in references):
            raise UsageError("bertscore needs at least one reference per item: check --refs")
        if not outputs:
            return {key: [] for key in self.sub_scores}
        scorer = _load_scorer(self.model, self.layer, self.rescale, self.batch_size, self.device)
        candidates = [self._prepare(text) for text in outputs]
        refs = [[self._prepare(text) for text in item] for item in references]
        precision, recall, f1 = (t.tolist() for t in scorer.score(candidates, refs))
        return {"bertscore": f1, "bertscore-p": precision, "bertscore-r": recall, "bertscore-f1": f1}


@simpeval.hookimpl
def simpeval_register_metrics() -> list[type[Metric]]:
    return [BertScore]
