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


def test_the_html_page_gets_the_languages_section(data_dir):
    """docs/leaderboard.html carries the languages section docs/leaderboard.md has: benchmarks/leaderboard.py
    cuts the level's own HTML page to a section at the end of the main page's <main>, and a later
    sentence-level page keeps it (once)."""
    from pathlib import Path

    from simpeval.testing import load_script

    script = load_script(Path(__file__).resolve().parents[1] / "benchmarks" / "leaderboard.py")
    registry = load_registry()
    plan = Plan(data_dir, ["lix", "rix"], ["readmepp-fr"], bootstrap=100, level="languages")
    board = run_leaderboard(registry, plan)
    section = script.section_html(render.render_html(board, plan), "languages", ["Load average 1.0", "", "machine"])
    main_page = '<!DOCTYPE html>\n<html><body><main>\n<h1>Leaderboard</h1>\n<h2>simplicity</h2>\n</main></body></html>\n'
    page = script.with_html_sections(main_page, {"languages": section})
    start, end = script.SECTIONS["languages"]
    assert page.count(start) == page.count(end) == 1 and page.index(end) < page.index("</main>")
    within = page[page.index(start):page.index(end)]
    assert "<h1>Leaderboard in other languages" in within and "<h2>cefr</h2>" in within
    assert "<td>lix</td>" in within and "lix|formula:1|lang:en|" in within and "<p>Load average 1.0</p>" in within
    assert within.count("<main>") == 0 and page.count("</main>") == 1
    rerun = script.with_html_sections(main_page.replace("<h2>simplicity</h2>", "<h2>meaning</h2>"),
                                      {"languages": script.html_section(page, "languages")})
    assert rerun.count(start) == 1 and "<h2>meaning</h2>" in rerun and "<h2>cefr</h2>" in rerun
    assert script.with_html_sections(page, {}).count(start) == 0  # a section can be dropped as well
