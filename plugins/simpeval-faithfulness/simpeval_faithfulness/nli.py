"""Loading an NLI model with ``transformers`` and scoring (premise, hypothesis) pairs in batches.

The ``summac`` package pins ``huggingface-hub<=0.17`` and cannot be installed
beside transformers 5, so SummaC's NLI step is re-implemented here on
``AutoModelForSequenceClassification``. Pairs go through the core's encoding
service: each distinct pair once per run, sorted by token length before batching
so that a batch holds pairs of similar length (little padding); the order of the
results is the order of the input.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from simpeval import UsageError, models
from simpeval.encoding import TextEncoder, shared_encoder

if TYPE_CHECKING:
    from transformers import PreTrainedModel, PreTrainedTokenizerBase

    from simpeval.run import Run

logger = logging.getLogger("simpeval.faithfulness")

def load_nli(run: Run, model: str, device: str = "cpu") -> tuple[PreTrainedTokenizerBase, PreTrainedModel]:
    """The tokenizer and sequence-classification model ``model`` (local directory or hub-cache name).

    Kept by ``run`` under the model's content hash, so the metrics of one run share one copy
    of the weights and weights replaced in place are read again. Found and loaded by
    :mod:`simpeval.models`: offline, and never running code from the model directory.

    :raises UsageError: when the weights cannot be found or read.
    """
    key = ("nli", models.content_hash(models.locate(model, "model")), device)
    return run.resource(key, lambda: _load_nli(model, device))


def _load_nli(model: str, device: str) -> tuple[PreTrainedTokenizerBase, PreTrainedModel]:
    # The weights first: when they are missing, that is the one failure worth reporting.
    nli = models.load_transformers(model, "sequence-classification", option="model")
    tokenizer = models.load_transformers(model, "tokenizer", option="model")
    try:
        nli = nli.to(device)
    except (RuntimeError, AssertionError) as exc:  # unknown device name, or torch built without CUDA
        raise UsageError(f'cannot use torch device "{device}": pass device=cpu or an available device') from exc
    return tokenizer, nli.eval()


def check_label_indices(num_labels: int, **indices: int) -> None:
    """Raise :class:`UsageError` when a label index is outside the model's ``num_labels``."""
    for name, index in indices.items():
        if not 0 <= index < num_labels:
            raise UsageError(
                f"{name}={index} but the NLI model has {num_labels} labels: "
                f"pass {name}=N with 0 <= N < {num_labels}"
            )


def predict_probabilities(
    pairs: Sequence[tuple[str, str]],
    model: str,
    *,
    max_length: int = 500,
    batch_size: int = 32,
    device: str = "cpu",
    progress: bool = False,
    run: Run | None = None,
) -> np.ndarray:
    """Softmax label probabilities of the NLI model for each (premise, hypothesis) pair.

    A pair longer than ``max_length`` tokens is cut from its longer side, which
    for SummaC's long premises is the premise (the release truncates
    ``only_first``, which fails outright when the hypothesis alone is too long);
    how many pairs were truncated is logged. The pairs go through the core's
    encoding service (:mod:`simpeval.encoding`), shared by every metric of the
    run reading the same model: each distinct pair once, in length-sorted batches.

    :param run: the run that keeps the model and the probabilities (default: one for this call only).
    :returns: an array of shape ``(len(pairs), num_labels)``, rows in input order.
    """
    from simpeval.run import using

    with using(run) as run:
        tokenizer, nli = load_nli(run, model, device)
        if not pairs:
            return np.zeros((0, int(nli.config.num_labels)))
        encoder = _pair_encoder(run, model, device, max_length, batch_size)
        encoder.progress = progress
        return np.array([p.numpy() for p in encoder.encode(list(pairs))]).astype(float)


def _pair_encoder(run: Run, model: str, device: str, max_length: int, batch_size: int) -> TextEncoder:
    """The run's encoder of the NLI model ``model`` with pairs cut to ``max_length`` tokens."""

    def build() -> TextEncoder:
        tokenizer, nli = load_nli(run, model, device)

        def tokenize(pairs: list[tuple[str, str]]) -> list[dict[str, list[int]]]:
            premises = [p for p, _ in pairs]
            hypotheses = [h for _, h in pairs]
            # Encode once in full; only the (rare) pairs over max_length are encoded again, truncated.
            encoded = {key: list(values) for key, values in tokenizer(premises, hypotheses, truncation=False).items()}
            too_long = [i for i, ids in enumerate(encoded["input_ids"]) if len(ids) > max_length]
            if too_long:
                logger.warning(
                    "%d of %d NLI pairs exceed max_length=%d tokens: their longer side was truncated",
                    len(too_long), len(pairs), max_length,
                )
                cut = tokenizer([premises[i] for i in too_long], [hypotheses[i] for i in too_long],
                                truncation="longest_first", max_length=max_length)
                for key in encoded:
                    for position, i in enumerate(too_long):
                        encoded[key][i] = cut[key][position]
            return [{key: encoded[key][i] for key in encoded} for i in range(len(pairs))]

        def forward(net: Any, batch: dict[str, Any]) -> Any:
            import torch

            return torch.softmax(net(**batch).logits.float(), dim=-1)

        return TextEncoder(nli, tokenize, forward, pad_id=tokenizer.pad_token_id or 0,
                           device=next(nli.parameters()).device, batch_size=batch_size, description="NLI")

    return shared_encoder(run, model, ("nli", device, max_length, batch_size), build)
