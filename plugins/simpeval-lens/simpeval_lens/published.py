"""The authors' published LENS and LENS-SALSA checkpoints, read without pytorch-lightning or their code.

The authors publish LENS as a pytorch-lightning checkpoint: a directory holding ``hparams.yaml``
and ``checkpoints/*.ckpt`` (``davidheineman/lens`` on the Hugging Face hub). Their package
rebuilds the Lightning module from the YAML and unpickles the checkpoint; here the YAML is read
with ``yaml.safe_load``, the checkpoint with ``torch.load(weights_only=True)`` (through
:func:`simpeval.models.load_torch_state`: tensors and plain containers only, so no code runs),
and the network is rebuilt from what the state dict holds:

- the encoder (``encoder.model.*``), built from the configuration of ``pretrained_model`` (a hub
  id or a local directory: only its config and tokenizer are read, the weights come from the
  checkpoint); texts are tokenised as the package does (padding, truncation at the encoder's
  positions minus 4);
- the layer mix (``layerwise_attention.*``): ``gamma * sum_k softmax(w)_k * h_k``, each layer
  first normalised over the sentence's unmasked tokens when layer normalisation is on. In the
  package's ``RegressionMetricMultiReference`` that switch is *not* the ``layer_norm`` setting:
  its call to the base class passes ``train_data`` in the ``layer_norm`` position, so the layers
  are normalised exactly when the hparams name training data. Read from the authors' code and
  followed, because the scores must equal theirs;
- average pooling over the non-padding tokens, and the feed-forward estimator
  (``estimator.ff.*``) on ``[s; o; r; o*r; |o-r|; o*s; |o-s|]``.

A score is the estimator's output times 100 (or ``100 * Phi(output)`` with ``rescale``), for
lower-cased texts, and an output's score is its best over its references: ``lens.LENS.score``.
LENS-SALSA (``unified_metric``) shares the encoder, mix and estimator code: :class:`PublishedSalsa`.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simpeval import UsageError, models

HPARAMS_FILE = "hparams.yaml"
CHECKPOINT_DIR = "checkpoints"
LENS_CLASS = "regression_metric_multi_ref"
SALSA_CLASS = "unified_metric"
POOLS = ("avg", "max", "cls")
ACTIVATIONS = ("Tanh", "Sigmoid", "Relu", "Gelu", "Elu", "Selu", "Silu")
"""The ``.title()`` spellings the package's ``FeedForward`` accepts that name a torch activation."""


@dataclass(frozen=True)
class Layout:
    """Where a published checkpoint's files are, and its hyper-parameters."""

    directory: Path
    checkpoint: Path
    hparams: dict[str, Any]


def read_layout(location: str | Path, option: str, missing: str) -> Layout:
    """The authors' layout at ``location``: a directory (or hub id) with ``hparams.yaml`` and
    ``checkpoints/*.ckpt``, or the ``.ckpt`` file itself. Cheap: no torch.

    :param missing: the one-line remedy when nothing is there (where to put the weights).
    :raises UsageError: when the files are missing, ambiguous or unreadable.
    """
    try:
        path = models.locate(location, option)
    except UsageError:
        raise UsageError(missing) from None
    if path.is_file():
        checkpoint, directory = path, path.parent.parent
    else:
        directory = path
        found = sorted((path / CHECKPOINT_DIR).glob("*.ckpt"))
        named = [p for p in found if p.name == "model.ckpt"]
        if not found:
            raise UsageError(f"{path} has no {CHECKPOINT_DIR}/*.ckpt: {missing}")
        if len(found) > 1 and not named:
            raise UsageError(f"{path} holds {len(found)} checkpoints: pass {option}=FILE of the one to use")
        checkpoint = (named or found)[0]
    return Layout(directory, checkpoint, read_hparams(directory / HPARAMS_FILE, option))


def read_hparams(path: Path, option: str) -> dict[str, Any]:
    """``hparams.yaml`` as plain data (``yaml.safe_load``: no Python objects are built)."""
    import yaml

    try:
        hparams = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError:
        raise UsageError(f"{path} is missing: the authors' layout is hparams.yaml beside checkpoints/; "
                         f"pass {option}=DIR of that directory") from None
    except yaml.YAMLError as exc:
        raise UsageError(f"{path} is not plain YAML ({type(exc).__name__}): pass {option}=DIR of an unchanged "
                         "published checkpoint") from None
    if not isinstance(hparams, dict):
        raise UsageError(f"{path} does not hold the hyper-parameters: pass {option}=DIR of a published checkpoint")
    return hparams


def encoder_name(layout: Layout, override: str | None) -> str:
    """The encoder whose config and tokenizer the checkpoint runs on: ``override``, else ``pretrained_model``."""
    name = override or layout.hparams.get("pretrained_model")
    if not name:
        raise UsageError(f"{layout.directory / HPARAMS_FILE} names no pretrained_model: pass encoder=DIR")
    return str(name)


def fingerprint(layout: Layout, encoder: str, label: str, option: str) -> str:
    """``label@hash+encoder@hash``: the checkpoint files, and the encoder's config and tokenizer, by content.

    The encoder's weights are not read (the checkpoint holds the encoder), so they are not hashed either.
    """
    head = models.content_hash(layout.directory)
    path = models.locate(encoder, f"{option.split(':')[0]}:encoder")
    digest = hashlib.sha256()
    files = [path] if path.is_file() else sorted(p for p in path.iterdir()
                                                  if p.is_file() and p.suffix not in models.WEIGHT_SUFFIXES)
    for file in files:
        digest.update(file.name.encode("utf-8") + b"\0" + models.content_hash(file).encode("ascii") + b"\n")
    encoder_label = encoder if not Path(encoder).expanduser().exists() else path.name
    return f"{label}@{head}+{encoder_label}@{digest.hexdigest()[:models.HASH_LENGTH]}"


def _encoder_parts(layout: Layout, encoder: str, option: str, expected: str):
    """Tokenizer, config, state dict and the encoder (weights from the checkpoint) of a published model."""
    from transformers import AutoModel

    hparams = layout.hparams
    if hparams.get("class_identifier") != expected:
        what = "LENS" if expected == LENS_CLASS else "LENS-SALSA"
        raise UsageError(f"{layout.directory} holds a {hparams.get('class_identifier')!r} model, not {what} "
                         f"({expected}): pass {option}=DIR of the published {what}")
    encoder_option = f"{option.split(':')[0]}:encoder"
    tokenizer = models.load_transformers(encoder, "tokenizer", option=encoder_option)
    config = models.load_transformers(encoder, "config", option=encoder_option)
    state = models.load_torch_state(layout.checkpoint, option).get("state_dict")
    if not isinstance(state, dict):
        raise UsageError(f"{layout.checkpoint} has no state_dict: pass {option}=DIR of a published checkpoint")
    model = AutoModel.from_config(config, add_pooling_layer=False)
    _load(model, state, "encoder.model.", layout.checkpoint)
    model.eval()
    return tokenizer, config, state, model


def _mix_weights(state: dict, layers: int, checkpoint: Path, option: str):
    """``(softmax weights, gamma)`` of the layer mix."""
    import torch

    try:
        weights = [state[f"layerwise_attention.scalar_parameters.{i}"].reshape(()) for i in range(layers)]
        return torch.softmax(torch.stack(weights).float(), dim=0), state["layerwise_attention.gamma"].reshape(()).float()
    except KeyError as exc:
        raise UsageError(f"{checkpoint} lacks {exc.args[0]}: pass {option}=DIR of the published model") from None


def _estimator(hparams: dict, inputs: int, state: dict, layout: Layout):
    """The feed-forward estimator (``estimator.ff.*``): Linear, activation, dropout per hidden size, then Linear to 1."""
    from torch import nn

    sizes = [inputs, *hparams.get("hidden_sizes", [2304, 768]), 1]
    activation = _activation(hparams.get("activations", "Tanh"), layout)
    blocks: list[nn.Module] = []
    for i in range(len(sizes) - 1):
        blocks.append(nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            blocks += [activation(), nn.Dropout(0.0)]
    if hparams.get("final_activation"):
        blocks.append(_activation(hparams["final_activation"], layout)())
    estimator = nn.Sequential(*blocks)
    _load(estimator, state, "estimator.ff.", layout.checkpoint)
    return estimator.eval()


def _mix(weights, gamma, states, mask, layer_norm: bool):
    mixed = 0
    for weight, state in zip(weights, states):
        mixed = mixed + weight * (_masked_norm(state, mask) if layer_norm else state)
    return gamma * mixed


class PublishedLens:
    """The rebuilt network: encoder, layer mix, pooling and estimator, in evaluation mode."""

    def __init__(self, layout: Layout, encoder: str, option: str) -> None:
        hparams = layout.hparams
        self.tokenizer, config, state, self.encoder = _encoder_parts(layout, encoder, option, LENS_CLASS)
        self.pool = hparams.get("pool", "avg")
        self.layer = hparams.get("layer", "mix")
        if self.pool not in POOLS:
            raise UsageError(f"{layout.directory}: pooling {self.pool!r} is not supported: use one of {', '.join(POOLS)}")
        layers = config.num_hidden_layers + 1
        self.max_length = config.max_position_embeddings - 4
        self.layer_norm = bool(hparams.get("train_data"))  # the package's positional quirk, see the module docstring
        if self.layer == "mix":
            self.mix_weights, self.gamma = _mix_weights(state, layers, layout.checkpoint, option)
        elif not (isinstance(self.layer, int) and 0 <= self.layer < layers):
            raise UsageError(f"{layout.directory}: layer {self.layer!r} is neither 'mix' nor one of 0..{layers - 1}")
        self.estimator = _estimator(hparams, 7 * config.hidden_size, state, layout)

    def embed(self, texts: Sequence[str], batch_size: int):
        """``len(texts) x hidden``: each text's pooled, layer-mixed embedding (each distinct text once)."""
        import torch

        from simpeval.encoding import length_batches
        from simpeval.progress import report

        distinct = list(dict.fromkeys(texts))
        lengths = [len(ids) for ids in self.tokenizer(distinct, truncation=True, max_length=self.max_length)["input_ids"]]
        table: dict[str, torch.Tensor] = {}
        with torch.inference_mode():
            for batch in length_batches(lengths, batch_size):
                chunk = [distinct[i] for i in batch]
                inputs = self.tokenizer(chunk, return_tensors="pt", padding=True, truncation=True,
                                        max_length=self.max_length)
                states = self.encoder(input_ids=inputs["input_ids"], attention_mask=inputs["attention_mask"],
                                      output_hidden_states=True).hidden_states
                pooled = self._pool(self._mix(states, inputs["attention_mask"]), inputs)
                table.update(zip(chunk, pooled))
                report(len(table), len(distinct))  # the engine's progress bar moves within its batch
        return torch.stack([table[t] for t in texts]) if texts else torch.zeros(0)

    def _mix(self, states, mask):
        if self.layer != "mix":
            return states[self.layer]
        return _mix(self.mix_weights, self.gamma, states, mask, self.layer_norm)

    def _pool(self, embeddings, inputs):
        import torch

        padding = inputs["input_ids"].eq(self.tokenizer.pad_token_id).unsqueeze(-1)
        if self.pool == "cls":
            return embeddings[:, 0, :]
        if self.pool == "max":
            return embeddings.masked_fill(padding, float("-inf")).max(dim=1).values
        summed = embeddings.masked_fill(padding, 0.0).sum(1)
        return summed / inputs["attention_mask"].sum(1, keepdim=True).to(torch.float32)

    def estimate(self, source, output, reference):
        """The estimator's raw output per (source, output, reference) row."""
        import torch

        features = torch.cat([source, output, reference, output * reference, (output - reference).abs(),
                              output * source, (output - source).abs()], dim=1)
        with torch.inference_mode():
            return self.estimator(features).view(-1)


def _masked_norm(state, mask):
    """One layer normalised per sentence over its unmasked tokens and every dimension (as the package's mix)."""
    import torch

    mask = mask.to(state.dtype).unsqueeze(-1)
    count = mask.sum((1, 2)) * state.shape[-1]
    masked = state * mask
    mean = masked.flatten(1).sum(1) / count
    variance = (((masked - mean.view(-1, 1, 1)) * mask) ** 2).flatten(1).sum(1) / count
    return (state - mean.view(-1, 1, 1)) / torch.sqrt(variance + 1e-12).view(-1, 1, 1)


def _activation(name: str, layout: Layout):
    from torch import nn

    titled = str(name).title()
    if titled not in ACTIVATIONS or not hasattr(nn, titled):
        raise UsageError(f"{layout.directory}: activation {name!r} is not one LENS can build")
    return getattr(nn, titled)


def _load(module, state: dict, prefix: str, checkpoint: Path) -> None:
    """``module``'s parameters from the ``prefix`` entries of ``state``; every one must be there."""
    own = module.state_dict()
    taken = {k[len(prefix):]: v for k, v in state.items() if k.startswith(prefix) and k[len(prefix):] in own}
    missing = [k for k in own if k not in taken]
    if missing:
        raise UsageError(f"{checkpoint} lacks {prefix}{missing[0]} (and {len(missing) - 1} more): "
                         "the checkpoint does not match its hparams.yaml and encoder")
    module.load_state_dict(taken, strict=True)


def lens_scores(model: PublishedLens, sources: Sequence[str], outputs: Sequence[str],
                references: Sequence[Sequence[str]], rescale: bool, batch_size: int) -> list[float]:
    """``lens.LENS.score``: lower-cased texts, the best over each output's references, times 100."""
    import torch

    rows = [(i, ref.lower()) for i, refs in enumerate(references) for ref in refs]
    scores = [float("nan")] * len(outputs)
    if not rows:
        return scores
    lowered_sources = [s.lower() for s in sources]
    lowered_outputs = [o.lower() for o in outputs]
    texts = [*lowered_sources, *lowered_outputs, *(r for _, r in rows)]
    table = model.embed(texts, batch_size)
    n = len(sources)
    item = torch.tensor([i for i, _ in rows])
    raw = model.estimate(table[:n][item], table[n:2 * n][item], table[2 * n:]).tolist()
    best: dict[int, float] = {}
    for (i, _), value in zip(rows, raw):
        value = 50.0 * (math.erf(value / math.sqrt(2.0)) + 1.0) if rescale else 100.0 * value
        best[i] = max(best.get(i, -math.inf), value)
    for i, value in best.items():
        scores[i] = value
    return scores


class PublishedSalsa:
    """LENS-SALSA (``unified_metric``, reference-free): output and source encoded as one sequence.

    As the package's ``UnifiedMetric`` in prediction: ``<s> output </s></s> source </s>`` (span
    tokens added to the tokenizer and removed from the input, cut at the encoder's positions when
    too long), the layer mix at the first token through the estimator for the sentence score, and
    per-token softmax over ``hidden2tag`` of layer ``word_layer`` for the word-level tags. Two
    quirks of that class are followed: the layer mix always uses softmax (its
    ``layer_transformation`` setting never reaches the mix), and its layer normalisation follows
    ``layer_norm``.
    """

    def __init__(self, layout: Layout, encoder: str, option: str) -> None:
        import torch

        hparams = layout.hparams
        self.tokenizer, config, state, self.encoder = _encoder_parts(layout, encoder, option, SALSA_CLASS)
        if not set(hparams.get("input_segments", ["mt", "src", "ref"])) >= {"mt", "src"}:
            raise UsageError(f"{layout.directory}: a reference-free LENS-SALSA reads output and source (input_segments)")
        layers = config.num_hidden_layers + 1
        self.max_positions = config.max_position_embeddings - 2
        self.layer = hparams.get("sent_layer", hparams.get("layer", "mix"))
        self.layer_norm = bool(hparams.get("layer_norm", True))
        if self.layer == "mix":
            self.mix_weights, self.gamma = _mix_weights(state, layers, layout.checkpoint, option)
        elif not (isinstance(self.layer, int) and 0 <= self.layer < layers):
            raise UsageError(f"{layout.directory}: sent_layer {self.layer!r} is neither 'mix' nor one of 0..{layers - 1}")
        self.estimator = _estimator(hparams, config.hidden_size, state, layout)
        self.span_tokens = [str(t) for t in hparams.get("span_tokens") or []] if hparams.get("word_level_training") else []
        self.word_layer = hparams.get("word_layer", layers - 1)
        self.tags = None
        if self.span_tokens:
            marks = [m for t in self.span_tokens for m in (f"<{t}>", f"</{t}>")]
            self.tokenizer.add_tokens(marks)
            self.removed = {self.tokenizer.convert_tokens_to_ids(m) for m in marks}
            try:
                weight, bias = state["hidden2tag.weight"], state["hidden2tag.bias"]
            except KeyError as exc:
                raise UsageError(f"{layout.checkpoint} lacks {exc.args[0]}: pass {option}=DIR of the published LENS-SALSA") from None
            self.tags = torch.nn.Linear(weight.shape[1], weight.shape[0])
            self.tags.load_state_dict({"weight": weight, "bias": bias})
        else:
            self.removed = set()

    def _pair_template(self) -> tuple[list[int], list[int], list[int]]:
        """``(prefix, middle, suffix)`` the tokenizer puts around and between a pair (``<s>``, ``</s></s>``, ``</s>``)."""
        if not hasattr(self, "_template"):
            a, b = self.tokenizer("a")["input_ids"], self.tokenizer("b")["input_ids"]
            pair = self.tokenizer("a", "b")["input_ids"]
            inner_a, inner_b = len(a) - 2, len(b) - 2
            self._template = (pair[:1], pair[1 + inner_a : len(pair) - 1 - inner_b], pair[len(pair) - 1 :])
        return self._template

    def _ids(self, text: str) -> list[int]:
        ids = self.tokenizer(text, truncation=True, max_length=self.max_positions - 2)["input_ids"]
        return [i for i in ids if i not in self.removed]

    def sequence(self, output: str, source: str) -> list[int]:
        """The joint input the package builds for one (output, source) pair."""
        out, src = self._ids(output), self._ids(source)
        prefix, middle, suffix = self._pair_template()
        joined = prefix + out[1:-1] + middle + src[1:-1] + suffix
        if len(out) - 2 + len(src) - 2 > self.max_positions - 3:
            joined = joined[: self.max_positions]
        return joined

    def predict(self, outputs: Sequence[str], sources: Sequence[str], batch_size: int):
        """Sentence scores (raw) and, with word-level tags, per pair the ``(token, {tag: probability})`` list."""
        import torch

        from simpeval.encoding import length_batches

        sequences = [self.sequence(o, s) for o, s in zip(outputs, sources)]
        scores: list[float] = [0.0] * len(sequences)
        words: list[list] = [[] for _ in sequences]
        pad = self.tokenizer.pad_token_id
        with torch.inference_mode():
            for batch in length_batches([len(q) for q in sequences], batch_size):
                width = max(len(sequences[i]) for i in batch)
                ids = torch.tensor([sequences[i] + [pad] * (width - len(sequences[i])) for i in batch])
                mask = torch.tensor([[1] * len(sequences[i]) + [0] * (width - len(sequences[i])) for i in batch])
                states = self.encoder(input_ids=ids, attention_mask=mask, output_hidden_states=True).hidden_states
                mixed = (_mix(self.mix_weights, self.gamma, states, mask, self.layer_norm)
                         if self.layer == "mix" else states[self.layer])
                batch_scores = self.estimator(mixed[:, 0, :]).view(-1).tolist()
                probabilities = torch.softmax(self.tags(states[self.word_layer]), dim=2) if self.tags is not None else None
                for row, i in enumerate(batch):
                    scores[i] = batch_scores[row]
                    if probabilities is not None:
                        tokens = self.tokenizer.convert_ids_to_tokens(sequences[i])[1:-1]
                        values = probabilities[row, 1 : len(sequences[i]) - 1, 1:].tolist()
                        words[i] = [(t, dict(zip(self.span_tokens, v))) for t, v in zip(tokens, values)]
        return scores, words


def salsa_scores(model: PublishedSalsa, sources: Sequence[str], outputs: Sequence[str], batch_size: int):
    """``lens.LENS_SALSA.score`` without references: lower-cased texts, the sentence score times 100,
    and per output its tokens with each tag's probability (output tokens, ``</s></s>``, source tokens)."""
    scores, words = model.predict([o.lower() for o in outputs], [s.lower() for s in sources], batch_size)
    return [100.0 * s for s in scores], words


TAG_THRESHOLD = 0.5
"""A token carries a tag when its probability exceeds this (``lens.LENS_SALSA.recover_output``'s default)."""


def tag_spans(model: PublishedSalsa, output: str,
              tokens: Sequence[tuple[str, dict[str, float]]]) -> list[tuple[str | None, str]]:
    """``output`` cut into ``(tag or None, text)`` spans from its tokens' tag probabilities.

    As ``recover_output``: each output token (before the first ``</s>``) takes the last tag whose
    probability exceeds :data:`TAG_THRESHOLD`, and runs of one tag form a span; a span's leading space
    stays outside it, as the package writes ``" <tag>word"``. The tokens are decoded by the tokenizer
    (byte-level, so any text comes back whole) and the spans laid over ``output`` itself (the model read
    it lower-cased); whatever truncation cut off is unlabelled. An output whose lower-casing changes
    its length comes back unlabelled.
    """
    states: list[tuple[str | None, list[str]]] = []
    for token, probabilities in tokens:
        if token == model.tokenizer.sep_token:
            break
        state = None
        for tag in model.span_tokens:
            if probabilities[tag] > TAG_THRESHOLD:
                state = tag
        if states and states[-1][0] == state:
            states[-1][1].append(token)
        else:
            states.append((state, [token]))
    spans: list[tuple[str | None, str]] = []
    for state, run in states:
        text = model.tokenizer.convert_tokens_to_string(run)
        space = text[: len(text) - len(text.lstrip())]
        if state is not None and space:
            spans.append((None, space))
            text = text[len(space):]
        spans.append((state, text))
    joined = "".join(text for _, text in spans)
    lowered = output.lower()
    if len(lowered) != len(output) or not lowered.startswith(joined):
        return [(None, output)]
    laid, start = [], 0
    for state, text in spans:
        laid.append((state, output[start : start + len(text)]))
        start += len(text)
    if start < len(output):
        laid.append((None, output[start:]))
    merged: list[tuple[str | None, str]] = []
    for state, text in laid:
        if merged and merged[-1][0] == state:
            merged[-1] = (state, merged[-1][1] + text)
        elif text:
            merged.append((state, text))
    return merged
