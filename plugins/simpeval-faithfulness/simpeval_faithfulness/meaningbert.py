"""MeaningBERT (Beauchemin et al. 2023): the authors' published checkpoint, read without running its code.

The authors publish MeaningBERT (``davebulaval/MeaningBERT``, MIT) as a transformers
``BertForSequenceClassification`` directory with one regression output: ``config.json``, the
weights (``model.safetensors`` or ``pytorch_model.bin``) and the tokenizer files. Their model card
scores a pair as::

    tokenizer(documents, simplifications, truncation=True, padding=True, return_tensors="pt")

and takes the logit itself as the score (trained on 0-100 ratings, so about 0-100; nothing
rescales or clips it; their later ``MeaningBERTScorer`` clips to [0, 100], the ``clip`` option).
There is no ``meaningbert`` package on PyPI; the evaluate module ``davebulaval/meaningbert`` is
called as ``compute(references=documents, predictions=simplifications)``. Here:

- the network is built from ``config.json`` (``from_config``: no code from the directory) and
  its weights read with :func:`simpeval.models.load_torch_state` (safetensors, or
  ``torch.load(weights_only=True)``): tensors only;
- the pair is (source, output): the source is the first segment (``token_type_ids`` 0), as the
  documents are in the authors' call; the order matters to the network;
- ``truncation=True`` cuts the longer side first to the tokenizer's ``model_max_length`` (or the
  model's positions when the tokenizer names none);
- pairs go through the core's encoding service (:mod:`simpeval.encoding`): each distinct pair
  once per run, batched by length; padding does not change a BERT logit beyond float rounding.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from simpeval import UsageError, models
from simpeval.encoding import TextEncoder, shared_encoder

if TYPE_CHECKING:
    from simpeval.run import Run

HUB_ID = "davebulaval/MeaningBERT"
WEIGHT_FILES = ("model.safetensors", "pytorch_model.bin")
"""The weights of a ``save_pretrained`` directory, preferred first."""
ARCHITECTURE = "BertForSequenceClassification"


def weights_file(directory: Path, option: str, missing: str) -> Path:
    """The directory's weights (``model.safetensors``, else ``pytorch_model.bin``)."""
    for name in WEIGHT_FILES:
        if (directory / name).is_file():
            return directory / name
    if any(directory.glob("*.index.json")):
        raise UsageError(f"{directory} holds sharded weights: save the model as one file "
                         f"(save_pretrained(max_shard_size='2GB')) and pass {option}=DIR")
    raise UsageError(f"{directory} has no {' or '.join(WEIGHT_FILES)}: {missing}")


def locate(location: str, option: str, missing: str) -> Path:
    """The checkpoint directory at ``location`` (a directory, or a hub id in the local cache). Cheap: no torch."""
    try:
        path = models.locate(location, option)
    except UsageError:
        raise UsageError(missing) from None
    if not path.is_dir():
        raise UsageError(f"{option}={location} is a file: pass {option}=DIR of the directory holding "
                         "config.json, the weights and the tokenizer files")
    weights_file(path, option, missing)
    return path


def load(directory: Path, name: str, option: str, missing: str):
    """``(tokenizer, model)``: the network from ``config.json``, its weights as tensors only, in evaluation mode.

    :param name: the checkpoint as the user named it (a hub id or a path), for the loading line.
    """
    import transformers

    config = models.load_transformers(directory, "config", option=option)
    if ARCHITECTURE not in (getattr(config, "architectures", None) or [ARCHITECTURE]) or config.num_labels != 1:
        raise UsageError(f"{directory} holds a {', '.join(config.architectures or ['?'])} with {config.num_labels} "
                         f"labels, not MeaningBERT's one-output {ARCHITECTURE}: pass {option}=DIR of MeaningBERT")
    tokenizer = models.load_transformers(directory, "tokenizer", option=option)
    weights = weights_file(directory, option, missing)
    models.announce_loading(name, directory)
    state = models.load_torch_state(weights, option)
    model = transformers.BertForSequenceClassification(config)
    own = model.state_dict()
    missing_keys = [key for key in own if key not in state]
    if missing_keys:
        raise UsageError(f"{weights} lacks {missing_keys[0]} (and {len(missing_keys) - 1} more): pass {option}=DIR "
                         "of an unchanged MeaningBERT checkpoint")
    model.load_state_dict({key: state[key] for key in own}, strict=True)  # buffers of older versions are left out
    return tokenizer, model.eval()


def max_length(tokenizer: Any, model: Any) -> int:
    """What ``truncation=True`` cuts to: the tokenizer's ``model_max_length``, within the model's positions."""
    positions = int(model.config.max_position_embeddings)
    limit = getattr(tokenizer, "model_max_length", None)
    return positions if not isinstance(limit, int) or limit > positions else limit


def scores(run: Run, name: str, pairs: Sequence[tuple[str, str]], *, batch_size: int, option: str,
           missing: str) -> list[float]:
    """The logit of each ``(source, output)`` pair, in order, with the checkpoint ``name`` (a directory or hub id)."""
    encoder = _encoder(run, name, locate(name, option, missing), batch_size, option, missing)
    return [float(value) for value in encoder.encode(list(pairs))]


def _encoder(run: Run, name: str, directory: Path, batch_size: int, option: str, missing: str) -> TextEncoder:
    def build() -> TextEncoder:
        tokenizer, model = load(directory, name, option, missing)
        limit = max_length(tokenizer, model)

        def tokenize(pairs: list[tuple[str, str]]) -> list[dict[str, list[int]]]:
            encoded = tokenizer([s for s, _ in pairs], [o for _, o in pairs], truncation="longest_first",
                                max_length=limit)
            keys = [key for key in ("input_ids", "token_type_ids") if key in encoded]
            return [{key: encoded[key][i] for key in keys} for i in range(len(pairs))]

        def forward(net: Any, batch: dict[str, Any]) -> Any:
            return net(**batch).logits.float().view(-1)

        return TextEncoder(model, tokenize, forward, pad_id=tokenizer.pad_token_id or 0, batch_size=batch_size,
                           description="MeaningBERT")

    return shared_encoder(run, str(directory), ("meaningbert",), build, option)
