"""The judge's score: the expected rating under the model's next-token probabilities over "1" to "5".

For a prompt ending where the rating begins, the model's logits ``z`` at the last position give,
over the five answer tokens only (G-Eval's normalisation; Maddela & Alva-Manchego 2025),

    p_k = exp(z_k) / sum_j exp(z_j),   k = 1..5,        score = sum_k k * p_k   (in [1, 5])

and ``mass`` = the probability the model puts on those five tokens among its whole vocabulary (how
much it answers in the asked format; low mass means the rating rests on a small share of the model's
belief). Nothing is sampled: the score is a deterministic function of the prompt and the weights.

Prompts go through the core's encoding service (:class:`simpeval.encoding.TextEncoder`): each distinct
prompt once per run, sorted by token length, batches halved when the device runs out of memory, a
progress bar with an ETA. On the CPU a batch holds prompts of one length (no padding); elsewhere a
batch is padded on the *left*, so the last position is every row's last token, with position ids
counted from each row's first real token (what the row would get alone). A batch of one length whose
prompts start with the same rubric text computes only the positions after it, on that beginning's keys
and values, read once per run (:func:`last_token_reader`).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from simpeval import UsageError

if TYPE_CHECKING:
    import torch

ANSWERS = ("1", "2", "3", "4", "5")


def answer_ids(tokenizer: Any) -> list[int]:
    """The token id of each answer "1" to "5".

    :raises UsageError: when the tokenizer does not spell an answer as one token.
    """
    ids = []
    for answer in ANSWERS:
        tokens = tokenizer.encode(answer, add_special_tokens=False)
        if len(tokens) != 1:
            raise UsageError(f'the judge model\'s tokenizer spells the answer "{answer}" as {len(tokens)} tokens: '
                             "pass model=PATH of a model that reads each digit as one token")
        ids.append(tokens[0])
    return ids


def expected_rating(answer_logits: torch.Tensor) -> torch.Tensor:
    """``sum_k k * softmax(answer_logits)_k`` over the last dimension (five logits, answers 1 to 5), in float64."""
    import torch

    probabilities = torch.softmax(answer_logits.double(), dim=-1)
    return (probabilities * torch.arange(1, len(ANSWERS) + 1, dtype=torch.float64)).sum(dim=-1)


def answer_mass(answer_logits: torch.Tensor, log_normaliser: torch.Tensor) -> torch.Tensor:
    """The probability of the five answers among the whole vocabulary, from their logits and the vocabulary's logsumexp."""
    import torch

    return torch.exp(torch.logsumexp(answer_logits.double(), dim=-1) - log_normaliser.double())


def left_padded(batch: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """A right-padded batch (the encoding service's) moved to the left: each row's tokens end at the last
    position; ``position_ids`` count from each row's first token, as the row alone would have them. The
    padding holds token 0 under a zero mask (no real token attends to it)."""
    import torch

    ids, mask = batch["input_ids"], batch["attention_mask"]
    width = ids.shape[1]
    lengths = mask.sum(dim=1)
    shift = width - lengths  # padding to put in front of each row
    columns = torch.arange(width, device=ids.device)[None, :]
    source = (columns - shift[:, None]).clamp(min=0)
    real = columns >= shift[:, None]
    moved_ids = torch.where(real, ids.gather(1, source), 0)  # token 0 under padding: masked, never read
    moved_mask = real.to(mask.dtype)
    positions = (moved_mask.cumsum(dim=1) - 1).clamp(min=0)
    return {"input_ids": moved_ids, "attention_mask": moved_mask, "position_ids": positions}


KEPT_POSITIONS = 16
"""How many of the last positions the model computes logits for (:func:`last_token_reader`)."""

CPU_TOKENS_PER_PASS = 2048
"""On the CPU, a forward pass holds at most this many tokens (prompts x length) besides at most ``batch_size``
prompts; a longer prompt goes alone. A pass's activations grow with its tokens, and the largest pass sets a
run's peak memory: on 400 ASSET validation items (prompts of 250-400 tokens), passes of 14-15 prompts of 273-282
tokens added 161 and 266 MB (two runs) above the 960 MB held between passes, much of it freed C heap that
glibc's rising mmap threshold had fragmented; at most 2,048 tokens (7 prompts of 287-292) added 70 and 142 MB,
peak RSS 1,123 / 1,227 -> 1,031 / 1,102 MB, with the same CPU time per token (flat from about 900 tokens per
pass up; one prompt alone costs 17% more). ``benchmarks/judge_memory_passes.py``, ``docs/benchmarks/memory.md``."""


def last_token_reader(ids: Sequence[int], beginnings: Sequence[Sequence[int]] = ()):
    """``forward(model, batch)`` for the encoding service: per row, the logits of the answer tokens ``ids`` at
    the row's last token and the logsumexp of all the logits there, as one float32 tensor of 6 values.

    The model computes the logits of the last :data:`KEPT_POSITIONS` positions only (``logits_to_keep``):
    every position's would be rows x length x vocabulary floats (873 MB for 16 SmolLM2 prompts of 291
    tokens), the peak of a judge run. The last one alone would round the vocabulary product differently
    (1.3e-6 on a SmolLM2 rating: a one-row product takes another kernel), while 16 gave the last
    position's logits a plain ``model(input_ids)`` call gives bit for bit on the CPU this was measured on.

    ``beginnings``: token ids that prompts start with (a rubric's text before its first field,
    :func:`simpeval_judge.metrics.fixed_beginning`). A batch of one length whose rows all start with one
    of them reads it once per run: its keys and values are computed on first use and kept
    (:class:`_Beginnings`), and each pass computes only the positions after it. A causal model's states
    there do not depend on what follows, so this is the same computation in other matrix shapes, which
    round otherwise: the score is to equal transformers' own forward pass over the whole prompt to 1e-4
    (tested). ``docs/benchmarks/judge.md`` gives the CPU time it saves and how far it moved the ratings.
    """
    answers = list(ids)
    known = _Beginnings(beginnings)

    def forward(model: Any, batch: dict[str, torch.Tensor]) -> list[torch.Tensor]:
        import torch

        if bool(batch["attention_mask"].all()):  # one length (always on the CPU): the rows as they are
            rows = batch["input_ids"]
            beginning = known.shared_by(rows)
            if beginning is None:
                logits = model(input_ids=rows, use_cache=False, logits_to_keep=KEPT_POSITIONS).logits
            else:
                logits = known.continued(model, rows, beginning)
        else:
            logits = model(**left_padded(batch), use_cache=False, logits_to_keep=KEPT_POSITIONS).logits
        last = logits[:, -1, :].float()
        chosen = last[:, answers]
        normaliser = torch.logsumexp(last, dim=-1, keepdim=True)
        rows = torch.cat([chosen, normaliser], dim=1)
        return [rows[i] for i in range(rows.shape[0])]

    return forward


class _Beginnings:
    """Known beginnings of prompts, and the keys and values of each one the model has read (one row each, on
    the device it was read on, about 10 MB for a SmolLM2 rubric): a judge's prompts repeat their rubric, so
    a pass need only compute what follows it."""

    def __init__(self, beginnings: Sequence[Sequence[int]]) -> None:
        # longest first: the most a batch can skip
        self._ids = sorted({tuple(b) for b in beginnings if b}, key=len, reverse=True)
        self._states: dict[tuple[tuple[int, ...], Any], list[tuple[torch.Tensor, torch.Tensor]]] = {}

    def shared_by(self, rows: torch.Tensor) -> tuple[int, ...] | None:
        """The longest known beginning that every row starts with, leaving at least one position after it."""
        import torch

        for beginning in self._ids:
            if len(beginning) < rows.shape[1] and bool(
                    (rows[:, :len(beginning)] == torch.tensor(beginning, device=rows.device)).all()):
                return beginning
        return None

    def continued(self, model: Any, rows: torch.Tensor, beginning: tuple[int, ...]) -> torch.Tensor:
        """The last :data:`KEPT_POSITIONS` positions' logits of ``rows``, which start with ``beginning``: the
        positions after it computed on the beginning's kept keys and values (every row shares one copy)."""
        import torch
        from transformers import DynamicCache

        argument = _cache_argument(type(model))
        states = self._states.get((beginning, rows.device))
        if states is None:
            cache = DynamicCache(config=model.config)
            model(input_ids=torch.tensor([beginning], device=rows.device), use_cache=True, **{argument: cache})
            states = self._states[(beginning, rows.device)] = [(layer.keys, layer.values) for layer in cache.layers]
        n, start = rows.shape[0], len(beginning)
        cache = _read_only(model.config, [(keys.expand(n, -1, -1, -1), values.expand(n, -1, -1, -1))
                                          for keys, values in states])
        positions = torch.arange(start, rows.shape[1], device=rows.device)[None, :].expand(n, -1)
        return model(input_ids=rows[:, start:], position_ids=positions, use_cache=True, logits_to_keep=KEPT_POSITIONS,
                     **{argument: cache}).logits


def _read_only(config: Any, states: list[tuple[torch.Tensor, torch.Tensor]]) -> Any:
    """A key-value cache holding ``states`` (per layer) that gives each layer its keys and values followed by
    the pass's own, without keeping those: a pass then holds one layer's joined keys and values at a time, not
    every layer's (94 MB for 7 SmolLM2 prompts of 292 tokens), and the beginning's states stay as they are."""
    return _read_only_cache()(states, config=config)


@functools.cache
def _read_only_cache() -> type:
    """:func:`_read_only`'s class, made on first use (transformers is imported only when a model runs)."""
    import torch
    from transformers import DynamicCache

    class ReadOnlyCache(DynamicCache):
        def update(self, key_states: torch.Tensor, value_states: torch.Tensor, layer_idx: int, *args: Any,
                   **kwargs: Any) -> tuple[torch.Tensor, torch.Tensor]:
            layer = self.layers[layer_idx]
            return torch.cat([layer.keys, key_states], dim=-2), torch.cat([layer.values, value_states], dim=-2)

    return ReadOnlyCache


@functools.cache
def _cache_argument(model_class: type) -> str:
    """The name under which a model class's forward takes a key-value cache (read once per class): ``cache`` in
    the transformers installed here (5.24), ``past_key_values`` in earlier 5.x releases (still taken by later
    ones, with a warning)."""
    import inspect

    return "cache" if "cache" in inspect.signature(model_class.forward).parameters else "past_key_values"


def ratings(results: Sequence[torch.Tensor]) -> tuple[list[float], list[float]]:
    """``(expected ratings, answer masses)`` of the encoding service's results (:func:`last_token_reader`)."""
    import torch

    if not results:
        return [], []
    stacked = torch.stack(list(results))
    return expected_rating(stacked[:, :5]).tolist(), answer_mass(stacked[:, :5], stacked[:, 5]).tolist()
