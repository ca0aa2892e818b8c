"""Scoring with a trained SIERA model: one-way and two-way (paper eqs. 4-9).

``forward``: P(the output is the simpler) reading "source [SEP] output" (eq. 6, NPRM);
``backward``: the same probability reading "output [SEP] source"; the two-way
score is their mean (eq. 9). Since the backward read of (a, b) is the forward read
of (b, a), ``two_way(a, b) + two_way(b, a) = 1`` exactly. Pairs go through the
model by the core's encoding service (:mod:`simpeval.encoding`): each distinct
ordered pair once, in length-sorted batches halved on out-of-memory errors. ``precision="bfloat16"`` runs the encoder under
CPU autocast: scores differ in the second or third decimal, and whether it is faster depends on the CPU's
bf16 units and torch's kernels for them (``docs/benchmarks/siera-precision.md`` measures one CPU).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from simpeval.encoding import TextEncoder
from simpeval_siera.features import tokenize_pairs
from simpeval_siera.normalize import normalize

if TYPE_CHECKING:
    import torch

    from simpeval_siera.model import SieraModel

Pair = tuple[str, str]


def pair_encoder(
    model: SieraModel,
    tokenizer,
    batch_size: int = 64,
    precision: str = "float32",
    device: torch.device | str = "cpu",
    progress: bool = False,
) -> TextEncoder:
    """The encoding service over ``model``: P(second sentence is simpler) of each distinct (first, second) pair.

    The model must already be on ``device``; pairs are normalised by the caller.
    The encoder keeps every probability it computed, so a pair scored again (in
    a later batch of the run, or as the backward read of another item) costs nothing.
    """
    import torch

    device = torch.device(device)
    bfloat16 = precision == "bfloat16"
    model.eval()

    def tokenize(pairs: list[Pair]) -> list[dict[str, list[int]]]:
        return tokenize_pairs(tokenizer, pairs, model.config.max_length)

    def forward(net: SieraModel, batch: dict[str, torch.Tensor]) -> Sequence[torch.Tensor]:
        with torch.autocast(device.type, dtype=torch.bfloat16, enabled=bfloat16):
            logits = net(net.encode_bottom(**batch), batch["attention_mask"])
        return torch.softmax(logits.float(), dim=-1)[:, 1]

    return TextEncoder(model, tokenize, forward, pad_id=tokenizer.pad_token_id or 0, device=device,
                       batch_size=batch_size, progress=progress, description="siera")


def second_simpler_probability(
    model: SieraModel,
    tokenizer,
    pairs: Sequence[Pair],
    batch_size: int = 64,
    precision: str = "float32",
    encoder: TextEncoder | None = None,
) -> list[float]:
    """P(second sentence is simpler) for each already-normalised (first, second) pair.

    :param encoder: a :func:`pair_encoder` to reuse (and fill); a new one by default.
    """
    if encoder is None:
        encoder = pair_encoder(model, tokenizer, batch_size, precision)
    return [float(p) for p in encoder.encode(list(pairs))]


def siera_scores(
    model: SieraModel,
    tokenizer,
    sources: Sequence[str],
    outputs: Sequence[str],
    batch_size: int = 64,
    precision: str = "float32",
    encoder: TextEncoder | None = None,
) -> dict[str, list[float]]:
    """``{"forward", "backward", "two_way"}`` simplicity of each output relative to its source.

    Forward and backward pairs go through the model together, each distinct
    ordered pair once (once per run when ``encoder`` is kept between calls).
    """
    sources = [normalize(s) for s in sources]
    outputs = [normalize(o) for o in outputs]
    forward_pairs = list(zip(sources, outputs))
    backward_pairs = list(zip(outputs, sources))
    probabilities = second_simpler_probability(
        model, tokenizer, forward_pairs + backward_pairs, batch_size, precision, encoder
    )
    forward = probabilities[: len(forward_pairs)]
    backward = [1.0 - p for p in probabilities[len(forward_pairs):]]
    two_way = [(f + b) / 2 for f, b in zip(forward, backward)]
    return {"forward": forward, "backward": backward, "two_way": two_way}
