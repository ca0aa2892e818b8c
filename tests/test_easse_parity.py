"""The metaeval-2021 preset reproduces EASSE's published per-sentence scores exactly.

Oracle: ``metaeval/metrics_simplicity_DA.csv`` (Alva-Manchego et al. 2021), 600
outputs x reference sets asset (10), turk (8), all (asset + turk + hsplit, 22) and
hsplit (4). The hsplit rows were computed with HSplit's own source file
(``hsplit.tok.src``: lowercased and tokenized) as the original, all others with
the ``orig_sent`` column (= ``asset.test.orig``).
"""

from __future__ import annotations

import csv
from functools import lru_cache
from pathlib import Path

import pytest

from simpeval.metrics.bleu import Bleu
from simpeval.metrics.combined import BleuSariAmean, BleuSariGmean, FkBleu, IBleu
from simpeval.metrics.fkgl import Fkgl
from simpeval.metrics.sari import Sari
from simpeval.registry import load_registry

PRESET = "metaeval-2021"
TOLERANCE = 1e-9
# our sub-score -> column of metrics_simplicity_DA.csv
COLUMNS = {
    "bleu": "bleu",
    "sari": "sari",
    "sari-add": "sari_add",
    "sari-keep": "sari_keep",
    "sari-del": "sari_del",
    "ibleu": "ibleu",
    "bleu-sari-amean": "amean_bleu_sari",
    "bleu-sari-gmean": "gmean_bleu_sari",
    "fkgl": "fkgl",
    "fkbleu": "fkbleu",
}
METRICS = (Bleu, Sari, IBleu, FkBleu, BleuSariAmean, BleuSariGmean, Fkgl)
REFERENCE_FILES = {
    "asset": [f"asset/asset.test.simp.{i}" for i in range(10)],
    "turk": [f"turkcorpus/test.truecase.detok.simp.{i}" for i in range(8)],
    "hsplit": [f"hsplit/hsplit.tok.{i}" for i in range(1, 5)],
}
REFERENCE_FILES["all"] = REFERENCE_FILES["asset"] + REFERENCE_FILES["turk"] + REFERENCE_FILES["hsplit"]


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").rstrip("\n").split("\n")


@lru_cache(maxsize=1)
def _load(data_dir: Path) -> tuple[list[dict[str, str]], dict[tuple[str, str, str], dict[str, str]]]:
    with open(data_dir / "metaeval" / "simplicity_DA.csv", encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    with open(data_dir / "metaeval" / "metrics_simplicity_DA.csv", encoding="utf-8", newline="") as handle:
        published = {(r["sent_id"], r["sys_name"], r["test_set"]): r for r in csv.DictReader(handle)}
    return rows, published


def _inputs(data_dir: Path, test_set: str) -> tuple[list[str], list[str], list[list[str]]]:
    rows, _ = _load(data_dir)
    references = [_lines(data_dir / "references" / name) for name in REFERENCE_FILES[test_set]]
    lines = [int(row["sent_id"]) - 1 for row in rows]
    if test_set == "hsplit":
        hsplit_sources = _lines(data_dir / "references" / "hsplit" / "hsplit.tok.src")
        sources = [hsplit_sources[i] for i in lines]
    else:
        sources = [row["orig_sent"] for row in rows]
    outputs = [row["simp_sent"] for row in rows]
    return sources, outputs, [[ref[i] for ref in references] for i in lines]


def _published(data_dir: Path, test_set: str, column: str) -> list[float]:
    rows, published = _load(data_dir)
    return [float(published[(r["sent_id"], r["sys_name"], test_set)][column]) for r in rows]


def _max_difference(ours: list[float], theirs: list[float]) -> float:
    assert len(ours) == len(theirs) == 600
    return max(abs(a - b) for a, b in zip(ours, theirs))


def test_sources_are_lines_of_the_asset_test_set(data_dir: Path) -> None:
    rows, _ = _load(data_dir)
    orig = _lines(data_dir / "references" / "asset" / "asset.test.orig")
    assert len(rows) == 600
    assert all(orig[int(row["sent_id"]) - 1] == row["orig_sent"] for row in rows)


@pytest.mark.parametrize("test_set", ["asset", "turk", "all", "hsplit"])
@pytest.mark.slow
def test_metric_classes_match_published_scores(data_dir: Path, test_set: str) -> None:
    sources, outputs, references = _inputs(data_dir, test_set)
    differences = {}
    for cls in METRICS:
        scores = cls(**load_registry(autoload=False).presets[PRESET].settings[cls.name]).sentence_scores(
            sources, outputs, references)
        for sub_score, values in scores.items():
            published = _published(data_dir, test_set, COLUMNS[sub_score])
            differences[sub_score] = _max_difference(values, published)
    assert set(differences) == set(COLUMNS)
    assert max(differences.values()) <= TOLERANCE, differences


def test_runner_matches_published_scores(data_dir: Path) -> None:
    from simpeval.runner import evaluate, resolve_metrics

    sources, outputs, references = _inputs(data_dir, "asset")
    names = ["bleu", "sari", "ibleu", "fkgl", "fkbleu"]
    requests = resolve_metrics(load_registry(autoload=False), names, preset=PRESET)
    result = evaluate(requests, sources, outputs, references, sentence_level=True, cache=None)
    for sub_score in ("bleu", "sari", "sari-add", "sari-keep", "sari-del", "ibleu", "fkgl", "fkbleu"):
        published = _published(data_dir, "asset", COLUMNS[sub_score])
        assert _max_difference(result.sentence_scores[sub_score], published) <= TOLERANCE, sub_score
    assert result.signatures["bleu"].startswith(
        "bleu|nrefs:10|formula:1|lang:en|tok:moses|lc:no|smooth:floor|smooth_value:0.0|eff:yes"
    )
