"""The LENS head (Maddela et al. 2023) and the context/literacy-aware head of Kwak et al. (2024), and their checkpoints.

Both read the frozen encoder's per-layer pooled embeddings (:mod:`.encoder`) of the source s,
the output o and one reference r, mix the layers with learned softmax weights and a scale
(COMET's layerwise attention), and predict a score from

    E_u = [s; o; r; o*r; |o-r|; o*s; |o-s|]

with a feed-forward network (``lens``). ``lens-cla`` variants add, per input, a context
projection C and a literacy projection L (``H -> H'``), append
``E_v = [C_s; C_o; C_r; L_s; L_o; L_r]`` to the features and train them with cosine-target losses:

- ``E``: L_cnt (C's pairwise cosines towards 1) and L_lit (L_s against L_o and L_r towards -1,
  L_o and L_r towards 1);
- ``E+R``: plus L_rct, each [C; L] mapped back to its embedding (``2H' -> H``) by squared error;
- ``E+R+S``: plus the rating-adaptive target: L_s vs L_o aims at CS_t(z), L_o vs L_r at -CS_t(z)
  (L_s vs L_r stays at -1: the paper says source and references have opposite literacy levels).

A checkpoint is ``lens_config.json`` plus the trained weights (safetensors); the encoder is named,
not stored, so a checkpoint weighs a few MB.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import torch
from torch import nn

from simpeval import UsageError, models
from simpeval.fileio import replaced_on_success
from simpeval_lens.encoder import DEFAULT_ENCODER
from simpeval_lens.settings import CONFIG_FILE, WEIGHTS_FILE
from simpeval_lens.losses import adaptive_target, cosine_target_loss, reconstruction_loss

VARIANTS = ("lens", "E", "E+R", "E+R+S")


@dataclass
class LensConfig:
    """What rebuilds a model: the encoder's name and shape, the variant and the head's sizes.

    ``training`` records how the checkpoint was made (data, seed, epochs, validation scores).
    """

    encoder: str = DEFAULT_ENCODER
    encoder_hash: str | None = None  # content of the encoder at training (simpeval.models.encoder_reference)
    layers: int = 7  # hidden-state layers of the encoder (embeddings + transformer layers)
    hidden: int = 384
    variant: str = "lens"
    head_hidden: int = 384
    projection: int = 128  # H'
    dropout: float = 0.1
    top_k: int = 3
    sigma: float = 2.0
    training: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise UsageError(f"unknown LENS variant {self.variant!r}: choose one of {', '.join(VARIANTS)}")

    @property
    def train_command(self) -> str:
        """The command that trains a checkpoint of this variant (the remedy errors name)."""
        return "simpeval train lens-mini" if self.variant == "lens" else "simpeval train lens-cla-mini"

    @property
    def context_literacy(self) -> bool:
        return self.variant != "lens"


class LensModel(nn.Module):
    """Layer mix, optional context/literacy projections and reconstruction, feed-forward estimator."""

    def __init__(self, config: LensConfig) -> None:
        super().__init__()
        self.config = config
        h, p = config.hidden, config.projection
        self.layer_weights = nn.Parameter(torch.zeros(config.layers))
        self.gamma = nn.Parameter(torch.ones(()))
        features = 7 * h
        if config.context_literacy:
            self.context = nn.ModuleList(nn.Linear(h, p) for _ in range(3))  # s, o, r
            self.literacy = nn.ModuleList(nn.Linear(h, p) for _ in range(3))
            features += 6 * p
        if "R" in config.variant:
            self.reconstruct = nn.ModuleList(nn.Linear(2 * p, h) for _ in range(3))
        self.estimator = nn.Sequential(
            nn.Linear(features, config.head_hidden), nn.Tanh(), nn.Dropout(config.dropout),
            nn.Linear(config.head_hidden, 1),
        )

    def mix(self, layers: torch.Tensor) -> torch.Tensor:
        """``(..., layers, hidden) -> (..., hidden)``: the scaled softmax-weighted sum of the layers."""
        weights = torch.softmax(self.layer_weights, dim=0)
        return self.gamma * torch.einsum("l,...lh->...h", weights, layers)

    def forward(self, source: torch.Tensor, output: torch.Tensor, reference: torch.Tensor,
                item: torch.Tensor | None = None):
        """Scores of (source, output, reference) triples, and what the extra losses need.

        :param source: ``items x layers x hidden``; :param output: the same, aligned with ``source``.
        :param reference: ``triples x layers x hidden``; :param item: each triple's row in ``source``
            (default: one triple per item). The estimator's first layer is applied to the per-item
            features once per item and to the per-reference ones once per triple; the sum equals
            the layer applied to the concatenated feature vector.
        """
        return self.score_mixed(self.mix(source), self.mix(output), self.mix(reference), item)

    def score_mixed(self, s: torch.Tensor, o: torch.Tensor, r: torch.Tensor, item: torch.Tensor | None = None):
        """:meth:`forward` on embeddings mixed already (:meth:`mix`): ``items x hidden`` sources and
        outputs, ``triples x hidden`` references. The mix treats each row alone, so texts can be mixed
        once each, a few at a time, and gathered after (what scoring does to bound its memory)."""
        item = torch.arange(len(r)) if item is None else item
        o_t = o[item]
        # E_u = [s; o; r; o*r; |o-r|; o*s; |o-s|]: the blocks 0, 1, 5, 6 depend on the item only
        per_item = {0: s, 1: o, 5: o * s, 6: (o - s).abs()}
        per_triple = {2: r, 3: o_t * r, 4: (o_t - r).abs()}
        parts: dict[str, list[torch.Tensor]] = {}
        if self.config.context_literacy:
            context = [proj(x) for proj, x in zip(self.context, (s, o, r))]
            literacy = [proj(x) for proj, x in zip(self.literacy, (s, o, r))]
            # E_v = [C_s; C_o; C_r; L_s; L_o; L_r] after E_u
            per_item.update({7: context[0], 8: context[1], 10: literacy[0], 11: literacy[1]})
            per_triple.update({9: context[2], 12: literacy[2]})
            parts["embeddings"] = [s, o, r]
            parts["context"], parts["literacy"] = context, literacy
            parts["item"] = [item]
        first, rest = self.estimator[0], self.estimator[1:]
        hidden = self._block_product(first, per_item)[item] + self._block_product(first, per_triple) + first.bias
        return rest(hidden).squeeze(-1), parts

    def _block_product(self, layer: nn.Linear, blocks: dict[int, torch.Tensor]) -> torch.Tensor:
        """``sum_k blocks[k] @ W_k.T`` for the column blocks ``W_k`` of ``layer`` (block k: feature k)."""
        h, p = self.config.hidden, self.config.projection
        widths = [h] * 7 + ([p] * 6 if self.config.context_literacy else [])
        starts = [sum(widths[:k]) for k in range(len(widths))]
        return sum(x @ layer.weight[:, starts[k] : starts[k] + widths[k]].T for k, x in blocks.items())

    def auxiliary_loss(self, parts: dict[str, list[torch.Tensor]], z: torch.Tensor) -> torch.Tensor:
        """L_cnt + L_lit (+ L_rct) of Kwak et al.; ``z``: the rating z-score of each item.

        Terms between source and output (and their reconstructions) are averaged over items,
        terms with a reference over (item, reference) triples, so an item counts once in the
        former whatever its number of references.
        """
        if not parts:
            return torch.zeros(())
        (item,) = parts["item"]
        (cs, co, cr), (ls, lo, lr) = parts["context"], parts["literacy"]
        target = adaptive_target(z, self.config.sigma) if "S" in self.config.variant else torch.full_like(z, -1.0)
        loss = cosine_target_loss(cs, co, 1.0) + cosine_target_loss(cs[item], cr, 1.0)
        loss = loss + cosine_target_loss(co[item], cr, 1.0)
        loss = loss + cosine_target_loss(ls, lo, target) + cosine_target_loss(ls[item], lr, -1.0)
        loss = loss + cosine_target_loss(lo[item], lr, -target[item])
        if "R" in self.config.variant:
            for rebuild, e, c, lit in zip(self.reconstruct, parts["embeddings"], parts["context"], parts["literacy"]):
                loss = loss + reconstruction_loss(e.detach(), rebuild(torch.cat([c, lit], dim=-1)))
        return loss

    def save(self, directory: str | Path) -> Path:
        """Write ``lens_config.json`` and the weights; each file appears complete or not at all."""
        from safetensors.torch import save_file

        directory = Path(directory)
        try:
            directory.mkdir(parents=True, exist_ok=True)
            with replaced_on_success(directory / WEIGHTS_FILE) as weights:
                save_file({k: v.detach().contiguous() for k, v in self.state_dict().items()}, str(weights))
            with replaced_on_success(directory / CONFIG_FILE) as config:
                config.write_text(json.dumps(asdict(self.config), indent=2) + "\n", encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot write the checkpoint to {directory}: {exc.strerror}: pick another -o") from None
        return directory


def load_checkpoint(directory: str | Path) -> LensModel:
    """Rebuild a :class:`LensModel` from a directory written by :meth:`LensModel.save`."""
    from safetensors import SafetensorError
    from safetensors.torch import load_file

    directory = Path(directory)
    if not (directory / CONFIG_FILE).is_file() or not (directory / WEIGHTS_FILE).is_file():
        raise UsageError(
            f"{directory} is not a LENS checkpoint (needs {CONFIG_FILE} and {WEIGHTS_FILE}): "
            "train one with `simpeval train lens-mini` or `simpeval train lens-cla-mini`"
        )
    try:
        config = LensConfig(**json.loads((directory / CONFIG_FILE).read_text(encoding="utf-8")))
        model = LensModel(config)
        model.load_state_dict(load_file(str(directory / WEIGHTS_FILE)), strict=True)
    except (ValueError, TypeError, RuntimeError, SafetensorError) as exc:
        first_line = next(iter(str(exc).splitlines()), "")
        raise UsageError(
            f"{directory} holds a broken LENS checkpoint ({type(exc).__name__}: {first_line}): train it again"
        ) from None
    models.verified_encoder(config.encoder, config.encoder_hash, "LENS", directory, config.train_command)
    model.eval()
    return model
