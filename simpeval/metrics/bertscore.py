"""BERTScore (Zhang et al. 2020), equal to the ``bert-score`` package's, on the encoding service.

Each output is scored against every reference of its item and the best reference
is kept: P, R and F1 are each the maximum over the references, as
``bert_score.score`` computes them for a multi-reference group (what EASSE reports).
The arithmetic is ``bert_score``'s: token embeddings from one hidden layer,
cosine similarity, greedy matching, [CLS] and [SEP] given no weight in the mean
(but still matchable), a text without tokens scoring 0. The embeddings come
from :mod:`simpeval.encoding`, so every distinct text (a reference shared by six
systems, an output scored again) is embedded once per run, in length-sorted
batches, and the matching runs per item on the kept embeddings; the scores
stay within 1e-6 of ``bert_score.score`` (the test and the benchmark check it).
Even ``bert_score``'s quirk is kept: padding counts as similarity 0, so a text
shorter than the longest of its batch of 64 pairs never has a best similarity
below 0 (see :func:`padding_in_bert_score`).

Defaults follow EASSE: ``roberta-large`` at ``bert_score``'s default layer (17),
text tokenized with 13a first, rescaled with ``bert_score``'s baseline where one
ships for the model (``rescale`` unset = "if available"). Any local model directory
works with ``model=PATH`` (its last layer unless ``layer=N``). The model is found
and loaded by :mod:`simpeval.models` (through :func:`simpeval.encoding.load_pretrained`):
never downloaded, missing weights give a one-line :class:`~simpeval.UsageError` at
once. torch is imported on first use; the ``bert_score`` package only to look up a
named model's default layer.
"""

from __future__ import annotations

import csv
import importlib.util
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import simpeval
from simpeval.encoding import DTYPES, TextEncoder, check_device, load_pretrained, shared_encoder
from simpeval.errors import UsageError
from simpeval.metrics.base import Metric, Option
from simpeval.text import tokenize
from simpeval.tokenizers import TOKENIZER_NAMES

if TYPE_CHECKING:
    import torch

    from simpeval.run import Run

DEFAULT_MODEL = "roberta-large"
OPTION = "bertscore:model"
EASSE_LAYER = 17  # bert_score's tuned layer of roberta-large, which ``lang="en"`` picks


def _baseline_file(model: str) -> str | None:
    """bert_score's rescaling baseline for ``model`` (English), found without importing torch."""
    spec = importlib.util.find_spec("bert_score")
    if spec is None or spec.origin is None:
        return None
    path = os.path.join(os.path.dirname(spec.origin), "rescale_baseline", "en", f"{model}.tsv")
    return path if os.path.isfile(path) else None


def _baseline(model: str, layer: int) -> tuple[float, float, float]:
    """The (P, R, F) baseline of ``model`` at ``layer``: row ``layer`` of bert_score's table."""
    with open(_baseline_file(model), newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))[1:]
    return tuple(float(v) for v in rows[layer][1:4])


def _default_layer(model: str, num_hidden_layers: int) -> int:
    """bert_score's tuned layer for the models it knows by name; the last layer of any other."""
    if os.path.isdir(model):
        return num_hidden_layers
    from bert_score.utils import model2layers

    return model2layers.get(model, num_hidden_layers)


def _truncate(model: Any, layer: int) -> bool:
    """Drop the layers above ``layer`` (as bert_score does), so the last hidden state is that layer's."""
    for parent in (getattr(model, "encoder", None), getattr(model, "transformer", None)):
        layers = getattr(parent, "layer", None)
        if layers is not None:
            import torch

            parent.layer = torch.nn.ModuleList(list(layers)[:layer])
            return True
    return False


NO_LIMIT = 10**9
"""Tokenizers saved without a length limit carry transformers' sentinel (about 1e30) as ``model_max_length``;
anything this large means "no limit" (handing it to the fast tokenizer's truncation overflows)."""


def _max_length(tokenizer: Any, config: Any) -> int | None:
    """The longest input the model takes, in tokens: the tokenizer's ``model_max_length`` (as bert_score
    uses), or, where the tokenizer states none, the config's position table (RoBERTa-style models start
    their positions after the padding index, so two fewer); None when neither bounds it (relative positions)."""
    limit = getattr(tokenizer, "model_max_length", None)
    if isinstance(limit, int) and 0 < limit < NO_LIMIT:
        return limit
    positions = getattr(config, "max_position_embeddings", None)
    if not isinstance(positions, int) or positions <= 0:
        return None
    return positions - 2 if "roberta" in str(getattr(config, "model_type", "")) else positions


def _embedder(run: Run, model: str, layer: int | None, device: str | None, dtype: str | None, batch_size: int,
              progress: bool) -> TextEncoder:
    """The run's encoder giving, per text, unit-norm token embeddings of one layer and their weights."""

    def build() -> TextEncoder:
        tokenizer, encoder, target = load_pretrained(model, OPTION, device=device, dtype=dtype)
        chosen = _default_layer(model, encoder.config.num_hidden_layers) if layer is None else layer
        truncated = _truncate(encoder, chosen)
        unweighted = {tokenizer.cls_token_id, tokenizer.sep_token_id}
        prefix_space = type(tokenizer).__name__.startswith(("Roberta", "GPT2"))
        max_length = _max_length(tokenizer, encoder.config)

        def token_ids(texts: list[str]) -> list[dict[str, list[int]]]:
            stripped = [text.strip() for text in texts]
            extra = {"add_prefix_space": True} if prefix_space else {}
            ids = tokenizer(stripped, add_special_tokens=True, truncation=max_length is not None,
                            max_length=max_length, **extra)["input_ids"]
            return [{"input_ids": row} for row in ids]

        def forward(net: Any, batch: dict[str, torch.Tensor]) -> list[tuple[torch.Tensor, ...]]:
            import torch

            input_ids, mask = batch["input_ids"], batch["attention_mask"]
            output = net(input_ids=input_ids, attention_mask=mask, output_hidden_states=not truncated)
            states = (output.last_hidden_state if truncated else output.hidden_states[chosen]).float()
            states = states / torch.norm(states, dim=-1, keepdim=True)
            weights = torch.ones_like(input_ids, dtype=torch.float)
            for token in unweighted:
                weights[input_ids == token] = 0.0
            lengths = mask.sum(dim=1).tolist()
            return [(states[row, :n], weights[row, :n]) for row, n in enumerate(lengths)]

        text_encoder = TextEncoder(encoder, token_ids, forward, pad_id=tokenizer.pad_token_id, device=target,
                                   batch_size=batch_size, progress=progress, description="bertscore")
        text_encoder.info["layer"] = chosen
        return text_encoder

    return shared_encoder(run, model, ("bertscore", layer, device, dtype), build, OPTION)


BERT_SCORE_PAIR_BATCH = 64
"""Pairs per batch in ``bert_score.score``'s matching step (its default ``batch_size``)."""


def padding_in_bert_score(
    candidate_lengths: Sequence[int], reference_lengths: Sequence[Sequence[int]]
) -> list[torch.Tensor]:
    """Per item, references x (reference padded, candidate padded) as ``bert_score.score`` batches them.

    ``bert_score`` flattens the (candidate, reference) pairs item by item, pads
    each batch of :data:`BERT_SCORE_PAIR_BATCH` pairs to its longest candidate and
    reference, and takes its maxima over similarities in which padding counts as
    0. So a text shorter than the longest of its batch has a floor of 0 under its
    best similarities; these flags say where, so that :func:`greedy_match` agrees
    with ``bert_score`` also when every similarity of a token is negative.
    """
    import torch

    pairs = [(c, r) for c, refs in zip(candidate_lengths, reference_lengths) for r in refs]
    flags = []
    for start in range(0, len(pairs), BERT_SCORE_PAIR_BATCH):
        batch = pairs[start : start + BERT_SCORE_PAIR_BATCH]
        longest_candidate, longest_reference = max(c for c, _ in batch), max(r for _, r in batch)
        flags.extend((r < longest_reference, c < longest_candidate) for c, r in batch)
    items, start = [], 0
    for refs in reference_lengths:
        items.append(torch.tensor(flags[start : start + len(refs)], dtype=torch.bool).reshape(len(refs), 2))
        start += len(refs)
    return items


def greedy_match(
    candidate: tuple[torch.Tensor, torch.Tensor],
    references: Sequence[tuple[torch.Tensor, torch.Tensor]],
    padded: torch.Tensor | None = None,
) -> tuple[float, float, float]:
    """The best P, R and F1 of a candidate over its references (each maximised on its own).

    Each text is ``(unit-norm token embeddings, token weights)``. As in
    bert_score, a text of special tokens only (an empty text) scores P = R = 0
    against anything, and an undefined F1 is 0. All references are matched in
    one product: the similarity columns are gathered into a references x
    longest-reference block.

    :param padded: references x 2 booleans, :func:`padding_in_bert_score`'s: where
        bert_score would have padded the reference (column 0) or the candidate
        (column 1), a best similarity below 0 counts as 0 in precision (recall).
    """
    import torch

    embeddings, weights = candidate
    lengths = torch.tensor([len(e) for e, _ in references])
    longest = int(lengths.max())
    padding = torch.arange(longest)[None, :] >= lengths[:, None]  # references x longest
    columns = (torch.cumsum(lengths, 0) - lengths)[:, None] + torch.arange(longest)[None, :]
    columns = columns.masked_fill(padding, int(lengths.sum()))  # padding reads the -inf column
    similarity = embeddings @ torch.cat([e for e, _ in references]).T
    similarity = torch.cat([similarity, torch.full((len(embeddings), 1), -torch.inf)], dim=1)
    blocks = similarity[:, columns]  # candidate tokens x references x longest
    best_in_reference = blocks.max(dim=2).values  # candidate tokens x references
    best_in_candidate = blocks.max(dim=0).values.masked_fill(padding, 0.0)  # references x longest
    if padded is not None:
        best_in_reference = torch.where(padded[None, :, 0], best_in_reference.clamp(min=0), best_in_reference)
        best_in_candidate = torch.where(padded[:, 1, None], best_in_candidate.clamp(min=0), best_in_candidate)
    precision = (best_in_reference * (weights / weights.sum())[:, None]).sum(dim=0)
    reference_weights = torch.zeros(len(references), longest)
    for row, (_, w) in enumerate(references):
        reference_weights[row, : len(w)] = w / w.sum()
    recall = (best_in_candidate * reference_weights).sum(dim=1)
    empty = (lengths == 2) | (len(embeddings) == 2)  # [CLS] [SEP] only
    precision = precision.masked_fill(empty, 0.0)
    recall = recall.masked_fill(empty, 0.0)
    f1 = torch.nan_to_num(2 * precision * recall / (precision + recall), nan=0.0)
    return precision.max().item(), recall.max().item(), f1.max().item()


def _shown(key: str, value: Any) -> str:
    """An option's value as ``-m bertscore:key=value`` writes it."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return {"dtype": "float32", "layer": "last"}.get(key, "none")
    return str(value)


class BertScore(Metric):
    """BERTScore precision, recall and F1 against the best-matching reference."""

    name = "bertscore"
    formula_version = "1"
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
        "dtype": Option(str, None, "model dtype (default float32; others change the scores)", choices=DTYPES),
        "batch_size": Option(int, 64, "texts per batch (halved when the device runs out of memory)",
                             in_signature=False),
        "device": Option(str, None, "cpu, cuda, cuda:N or mps (default: cuda if available)", in_signature=False),
        "progress": Option(bool, True, "progress bar on a terminal", in_signature=False),
    }
    # easse evaluate (easse/bertscore.py): BERTScorer(lang="en", rescale_with_baseline=True), i.e.
    # roberta-large at layer 17, no idf, rescaled, on 13a tokens lower-cased by the CLI's -lc default
    presets = {"easse-cli": {"lowercase": True, "tokenizer": "13a"}}

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        if self.batch_size < 1:
            raise UsageError(f'option "batch_size" of bertscore must be at least 1, got {self.batch_size}')
        check_device(self.device, "bertscore")
        if self.dtype == "float32":  # the default: one signature for one computation
            self.dtype = self.settings["dtype"] = None
        if self.rescale is None:
            self.rescale = _baseline_file(self.model) is not None
            self.settings["rescale"] = self.rescale
        elif self.rescale and _baseline_file(self.model) is None:
            raise UsageError(
                f"bert_score has no rescaling baseline for model {self.model}: pass bertscore:rescale=no"
            )

    def easse_differences(self) -> list[str]:
        """How these settings differ from ``easse evaluate``'s BERTScore (see ``presets["easse-cli"]``),
        as ``option=value (EASSE: value)``; empty when they are EASSE's. The ``easse-cli`` preset sets
        what an option can set; the model, its layer and the rescaling baseline must also be EASSE's
        (roberta-large's weights are not downloaded by simpeval), so ``--easse-defaults`` says when
        they are not rather than print other numbers under EASSE's name."""
        wanted = {"model": DEFAULT_MODEL, "layer": EASSE_LAYER, "rescale": True, "tokenizer": "13a",
                  "lowercase": True, "dtype": None}
        actual = {**{key: getattr(self, key) for key in wanted},
                  "layer": EASSE_LAYER if self.layer is None and self.model == DEFAULT_MODEL else self.layer}
        return [f"{key}={_shown(key, actual[key])} (EASSE: {_shown(key, value)})"
                for key, value in wanted.items() if actual[key] != value]

    def _prepare(self, text: str) -> str:
        return " ".join(tokenize(text, self.text_tokenizer, self.lowercase, store=self.store))

    def _score_items(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
    ) -> dict[str, list[float]]:
        if any(len(refs) == 0 for refs in references):
            raise UsageError("bertscore needs at least one reference per item: check --refs")
        if not outputs:
            return {key: [] for key in self.sub_scores}
        import torch

        encoder = _embedder(self.run, self.model, self.layer, self.device, self.dtype, self.batch_size, self.progress)
        candidates = [self._prepare(text) for text in outputs]
        refs = [[self._prepare(text) for text in item] for item in references]
        distinct = list(dict.fromkeys(candidates + [r for item in refs for r in item]))
        embedded = dict(zip(distinct, encoder.encode(distinct)))
        padded = padding_in_bert_score(
            [len(embedded[c][0]) for c in candidates], [[len(embedded[r][0]) for r in item] for item in refs]
        )
        scores = torch.tensor([
            greedy_match(embedded[c], [embedded[r] for r in item], flags)
            for c, item, flags in zip(candidates, refs, padded)
        ])
        if self.rescale:
            baseline = torch.tensor(_baseline(self.model, encoder.info["layer"]))
            scores = (scores - baseline) / (1 - baseline)
        precision, recall, f1 = scores.T.tolist()
        return {"bertscore": f1, "bertscore-p": precision, "bertscore-r": recall, "bertscore-f1": f1}


@simpeval.hookimpl
def simpeval_register_metrics() -> list[type[Metric]]:
    return [BertScore]
