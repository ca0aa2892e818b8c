"""The multi-reference test sets that share the 359 original sentences of TurkCorpus' test set.

ASSET (10 references), TurkCorpus (8) and HSplit (4) align line by line, so an item that
knows its line (``Item.line``) can take its references from any of them, or from ``all``
(their union, 22 references, as in Alva-Manchego et al. 2021 §4.4.1). Per-item ``selected``
references live in :mod:`simpeval.datasets.selection`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from simpeval.datadir import read_data_text, require_file
from simpeval.errors import UsageError

TEST_SET_SIZE = 359

# name -> (file pattern relative to the data dir, reference indices, public source)
_SETS: dict[str, tuple[str, range, str]] = {
    "asset": (
        "references/asset/asset.test.simp.{}",
        range(10),
        "https://github.com/facebookresearch/asset",
    ),
    "turkcorpus": (
        "references/turkcorpus/test.truecase.detok.simp.{}",
        range(8),
        "https://github.com/cocoxu/simplification",
    ),
    "hsplit": (
        "references/hsplit/hsplit.tok.{}",
        range(1, 5),
        "https://github.com/eliorsulem/HSplit-corpus",
    ),
}
UNION = ("asset", "turkcorpus", "hsplit")
# Reference sets that come with their own rendering of the originals. HSplit's references are
# lowercased and tokenised, and EASSE scores them against HSplit's own (equally processed)
# source file: the published per-item SARI and iBLEU values for ``hsplit`` match only that way.
_OWN_SOURCES = {"hsplit": "references/hsplit/hsplit.tok.src"}
REFERENCE_SETS = (*_SETS, "all", "selected")


def _test_set_file(path: Path) -> list[str]:
    """The lines of a file aligned with the test set; :class:`UsageError` unless there are 359."""
    lines = read_data_text(path).splitlines()
    if len(lines) != TEST_SET_SIZE:
        raise UsageError(f"{path} has {len(lines)} lines, expected {TEST_SET_SIZE}: re-fetch it")
    return lines


@lru_cache(maxsize=8)
def _read_set(data_dir: Path, name: str) -> tuple[tuple[str, ...], ...]:
    """Line-major references of one set: ``result[line][k]``."""
    pattern, indices, source = _SETS[name]
    columns = []
    for k in indices:
        columns.append(_test_set_file(require_file(data_dir, pattern.format(k), source)))
    return tuple(zip(*columns))


def reference_set_files() -> dict[str, tuple[tuple[str, ...], str]]:
    """``{set: (its files relative to the data directory, public source)}`` for ``simpeval data``."""
    return {name: ((*(pattern.format(k) for k in indices), *((_OWN_SOURCES[name],) if name in _OWN_SOURCES else ())),
                   source)
            for name, (pattern, indices, source) in _SETS.items()}


def test_set_references(data_dir: Path, name: str) -> list[list[str]]:
    """All 359 lines' references of set ``name`` (``asset``, ``turkcorpus``, ``hsplit`` or ``all``)."""
    if name == "all":
        per_set = [_read_set(data_dir, part) for part in UNION]
        return [[ref for refs in parts for ref in refs] for parts in zip(*per_set)]
    if name not in _SETS:
        known = ", ".join(REFERENCE_SETS)
        raise UsageError(f'unknown reference set "{name}": choose one of {known}')
    return [list(refs) for refs in _read_set(data_dir, name)]


def sources_for_lines(data_dir: Path, name: str, lines: Sequence[int]) -> list[str] | None:
    """The originals set ``name`` pairs its references with, for the given lines (None: the items' own)."""
    if name not in _OWN_SOURCES:
        return None
    table = _test_set_file(require_file(data_dir, _OWN_SOURCES[name], _SETS[name][2]))
    return [table[line] for line in lines]


def references_for_lines(data_dir: Path, name: str, lines: Sequence[int]) -> list[list[str]]:
    """Item-major references of set ``name`` for items on the given 0-based test-set ``lines``."""
    table = test_set_references(data_dir, name)
    return [table[line] for line in lines]


def test_set_lines(data_dir: Path) -> dict[str, int]:
    """Original sentence -> its 0-based test-set line, from ``asset.test.orig`` ({} if absent).

    Datasets that store originals but no line numbers (SimpEval, SimpDA) find their references
    through it; an item whose original is not a test-set line has no references.
    """
    path = data_dir / "references/asset/asset.test.orig"
    if not path.is_file():
        return {}
    lines = read_data_text(path).splitlines()
    return {text.strip(): i for i, text in enumerate(lines)}
