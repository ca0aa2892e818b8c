"""Parallel training data: (original, simplified) pairs read from aligned text files.

Never the test sets: their sources are the ones Simplicity-DA rates. The named
sets resolve inside a ``SIMPEVAL_DATA_DIR``-style directory.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

from simpeval import UsageError
from simpeval.datadir import resolve_data_dir

Pair = tuple[str, str, int]

NAMED_SETS = {
    "asset-valid": ("references/asset/asset.valid.orig", "references/asset/asset.valid.simp.{}", 10),
    "turkcorpus-tune": (
        "references/turkcorpus/tune.truecase.detok.orig",
        "references/turkcorpus/tune.truecase.detok.simp.{}",
        8,
    ),
}


def named_set_files(name: str, data_dir: str | Path) -> tuple[Path, list[Path]]:
    """The original file and the simplification files of a named training set."""
    if name not in NAMED_SETS:
        raise UsageError(f"unknown training set {name!r}: choose one of {', '.join(NAMED_SETS)}")
    orig, simp, count = NAMED_SETS[name]
    return Path(data_dir) / orig, [Path(data_dir) / simp.format(i) for i in range(count)]


def _read_lines(path: Path) -> list[str]:
    try:
        return Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}; check the path") from exc
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path} is not UTF-8 (byte 0x{exc.object[exc.start]:02x} at offset {exc.start}): "
                         "convert it, e.g. iconv -f latin1 -t utf-8") from None


def read_parallel(orig_path: Path, simp_paths: Sequence[Path]) -> list[Pair]:
    """(original, simplified, source index) for every line of every simplification file.

    Each simplification file is aligned line by line with the original file; the
    source index groups the references of one source (for the validation split).
    Empty lines are skipped.
    """
    originals = _read_lines(orig_path)
    pairs = []
    for simp_path in simp_paths:
        simplifications = _read_lines(simp_path)
        if len(simplifications) != len(originals):
            raise UsageError(
                f"{simp_path} has {len(simplifications)} lines but {orig_path} has {len(originals)}: "
                "give line-aligned files"
            )
        pairs.extend(
            (o, s, i) for i, (o, s) in enumerate(zip(originals, simplifications)) if o.strip() and s.strip()
        )
    return pairs


def subsample(pairs: Sequence[Pair], refs_per_source: int | None, seed: int) -> list[Pair]:
    """At most ``refs_per_source`` simplifications per source, drawn with ``seed`` (all if None)."""
    if refs_per_source is None:
        return list(pairs)
    by_source: dict[int, list[Pair]] = {}
    for pair in pairs:
        by_source.setdefault(pair[2], []).append(pair)
    rng = random.Random(seed)
    chosen = []
    for source in sorted(by_source):
        options = by_source[source]
        chosen.extend(rng.sample(options, min(refs_per_source, len(options))))
    return chosen


def load_training_pairs(
    named: Sequence[str], orig: Path | None, simps: Sequence[Path], data_dir: str | Path | None
) -> list[Pair]:
    """Pairs of the named sets and of ``orig``/``simps`` together, with source indices kept distinct."""
    sources: list[tuple[Path, list[Path]]] = []
    if named:
        data_dir = resolve_data_dir(data_dir)
        sources.extend(named_set_files(name, data_dir) for name in named)
    if orig is not None:
        if not simps:
            raise UsageError("--orig needs at least one --simp file aligned with it")
        sources.append((Path(orig), [Path(s) for s in simps]))
    if not sources:
        raise UsageError("no training data: give --dataset asset-valid or --orig FILE --simp FILE")
    pairs: list[Pair] = []
    offset = 0
    for orig_path, simp_paths in sources:
        part = read_parallel(orig_path, simp_paths)
        pairs.extend((o, s, g + offset) for o, s, g in part)
        offset += 1 + max((g for _, _, g in part), default=-1)
    return pairs
