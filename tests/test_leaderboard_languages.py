"""``simpeval leaderboard --level languages``: the rated data in other languages and the rated single texts,
on their own board (the English sentence board unchanged), scored on ReadMe++'s test split, with the metrics
that cannot score a dataset named once per reason."""

from __future__ import annotations

import pytest

from simpeval.leaderboard import render
from simpeval.leaderboard.run import Plan, board_datasets, run_leaderboard
from simpeval.registry import load_registry


def test_the_languages_board_holds_the_other_languages_and_single_texts():
    registry = load_registry()
    languages = board_datasets(registry, "languages")
    assert {"deplain-ratings", "textcomplexityde", "textcomplexityde-pairs", "readmepp-en", "readmepp-fr"} <= set(
        languages)
    sentence = board_datasets(registry, "sentence")
    assert "simplicity-da" in sentence and not set(languages) & set(sentence)
    assert not set(languages) & set(board_datasets(registry, "document"))


def test_readmepp_fr_cell_on_its_test_split(data_dir):
    registry = load_registry()
    plan = Plan(data_dir, ["lix", "rix", "qe-deletions", "sari"], ["readmepp-fr"], bootstrap=100, level="languages")
    board = run_leaderboard(registry, plan)
    (cell,) = board.cells
    assert (cell.dataset, cell.aspect, cell.items, cell.split) == ("readmepp-fr", "cefr", 185, "test")
    entries = {e.metric: e for e in cell.entries}
    assert set(entries) == {"lix", "rix"}
    assert entries["lix"].r == pytest.approx(0.653, abs=0.0005) and entries["lix"].rank == 1
    assert entries["lix"].ci_low < entries["lix"].r < entries["lix"].ci_high
    page = render.render_markdown(board, plan)
    assert page.startswith("# Leaderboard in other languages")
    assert "- readmepp-fr / cefr: lix (lix, r = 0.653)" in page
    assert "- left out of readmepp-fr: qe-deletions (compares an output with its source" in page
    assert "- left out of readmepp-fr: sari (needs references" in page
    assert "lix|formula:1|lang:de" not in page and "`lix: lix|formula:1|lang:en|" in page
