"""``simpeval leaderboard``: cells equal meta-evaluate's, training data is marked, missing data listed,
cells resume from the cache, declared test splits are honoured."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from simpeval.cache import ScoreCache
from simpeval.cli import cli
from simpeval.datasets.metaeval import SimplicityDA
from simpeval.leaderboard import render
from simpeval.leaderboard.run import Plan, run_leaderboard
from simpeval.metrics.fkgl import Fkgl
from simpeval.registry import load_registry

METRICS = ["bleu", "fkgl"]


@pytest.fixture()
def registry():
    return load_registry()


def _plan(data_dir, **kw):
    return Plan(data_dir, kw.pop("metrics", METRICS), kw.pop("datasets", ["simplicity-da"]), bootstrap=200, **kw)


def test_cells_equal_meta_evaluate(registry, data_dir):
    board = run_leaderboard(registry, _plan(data_dir))
    cells, missing = board.cells, board.missing
    assert missing == [] and [c.aspect for c in cells] == ["simplicity", "meaning", "fluency"]
    result = CliRunner().invoke(cli, ["meta-evaluate", "--dataset", "simplicity-da", "--data-dir", str(data_dir),
                                      "-m", "bleu,fkgl", "--split", "none", "--aspect", "meaning", "--rank",
                                      "--format", "json"])
    assert result.exit_code == 0, result.output
    expected = {r["metric"]: r for r in json.loads(result.stdout)}
    meaning = cells[1]
    for entry in meaning.entries:
        assert entry.r == pytest.approx(expected[entry.metric]["r"], abs=1e-12)
        assert entry.rank == expected[entry.metric]["rank"]
        assert entry.ci_low < entry.r < entry.ci_high
    assert [e.family for e in meaning.entries] == ["bleu", "fkgl"]


def test_training_data_is_marked_and_left_out_of_the_mean_rank(registry, data_dir, monkeypatch):
    monkeypatch.setattr(Fkgl, "trained_on", ("simplicity-da",), raising=False)
    board = run_leaderboard(registry, _plan(data_dir))
    fkgl = [e for c in board.cells for e in c.entries if e.metric == "fkgl"]
    assert fkgl and all(e.trained_on and e.seen_in == ["simplicity-da"] for e in fkgl)
    assert "fkgl" not in render.mean_ranks(board.cells)
    page = render.render_markdown(board, _plan(data_dir))
    assert "†" in page and "| fkgl |" in page
    assert "- fkgl: trained on simplicity-da; marked † on simplicity-da" in page


def test_missing_datasets_say_where_to_get_them(registry, tmp_path):
    board = run_leaderboard(registry, _plan(tmp_path, datasets=["simplicity-da"]))
    missing = board.missing
    assert board.cells == [] and missing[0].dataset == "simplicity-da" and "missing data file" in missing[0].reason
    page = render.render_markdown(board, _plan(tmp_path))
    assert "simplicity-da: missing." in page


def test_cells_resume_from_the_cache(registry, data_dir, tmp_path, monkeypatch):
    cache = ScoreCache(tmp_path / "cache")
    first = run_leaderboard(registry, _plan(data_dir), cache)
    assert (first.work.cells_computed, first.work.cells_cached) == (3, 0)
    assert [(s.metric, s.status, s.items) for s in first.work.scorings] == [("bleu", "computed", 600),
                                                                            ("fkgl", "computed", 600)]

    def refuse(*args, **kwargs):
        raise AssertionError("a cached cell was computed again")

    monkeypatch.setattr("simpeval.metaeval.run.run_meta_evaluation", refuse)
    again = run_leaderboard(registry, _plan(data_dir), cache)
    assert again.cells == first.cells
    assert (again.work.cells_computed, again.work.cells_cached) == (0, 3)
    # nothing scored, but each scoring's cost when it was computed is shown
    assert [(s.metric, s.status, s.seconds, s.first["seconds"]) for s in again.work.scorings] == [
        ("bleu", "cached", 0.0, round(first.work.scorings[0].seconds, 1)),
        ("fkgl", "cached", 0.0, round(first.work.scorings[1].seconds, 1))]


def test_the_leaderboards_entries_are_the_cache_modules(registry, data_dir, tmp_path):
    """simpeval.cache says what a leaderboard entry is (its key and its check), as for every score: the keys
    are those the leaderboard composed itself before (kept caches stay valid), and a cell that is no cell
    under its key is refused and computed again."""
    import hashlib
    import json
    from pathlib import Path

    from simpeval.cache import cell_key, check_cell, scoring_record_key
    from simpeval.leaderboard import run as board_run

    assert "hashlib" not in Path(board_run.__file__).read_text(encoding="utf-8")
    parts = {"v": "2", "metrics": ["b", "a"], "dataset": "d", "seed": 0, "data": "/x"}
    assert cell_key(**parts) == hashlib.sha256(json.dumps({"kind": "leaderboard-cell", **parts},
                                                          sort_keys=True).encode()).hexdigest()
    assert scoring_record_key("bleu|k", "d", "/x") == hashlib.sha256(
        json.dumps(["leaderboard-scoring", "bleu|k", "d", "/x"]).encode()).hexdigest()
    assert check_cell({"entries": []}) is None and check_cell({"entries": 3}) and check_cell([1])
    cache = ScoreCache(tmp_path / "cache", warn=lambda message: None)
    first = run_leaderboard(registry, _plan(data_dir, metrics=["fkgl"]), cache)
    keys = [path.stem for path in (tmp_path / "cache").rglob("*.json")]
    cells = [k for k in keys if check_cell(cache.get(k)) is None and isinstance(cache.get(k), dict)
             and "aspect" in cache.get(k)]
    assert len(cells) == 3
    cache.put(cells[0], {"not": "a cell"})
    again = run_leaderboard(registry, _plan(data_dir, metrics=["fkgl"]), cache)
    assert (again.work.cells_computed, again.work.cells_cached) == (1, 2) and again.cells == first.cells


def test_cells_are_recomputed_when_their_statistics_code_or_ratings_change(registry, data_dir, tmp_path, monkeypatch):
    """A cell is computed from scores by the meta-evaluation code, which stays out of the metrics'
    code hash: its own key must hold that code and the human scores, or a fix there (or corrected
    ratings) would be served the old correlations."""
    cache = ScoreCache(tmp_path / "cache")
    run_leaderboard(registry, _plan(data_dir), cache)
    monkeypatch.setattr("simpeval.codehash.parts_hash", lambda package, parts: "edited-statistics-code")
    edited_code = run_leaderboard(registry, _plan(data_dir), cache)
    assert (edited_code.work.cells_computed, edited_code.work.cells_cached) == (3, 0)
    assert [s.status for s in edited_code.work.scorings] == ["cached", "cached"]  # the scores are reused
    human_scores = SimplicityDA.human_scores
    monkeypatch.setattr(SimplicityDA, "human_scores",
                        lambda self, aspect, raw=False: human_scores(self, aspect, raw)[::-1].copy()
                        if aspect == "fluency" else human_scores(self, aspect, raw))
    new_ratings = run_leaderboard(registry, _plan(data_dir), cache)
    assert (new_ratings.work.cells_computed, new_ratings.work.cells_cached) == (1, 2)


def test_parts_hash_follows_the_files_of_the_parts_only(tmp_path, monkeypatch):
    import sys
    import types

    from simpeval import codehash

    package = tmp_path / "simpeval"
    for relative in ("metaeval/stats.py", "ranks.py", "cli/leaderboard.py"):
        (package / relative).parent.mkdir(parents=True, exist_ok=True)
        (package / relative).write_text("A = 1\n", encoding="utf-8")
    monkeypatch.setitem(sys.modules, "simpeval", types.SimpleNamespace(__path__=[str(package)]))
    monkeypatch.setattr(codehash, "_PACKAGES", {})
    before = codehash.parts_hash("simpeval", ("metaeval", "ranks.py"))
    (package / "cli/leaderboard.py").write_text("A = 2\n", encoding="utf-8")
    monkeypatch.setattr(codehash, "_PACKAGES", {})
    assert codehash.parts_hash("simpeval", ("metaeval", "ranks.py")) == before
    (package / "metaeval/stats.py").write_text("A = 2\n", encoding="utf-8")
    monkeypatch.setattr(codehash, "_PACKAGES", {})
    assert codehash.parts_hash("simpeval", ("metaeval", "ranks.py")) != before


class SplitSimplicityDA(SimplicityDA):
    """Simplicity-DA with every third item declared a test item (a dataset plugin's split)."""

    name = "split-simplicity-da"

    def item_splits(self):
        return ["test" if i % 3 == 0 else "train" for i in range(len(self.items))]


def test_test_split_keeps_only_test_items(registry, data_dir):
    registry.datasets["split-simplicity-da"] = SplitSimplicityDA
    cells = run_leaderboard(registry, _plan(data_dir, datasets=["split-simplicity-da"], split="test")).cells
    assert cells[0].split == "test"
    assert {e.n for e in cells[0].entries} == {200}  # 600 items, every third
    dataset = SplitSimplicityDA(data_dir)
    human = dataset.human_scores("simplicity")
    from simpeval.metaeval.compute import compute_scores

    bleu = compute_scores(registry, dataset, ["bleu"], references=dataset.default_references).scores["bleu"]
    keep = np.arange(600) % 3 == 0
    expected = np.corrcoef(bleu[keep], human[keep])[0, 1]
    assert cells[0].entries[0].r == pytest.approx(expected, abs=1e-9)


def test_command_formats_and_bad_input(data_dir, tmp_path):
    base = ["leaderboard", "--data-dir", str(data_dir), "-m", "bleu,fkgl", "--dataset", "simplicity-da",
            "--bootstrap", "100", "--cache-dir", str(tmp_path / "c")]
    md = CliRunner().invoke(cli, [*base, "--record-run"])
    assert md.exit_code == 0, md.output
    assert "## simplicity" in md.stdout and "## Headline" in md.stdout
    assert "Computed by `simpeval leaderboard`" in md.stdout
    data = json.loads(CliRunner().invoke(cli, [*base, "--format", "json"]).stdout)
    assert [c["aspect"] for c in data["cells"]] == ["simplicity", "meaning", "fluency"]
    html = CliRunner().invoke(cli, [*base, "--format", "html", "-o", str(tmp_path / "lb.html")])
    assert html.exit_code == 0 and "data:image/svg+xml;base64," in (tmp_path / "lb.html").read_text()
    bad = CliRunner().invoke(cli, ["leaderboard", "--dataset", "nope"])
    assert bad.exit_code == 2 and "nope" in bad.output and "Traceback" not in bad.output
