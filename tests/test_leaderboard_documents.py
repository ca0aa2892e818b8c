"""``simpeval leaderboard --level document`` on the smallest data that still has every section: a few records
of dwiki-2025, cochrane-pairs and each perturbation set."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from simpeval.cli import cli
from simpeval.datasets.dwiki import FOLDER, PERTURBATION_FILES
from simpeval.testing import shared_data_dir


@pytest.fixture(scope="module")
def small_data(tmp_path_factory):
    shared = shared_data_dir("documents/dwiki-ratings")
    root = tmp_path_factory.mktemp("data")
    (root / FOLDER).mkdir(parents=True)
    for name, keep in (("dwiki_final.jsonl", 12), ("cochrance_lj.jsonl", 8)):
        lines = (shared / FOLDER / name).read_text(encoding="utf-8").splitlines()[:keep]
        (root / FOLDER / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    for path in PERTURBATION_FILES:
        lines = (shared / path).read_text(encoding="utf-8").splitlines()[:6]
        (root / path).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


def test_the_document_board_has_aspects_pairs_and_perturbations(small_data):
    result = CliRunner().invoke(cli, ["leaderboard", "--level", "document", "-m", "fkgl,d-sari", "--bootstrap", "40",
                                      "--data-dir", str(small_data), "--no-cache"])
    assert result.exit_code == 0, result.output
    page = result.stdout
    assert page.startswith("# Leaderboard for documents")
    for aspect in ("simplicity", "simplicity-word", "simplicity-sent", "meaning", "grammar"):
        assert f"## {aspect}\n" in page
    assert "dwiki-2025 (N=12)" in page
    assert "## cochrane-pairs: pairwise" in page
    assert "## Perturbations: which metric catches which error" in page
    table = page.split("## Perturbations")[1].split("\n## ")[0]
    assert "| metric | deletion | hallucination-in-document |" in table
    assert table.count("| fkgl |") == 1 and table.count("| d-sari |") == 1
    assert "- deletion: caught by" in table
    assert "- perturbations: the most caught" in page  # headline


def test_the_document_board_as_json(small_data):
    result = CliRunner().invoke(cli, ["leaderboard", "--level", "document", "-m", "fkgl", "--bootstrap", "0",
                                      "--format", "json", "--data-dir", str(small_data), "--no-cache"])
    assert result.exit_code == 0, result.output
    board = json.loads(result.stdout)
    assert {c["dataset"] for c in board["cells"]} == {"dwiki-2025"}
    assert [p["dataset"] for p in board["pairs"]] == ["cochrane-pairs"]
    assert len(board["perturbations"]) == 9 and all(p["n"] == 6 for p in board["perturbations"])


def test_document_metrics_are_the_document_boards(small_data):
    from simpeval.cli.leaderboard import default_metrics
    from simpeval.registry import load_registry

    registry = load_registry(autoload=False)
    sentence, left = default_metrics(registry, neural=False)
    assert "agg-sari" not in sentence and any(line.startswith("agg-sari: aggregates sari") for line in left)
    document, _ = default_metrics(registry, neural=False, level="document")
    assert {"d-sari", "agg-sari", "agg-bleu", "sari", "fkgl"} <= set(document)
