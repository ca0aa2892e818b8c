"""From parallel pairs to a trained, saved SIERA model: the steps ``simpeval train siera`` runs.

Base trains on the (original, simplified) pairs; +Silver adds, for each pair, up to
``m`` filtered intermediate sentences ``i`` as two more relations: ``s`` is less
simple than ``i``, and ``i`` less simple than ``s'``.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from simpeval import UsageError, models
from simpeval.learning.judge import Judge
from simpeval.learning.report import folds_record, loo_table, write_card_section
from simpeval_siera.augmentation import DEFAULT_CAP, augment
from simpeval_siera.data import Pair
from simpeval_siera.normalize import normalize
from simpeval_siera.training import (
    Example,
    TrainReport,
    TrainSettings,
    both_orders,
    grouped_split,
    train_model,
    valid_group_count,
)

VARIANTS = ("base", "silver")


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


def check_writable(directory: Path) -> None:
    """Fail before training, not after it, where the checkpoint could not be saved."""
    directory = directory.absolute()
    existing = next(path for path in (directory, *directory.parents) if path.exists())
    try:  # os.access says yes to root even where mkdir fails (/proc, read-only mounts); trying says the truth
        tempfile.TemporaryDirectory(dir=existing).cleanup()
    except OSError as exc:
        raise UsageError(
            f"cannot save the checkpoint in {directory}: {existing} is not a writable directory "
            f"({exc.strerror}); choose another -o"
        ) from None


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


def train_siera(
    pairs: Sequence[Pair],
    output_dir: str | Path,
    encoder: str,
    data: DataSettings,
    settings: TrainSettings,
    log: Callable[[str], None] = print,
    judge: Judge | None = None,
) -> TrainReport:
    """Normalise, augment, split by source, cache the frozen states, train, choose an epoch, save to ``output_dir``.

    :param judge: rated datasets choosing the epoch, leave-one-dataset-out (:mod:`.loo`; never trained on);
        None: the epoch of lowest validation loss.
    """
    pairs = normalized_pairs(pairs)
    check_enough_sources(pairs, data.valid_fraction)
    check_writable(Path(output_dir))
    from simpeval_siera.features import FeatureCache
    from simpeval_siera.config import resolve_encoder
    from simpeval_siera.model import SieraConfig, SieraModel, load_tokenizer
    from simpeval_siera.similarity import TokenEmbedder

    resolve_encoder(encoder)  # a directory that is no model is refused here, in SIERA's words
    config = SieraConfig(**models.encoder_reference(encoder, "SIERA"))
    model = SieraModel(config)
    tokenizer = load_tokenizer(config)
    # The filter embeds with the frozen bottom: its last layer is the encoder's second to last.
    embedder = TokenEmbedder(model.bottom, tokenizer)
    examples, stats = build_examples(pairs, data, embedder.f1, log)
    train, valid = grouped_split(examples, data.valid_fraction, data.seed)
    cache = FeatureCache(model, tokenizer)
    log(f"caching frozen states of {cache.add((e.first, e.second) for e in examples)} inputs")
    report = train_model(model, cache, train, valid, settings, log)
    selection = {"selection": "the epoch with the lowest validation loss", "selected_epoch": report.best_epoch}
    if judge is not None:
        from simpeval_siera.loo import READ, cache_pairs, choose_epoch, rated_pairs

        log(f"caching frozen states of {cache_pairs(cache, rated_pairs(judge))} rated inputs")
        epoch, folds, table = choose_epoch(model, cache, report.snapshots, judge)
        report.selected_epoch = epoch
        selection = {
            "selection": f"the epoch whose {READ} has the best mean Pearson r with {judge.aspect} over the rated "
                         "datasets; each left-out row: the epoch chosen on the other datasets",
            "selected_epoch": epoch, "rated_datasets": judge.names, "leave_one_dataset_out": folds_record(folds),
            "candidates": {c: {n: round(r, 4) for n, r in per.items()} for c, per in table.items()},
        }
        table_lines = loo_table([(READ, folds)])
        log("\n".join(table_lines))
        write_card_section(Path(output_dir) / "MODEL_CARD.md", "Leave-one-dataset-out",
                           "\n".join([f"Epoch {epoch} kept: {selection['selection']}; each row: its r on the "
                                      "dataset left out, beside the baselines on the same items.", "", *table_lines]))
    model.config.training = {**training_record(stats, data, settings, len(train), len(valid), report), **selection}
    model.save(output_dir)
    return report


def training_record(
    stats: dict[str, Any], data: DataSettings, settings: TrainSettings, n_train: int, n_valid: int,
    report: TrainReport,
) -> dict[str, Any]:
    """What a checkpoint's config records about how it was trained."""
    return {
        "data": stats, "data_settings": asdict(data), "train_settings": asdict(settings),
        "train_examples": n_train, "valid_examples": n_valid,
        "best_epoch": report.best_epoch, "best_valid_loss": report.best_valid_loss,
        "history": report.history, "seconds": report.seconds,
    }

