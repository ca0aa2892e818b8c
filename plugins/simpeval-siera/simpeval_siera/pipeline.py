"""From parallel pairs to SIERA's training examples and record: the steps ``simpeval train siera`` runs
(:class:`~simpeval_siera.trainer.SieraTrainer`; pairs already read: ``SieraTrainer.given(pairs=...)``).

Base trains on the (original, simplified) pairs; +Silver adds, for each pair, up to
``m`` filtered intermediate sentences ``i`` as two more relations: ``s`` is less
simple than ``i``, and ``i`` less simple than ``s'``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from simpeval import UsageError
from simpeval_siera.augmentation import DEFAULT_CAP, augment
from simpeval_siera.data import Pair
from simpeval_siera.normalize import normalize
from simpeval_siera.training import Example, TrainReport, TrainSettings, both_orders, valid_group_count


@dataclass(frozen=True)
class DataSettings:
    """How the training relations are made: the variant, intermediates per pair, candidate cap, seed."""

    variant: str = "silver"
    m: int = 1
    cap: int = DEFAULT_CAP
    valid_fraction: float = 0.2
    seed: int = 0


def normalized_pairs(pairs: Sequence[Pair]) -> list[Pair]:
    """Normalise both sides; drop pairs whose simplification is the original itself (nothing to rank)."""
    result = []
    for original, simplified, group in pairs:
        original, simplified = normalize(original), normalize(simplified)
        if original != simplified:
            result.append((original, simplified, group))
    return result


def check_enough_sources(pairs: Sequence[Pair], valid_fraction: float) -> None:
    """Fail before any model loads unless both sides of the validation split get a source sentence."""
    n_sources = len({group for _, _, group in pairs})
    if not 0 < valid_group_count(n_sources, valid_fraction) < n_sources:
        raise UsageError(
            f"{n_sources} source sentences with a simplification that differs from them are too few to hold "
            f"{valid_fraction:.0%} of them out for validation and train on the rest: give more training data"
        )


def build_examples(
    pairs: Sequence[Pair],
    settings: DataSettings,
    f1: Callable[[list[tuple[str, str]]], list[float]] | None,
    log: Callable[[str], None] = print,
) -> tuple[list[Example], dict[str, Any]]:
    """Examples (both orders) of normalised pairs, with intermediates for +Silver, and statistics."""
    relations = list(pairs)
    stats: dict[str, Any] = {"pairs": len(pairs), "variant": settings.variant}
    if settings.variant == "silver":
        result = augment([(s, t) for s, t, _ in pairs], f1, settings.m, settings.cap, settings.seed)
        for candidate in result.chosen:
            source, target, group = pairs[candidate.pair_index]
            relations.append((source, candidate.text, group))
            relations.append((candidate.text, target, group))
        stats.update(
            candidates=result.n_candidates, threshold=result.threshold, intermediates=len(result.chosen)
        )
        log(
            f"augmentation: {result.n_candidates} candidates, threshold {result.threshold:.4f}, "
            f"{len(result.chosen)} intermediates kept"
        )
    stats["relations"] = len(relations)
    return both_orders(relations), stats


def training_record(
    stats: dict[str, Any], data: DataSettings, settings: TrainSettings, n_train: int, n_valid: int,
    report: TrainReport,
) -> dict[str, Any]:
    """What a checkpoint's config records about how it was trained."""
    return {
        "data": stats, "data_settings": asdict(data), "train_settings": asdict(settings),
        "train_examples": n_train, "valid_examples": n_valid,
        "best_epoch": report.best_epoch, "best_valid_loss": report.best_value,
        "history": report.history, "seconds": report.seconds,
    }

