"""The leaderboard's training marks follow the data: a learned metric is marked on every dataset that
shares items with its training data (WIKI-DA's items are all Simplicity-DA's); which metrics are on the
board by default; a changed metric recomputes its own scorings only."""

from __future__ import annotations

import pytest

from simpeval.cache import ScoreCache
from simpeval.cli.leaderboard import default_metrics
from simpeval.leaderboard import render
from simpeval.leaderboard.overlap import Items, measure, overlaps, training_items
from simpeval.leaderboard.run import Cell, Entry, Plan, run_leaderboard
from simpeval.metrics.fkgl import Fkgl
from simpeval.registry import load_registry


@pytest.fixture()
def registry():
    return load_registry()


def test_overlap_counts_shared_pairs_after_normalising_whitespace():
    seen = Items.of(["A cat sat .", "B dog", "C"], ["cat sat", "dog ran", "C"])
    items = Items.of(["A  cat sat .", "B dog", "B dog", "D"], [" cat\tsat ", "dog", "dog ran", "C"])
    overlap = measure("col", items, "train", seen)
    # item 0 is a training pair up to whitespace, item 2 too; item 1 has a seen source but a new output
    assert (overlap.shared, overlap.items, overlap.shared_sources, overlap.sources) == (2, 4, 2, 3)
    assert overlap.describe() == "col: 2/4 items also in train (2/3 of its sources)"
    assert measure("col", items, "other", Items.of(["D"], ["D"])).shared == 0


def test_an_item_is_the_same_whether_tokenised_detokenised_or_truecased_otherwise():
    from simpeval.itemkeys import digest, pair_keys

    # as SimpEval_past and Simplicity-DA store one output
    assert digest("A matchbook is a small cardboard folder ( matchcover ) .") == \
        digest("A matchbook is a small cardboard folder (matchcover).")
    assert digest("The itch of Itch and pain") == digest("the itch of itch and pain")
    assert digest('known as " Prussia proper".') == digest('known as "Prussia proper".')
    assert digest("The cat sat.") != digest("The cat sat down.") and digest("a", "b") != digest("ab")
    assert pair_keys(["S"], ["o ."]) == (digest("s", "O."),)


def test_wiki_da_items_are_all_simplicity_da_items(registry, data_dir):
    wiki = registry.dataset_class("wiki-da")(data_dir)
    columns = {"wiki-da": Items.of(wiki.sources, wiki.outputs)}
    found, unchecked = overlaps(registry, data_dir, columns, ["simplicity-da", "asset-valid", "onestopenglish"])
    assert [o.describe() for o in found] == ["wiki-da: 434/434 items also in simplicity-da (220/220 of its sources)"]
    assert unchecked == ["onestopenglish"]  # a corpus, not a rated dataset or a test set
    assert len(training_items(registry, data_dir, "asset_valid").pairs) == 20000  # 2,000 sources x 10 references
    past = registry.dataset_class("simpeval-past")(data_dir)
    da = training_items(registry, data_dir, "simplicity-da")
    # 84 by whitespace alone: SimpEval_past stores some of the same outputs tokenised or truecased otherwise
    assert measure("simpeval-past", Items.of(past.sources, past.outputs), "simplicity-da", da).shared == 181


def test_a_metric_trained_on_simplicity_da_is_marked_on_wiki_da(registry, data_dir, monkeypatch):
    monkeypatch.setattr(Fkgl, "trained_on", ("simplicity-da",), raising=False)
    plan = Plan(data_dir, ["bleu", "fkgl"], ["simpeval-2022", "wiki-da"], bootstrap=100)
    board = run_leaderboard(registry, plan)
    marks = {(c.dataset, c.aspect): e.seen_in for c in board.cells for e in c.entries if e.metric == "fkgl"}
    assert marks == {("simpeval-2022", "simplicity"): [], ("wiki-da", "simplicity"): ["simplicity-da"],
                     ("wiki-da", "meaning"): ["simplicity-da"], ("wiki-da", "fluency"): ["simplicity-da"]}
    assert render.mean_ranks(board.cells)["fkgl"][1] == 1  # only simpeval-2022 counts
    page = render.render_markdown(board, plan)
    assert "wiki-da: 434/434 items also in simplicity-da (220/220 of its sources)" in page
    assert "- fkgl: trained on simplicity-da; marked † on wiki-da" in page
    assert "learned fkgl: 1 dataset-aspects outside its training data" in page and "3 marked †" in page
    rows = [line.split("|")[2:-2] for line in page.splitlines() if line.startswith("| fkgl |")][:3]
    # simplicity: simpeval-2022 then wiki-da; meaning and fluency: wiki-da only
    assert [[cell.strip().endswith("†") for cell in row] for row in rows] == [[False, True], [True], [True]]


def _entry(metric, r, rank, trained=False):
    return Entry(metric, metric, r, r - 0.1, r + 0.1, rank, 100, trained, ["train"] if trained else [])


def test_the_headline_names_a_trained_metric_that_would_have_won_without_counting_it():
    cells = [Cell("d", "simplicity", 100, None, "all", [_entry("learned", 0.9, 1, trained=True),
                                                      _entry("fkgl", -0.5, 2), _entry("bleu", 0.3, 3)]),
             Cell("e", "simplicity", 100, None, "all", [_entry("learned", 0.6, 1), _entry("fkgl", 0.2, 2),
                                                      _entry("bleu", 0.1, 2)])]
    lines = render.headline(cells, {"learned": ("train",)})
    assert lines[0] == ("- d / simplicity: fkgl (fkgl, r = -0.500); learned† reaches r = 0.900 but saw these items "
                        "in training (train)")
    assert lines[1] == "- e / simplicity: learned (learned, r = 0.600)"
    # fkgl is in d's first cluster outside training data
    assert lines[2] == "- in the first significance cluster: fkgl 1/2, learned 1/2"
    assert lines[3] == ("- learned learned: 1 dataset-aspects outside its training data, first cluster on 1, mean best "
                        "rank 1.0, highest |r| 0.600 (learned on e / simplicity); 1 marked †")


def test_default_metrics_keep_learned_ones_and_say_why_others_are_left_out(registry):
    names, left_out = default_metrics(registry)
    for learned in ("siera", "siera-fwd", "siera-bwd", "lens-mini", "lens-cla-mini", "sle", "sle-delta",
                    "simpq-simplicity", "simpq-meaning", "simpq-fluency"):
        assert learned in names
    assert "lens-cla" not in names and "sledoc" not in names and "sledoc-level" not in names
    reasons = {line.split(":", 1)[0]: line for line in left_out}
    assert reasons["lens-cla"].startswith("lens-cla: deprecated name (") and "lens-cla-mini" in reasons["lens-cla"]
    assert reasons["sledoc"] == "sledoc: needs per-item target beside the texts, which no rated dataset has"
    assert reasons["bertscore"].startswith("bertscore: weights not installed (roberta-large)")
    assert {"lens", "lens-salsa", "summac-zs", "summac-conv"} <= set(reasons)
    assert all("\n" not in line for line in left_out)


def test_a_changed_metric_recomputes_its_scorings_and_reads_the_others(registry, data_dir, tmp_path, monkeypatch):
    cache = ScoreCache(tmp_path)
    plan = Plan(data_dir, ["bleu", "fkgl"], ["wiki-da"], bootstrap=100)
    first = run_leaderboard(registry, plan, cache)
    assert [s.status for s in first.work.scorings] == ["computed", "computed"]
    monkeypatch.setattr(Fkgl, "formula_version", "changed", raising=False)  # as new weights or code would
    again = run_leaderboard(registry, plan, cache)
    assert (again.work.cells_computed, again.work.cells_cached) == (3, 0)
    status = {s.metric: s for s in again.work.scorings}
    assert status["fkgl"].status == "computed" and status["bleu"].status == "cached"
    assert status["bleu"].first["seconds"] >= 0 and "UTC" in status["bleu"].first["date"]
    lines = render.work_lines(again.work)
    assert lines[0] == ("This run: 3 cells (dataset x aspect) computed, 0 read from the score cache; 2 metric x "
                        "dataset scorings: 1 computed, 0 resumed, 1 cached.")
    assert any(line.startswith("- bleu: 1 datasets, 434 items; read from the cache, computed earlier in ")
               for line in lines)


def test_each_metric_scores_each_dataset_once(registry, data_dir, tmp_path, monkeypatch):
    """The cells read back what the per-metric scorings computed, reference-free metrics included
    (their cache keys hold the references the cells pass beside a reference-based metric)."""
    calls = []
    score = Fkgl._score_items

    def counted(self, sources, outputs, references=None, **fields):
        calls.append(len(outputs))
        return score(self, sources, outputs, references, **fields)

    monkeypatch.setattr(Fkgl, "_score_items", counted)
    board = run_leaderboard(registry, Plan(data_dir, ["bleu", "fkgl"], ["wiki-da"], bootstrap=100),
                            ScoreCache(tmp_path))
    assert calls == [434] and board.work.cells_computed == 3  # one batch, scored once for three cells


def test_a_mean_rank_over_fewer_cells_never_heads_the_table():
    """lens-mini ranks 1st on the one dataset outside its training data; bleu ranks 2nd and 3rd on
    both: bleu comes first, and lens-mini's mean shows over how many cells it was taken."""
    assert render.rank_order({"lens-mini": (1.0, 1), "bleu": (2.5, 2), "fkgl": (3.0, 2)}) == ["bleu", "fkgl", "lens-mini"]
    cells = [Cell("a", "simplicity", 10, None, "all",
                  [Entry("bleu", "bleu", 0.5, 0.4, 0.6, 2, 10), Entry("lens-mini", "lens-mini", 0.6, 0.5, 0.7, 1, 10)]),
             Cell("b", "simplicity", 10, None, "all",
                  [Entry("bleu", "bleu", 0.5, 0.4, 0.6, 3, 10),
                   Entry("lens-mini", "lens-mini", 0.9, 0.8, 1.0, 1, 10, trained_on=True)])]
    columns, rows = render.aspect_tables(cells)["simplicity"]
    assert [(row[0], row[-1]) for row in rows] == [("bleu", "2.50"), ("lens-mini", "1.00 (1 of 2)")]
