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
counted from each row's first real token (what the row would get alone).
"""

from __future__ import annotations

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


def last_token_reader(ids: Sequence[int]):
    """``forward(model, batch)`` for the encoding service: per row, the logits of the answer tokens ``ids`` at
    the row's last token and the logsumexp of all the logits there, as one float32 tensor of 6 values.

    The model computes the logits of the last :data:`KEPT_POSITIONS` positions only (``logits_to_keep``):
    every position's would be rows x length x vocabulary floats (873 MB for 16 SmolLM2 prompts of 291
    tokens), the peak of a judge run. The last one alone would round the vocabulary product differently
    (1.3e-6 on a SmolLM2 rating: a one-row product takes another kernel), while 16 gave the last
    position's logits a plain ``model(input_ids)`` call gives bit for bit on the CPU this was measured on;
    the score is to equal transformers' own to 1e-6 (tested)."""
    answers = list(ids)

    def forward(model: Any, batch: dict[str, torch.Tensor]) -> list[torch.Tensor]:
        import torch

        if bool(batch["attention_mask"].all()):  # one length (always on the CPU): the rows as they are
            logits = model(input_ids=batch["input_ids"], use_cache=False, logits_to_keep=KEPT_POSITIONS).logits
        else:
            logits = model(**left_padded(batch), use_cache=False, logits_to_keep=KEPT_POSITIONS).logits
        last = logits[:, -1, :].float()
        chosen = last[:, answers]
        normaliser = torch.logsumexp(last, dim=-1, keepdim=True)
        rows = torch.cat([chosen, normaliser], dim=1)
        return [rows[i] for i in range(rows.shape[0])]

    return forward


def ratings(results: Sequence[torch.Tensor]) -> tuple[list[float], list[float]]:
    """``(expected ratings, answer masses)`` of the encoding service's results (:func:`last_token_reader`)."""
    import torch

    if not results:
        return [], []
    stacked = torch.stack(list(results))
    return expected_rating(stacked[:, :5]).tolist(), answer_mass(stacked[:, :5], stacked[:, 5]).tolist()
