"""The one judge of learned metrics (simpeval.learning.verdict), its record, and the scripts that call it.

The expected values are computed by hand in the comments: labels y = 1, 2, 3, 4 (dy = -1.5, -0.5, 0.5, 1.5,
|dy|^2 = 5).
"""

import ast
import json
import math
from pathlib import Path

import pytest

from simpeval.learning.verdict import Row, judge, judge_scores, strongest

ROOT = Path(__file__).resolve().parents[1]
Y = [1.0, 2.0, 3.0, 4.0]
METRIC = [1.0, 2.0, 4.0, 3.0]  # dx = -1.5, -0.5, 1.5, 0.5: dx.dy = 4, |dx|^2 = 5, r = 0.8
BASELINES = {"down": [4.0, 3.0, 2.0, 1.0],  # r = -1: the strongest, in its flipped orientation
             "steps": [1.0, 1.0, 2.0, 2.0]}  # dx = -.5, -.5, .5, .5: dx.dy = 2, |dx|^2 = 1, r = 2 / sqrt(5) = .894
WEAK = [2.0, 1.0, 2.0, 3.0]  # dx = 0, -1, 0, 1: dx.dy = 2, |dx|^2 = 2, r = 2 / sqrt(10) = 0.632


def test_a_row_is_the_metric_r_in_its_direction_beside_the_strongest_baseline_in_its_best_orientation():
    (row,) = judge_scores(METRIC, Y, BASELINES, dataset="d", aspect="simplicity", score="m")
    assert row.r == pytest.approx(0.8) and row.n == 4
    assert (row.baseline, row.baseline_r, row.baseline_sign) == ("down", pytest.approx(1.0), -1)
    assert row.baselines_compared == 2 and row.verdict == "loss" and row.margin == pytest.approx(-0.2)
    (win,) = judge_scores(METRIC, Y, {"weak": WEAK}, dataset="d", aspect="simplicity", score="m")
    assert win.verdict == "win" and win.margin == pytest.approx(0.8 - 2 / math.sqrt(10))
    (close,) = judge_scores(METRIC, Y, {"steps": BASELINES["steps"]}, dataset="d", aspect="simplicity", score="m")
    assert close.verdict == "loss" and close.margin == pytest.approx(0.8 - 2 / math.sqrt(5))


def test_a_metric_pointing_the_wrong_way_loses_by_its_full_size():
    flipped = [-v for v in METRIC]  # raw r = -0.8
    (lower,) = judge_scores(flipped, Y, {"weak": WEAK}, dataset="d", aspect="a", score="m", higher_is_better=False)
    assert lower.r == pytest.approx(0.8) and lower.verdict == "win"  # lower is better: oriented +0.8
    (wrong,) = judge_scores(flipped, Y, {"weak": WEAK}, dataset="d", aspect="a", score="m")
    assert wrong.r == pytest.approx(-0.8) and wrong.verdict == "loss"  # |r| would have won
    assert wrong.margin == pytest.approx(-0.8 - 2 / math.sqrt(10))


def test_a_contaminated_row_is_never_a_win_and_its_unseen_items_are_judged_again():
    rows = judge_scores(METRIC, Y, BASELINES, dataset="d", aspect="a", score="m", seen=[True, False, False, False])
    assert [(r.items, r.n, r.shared, r.verdict) for r in rows] == [("all", 4, 1, "contaminated"),
                                                                  ("unseen", 3, 0, "loss")]
    # unseen: x = 2, 4, 3 and y = 2, 3, 4: dx.dy = 1, |dx|^2 = |dy|^2 = 2, r = 0.5; "down" r = -1 there
    assert rows[1].r == pytest.approx(0.5) and rows[1].baseline == "down" and rows[1].margin == pytest.approx(-0.5)
    assert Row.from_json(json.loads(json.dumps(rows[0].to_json()))) == Row.from_json(rows[0].to_json())
    assert rows[0].to_json()["verdict"] == "contaminated"


def test_undefined_items_and_baselines_are_left_out():
    (row,) = judge_scores([*METRIC, float("nan")], [*Y, 5.0], {"steps": [*BASELINES["steps"], 9.0],
                                                               "flat": [1.0] * 5}, dataset="d", aspect="a", score="m")
    assert row.n == 4 and row.r == pytest.approx(0.8) and row.baseline == "steps"  # item 5 left out everywhere
    assert row.baselines_compared == 1  # a constant baseline has no r
    assert strongest({}) == ("none", pytest.approx(float("nan"), nan_ok=True))
    assert judge(0.3, 10, {}, dataset="d", aspect="a", score="m").verdict == "undefined"


def test_the_record_renders_the_card_and_metrics_show(tmp_path):
    import simpeval
    from simpeval.learning.record import card_markdown, load_record, show_lines, update_record

    class Learned(simpeval.Metric):
        """A learned toy metric."""

        name = "toy-learned"
        requires_references = False
        trained_on = ("simpeval-past",)
        model_card = str(tmp_path / "MODEL_CARD.md")

    rows = judge_scores(METRIC, Y, BASELINES, dataset="simplicity-da", aspect="simplicity", score="toy-learned",
                        seen=[True, False, False, False])
    update_record(Learned, "heldout", rows, "benchmarks/x.py", ["a note"])
    record = load_record(Learned)
    assert (tmp_path / "toy-learned.judged.json").is_file() and record["trained_on"] == ["simpeval-past"]
    assert [r["verdict"] for r in record["sections"]["heldout"]["rows"]] == ["contaminated", "loss"]
    shown = "\n".join(show_lines(Learned))
    assert "simplicity-da / simplicity (toy-learned, 4 items): r +0.800; strongest baseline -down (of 2) +1.000: " \
           "contaminated (1 items shared with its training data: not a test result)" in shown
    assert "(toy-learned, 3 unseen items): r +0.500; strongest baseline -down (of 2) +1.000: loss (-0.500)" in shown
    assert "1 loss, 1 contaminated" in shown and "note: a note" in shown
    card = card_markdown(Learned, record, "None.")
    assert card.startswith("---\ntitle: toy-learned\n") and "trained_on: [simpeval-past]" in card
    for heading in ("## Inputs", "## Outputs", "## Training data", "## Values from papers", "## Limitations"):
        assert heading in card
    assert "| simplicity-da | simplicity | toy-learned | 3 unseen | +0.500 | -down (of 2) | +1.000 | loss (-0.500) |" \
        in card


JUDGING_SCRIPTS = ("learned_heldout.py", "lens_loo.py", "trainer_loo.py", "simpq_train.py", "simpq_finetune.py",
                   "simpq_encoders.py", "cefr_lr_train.py")


@pytest.mark.parametrize("script", JUDGING_SCRIPTS)
def test_every_judging_script_calls_the_judge_and_compares_nothing_itself(script):
    source = (ROOT / "benchmarks" / script).read_text(encoding="utf-8")
    imported = {node.module for node in ast.walk(ast.parse(source)) if isinstance(node, ast.ImportFrom)}
    assert imported & {"simpeval.learning.verdict", "simpeval.learning.record", "simpeval.learning.report",
                       "simpeval.learning.heldout"}, f"{script} does not call the judge"
    for own_rule in ("abs(fold.r)", "abs(r) >=", "best_baseline[1]) -", "beats_baselines else"):
        assert own_rule not in source, f"{script} compares with a baseline itself: {own_rule}"


def test_every_shipped_learned_metric_has_a_record_with_held_out_rows():
    from simpeval.learning.record import load_record
    from simpeval.registry import load_registry

    registry = load_registry()
    for name in ("lens-mini", "lens-cla-mini", "siera", "sle", "sle-delta", "simpq", "cefr-lr"):
        record = load_record(registry.metric_class(name))
        assert record is not None, name
        rows = [Row.from_json(r) for r in record["sections"]["heldout"]["rows"]]
        assert rows and all(r.dataset not in record["trained_on"] for r in rows)
        for row in rows:  # stored verdicts are the judge's
            assert record["sections"]["heldout"]["rows"][rows.index(row)]["verdict"] == row.verdict
    lens = load_record(registry.metric_class("lens-mini"))["sections"]["heldout"]["rows"]
    da = [r for r in lens if r["dataset"] == "simplicity-da"]
    assert [(r["items"], r["shared"], r["verdict"]) for r in da][0] == ("all", 140, "contaminated")
    assert da[1]["items"] == "unseen" and da[1]["n"] == 460


def test_metrics_show_prints_every_held_out_row_with_contaminated_cells_marked():
    from click.testing import CliRunner

    from simpeval.cli import cli

    lens = CliRunner().invoke(cli, ["metrics", "show", "lens-mini"])
    assert lens.exit_code == 0, lens.output
    assert "simplicity-da / simplicity (lens-mini, 600 items)" in lens.output
    assert "contaminated (140 items shared with its training data: not a test result)" in lens.output
    assert "simplicity-da / simplicity (lens-mini, 460 unseen items)" in lens.output
    assert "simpeval-2022 / simplicity (lens-mini, 360 items)" in lens.output and "never saw" not in lens.output
    for name in ("sle", "sle-delta"):
        shown = CliRunner().invoke(cli, ["metrics", "show", name]).output
        assert f"structural-simplicity / simplicity ({name}, " in shown and "strongest baseline" in shown
    sledoc = CliRunner().invoke(cli, ["metrics", "show", "sledoc"])
    assert sledoc.exit_code == 0 and "no rated dataset gives the per-item target reading level" in sledoc.output
    assert "document MAE" in sledoc.output


def test_the_encoders_page_rejudged_takes_the_judges_baseline_and_keeps_the_runs_r():
    from simpeval.testing import load_script

    encoders = load_script(ROOT / "benchmarks" / "simpq_encoders.py")
    page = ("Written by x; do not edit by hand.\n\n| aspect | left out | base r | best baseline |\n|---|---|---|---|\n"
            "| meaning | simplicity-da | +0.660 | compression +0.476 |\n| kept | | ridge | |\n")
    rejudged = encoders.rejudged_page(page, {("meaning", "simplicity-da"): ("qe-levenshtein", 0.6471)})
    assert "| aspect | left out | base r | strongest baseline abs(r) |" in rejudged
    assert "| meaning | simplicity-da | +0.660 | qe-levenshtein 0.647 |" in rejudged
    assert "| kept | | ridge | |" in rejudged and "--rejudge" in rejudged
    assert encoders.rejudged_page(rejudged, {}) == rejudged  # the note once


def test_the_encoders_page_shows_the_baselines_simpqs_record_was_judged_against():
    """docs/reproduced/simpq-encoders.md judges the same left-out folds (items, labels) as simpq's trainer record:
    the strongest baseline of each row is the record's (it showed simpq's own compression and SARI before)."""
    from simpeval.learning.record import load_record
    from simpeval.registry import load_registry

    record = load_record(load_registry().metric_class("simpq"))
    expected = {(r["aspect"], r["dataset"]): f"{r['baseline']} {r['baseline_r']:.3f}"
                for r in record["sections"]["trainer"]["rows"]}
    text = (ROOT / "docs" / "reproduced" / "simpq-encoders.md").read_text(encoding="utf-8")
    shown = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and (cells[0], cells[1]) in expected:
            shown[cells[0], cells[1]] = cells[-1]
    assert shown == expected


def _shown(row: Row) -> str:
    """A row as ``simpeval metrics show`` prints it, from the record's rendering (:func:`row_cells`)."""
    from simpeval.learning.record import row_cells

    r, baseline, value, verdict = row_cells(row)
    items = f"{row.n} unseen" if row.items == "unseen" else str(row.n)
    return (f"  {row.dataset} / {row.aspect} ({row.score}, {items} items): r {r}; strongest baseline {baseline} {value}: "
            f"{verdict}")


def test_cefr_lr_record_card_and_metrics_show_agree():
    """cefr-lr goes through the one judge: its record holds each ReadMe++ language held out (trainer) and the
    shipped model on TextComplexityDE's three aspects (heldout), none sharing an item key with the training data;
    ``metrics show cefr-lr``, its card and its model card show exactly the record's rows."""
    from click.testing import CliRunner

    from simpeval.cli import cli
    from simpeval.learning.record import load_record, rows_of, table_lines
    from simpeval.registry import load_registry

    cls = load_registry().metric_class("cefr-lr")
    record = load_record(cls)
    assert record is not None and record["trained_on"] == list(cls.trained_on)
    trainer, heldout = rows_of(record, "trainer"), rows_of(record, "heldout")
    assert [r.dataset for r in trainer] == [f"readmepp-{lang}" for lang in ("ar", "en", "fr", "hi", "ru")]
    assert [(r.dataset, r.aspect) for r in heldout] == [("textcomplexityde", a) for a in
                                                        ("complexity", "understandability", "lexical-difficulty")]
    assert all(r.shared == 0 and r.items == "all" and r.baselines_compared > 0 for r in trainer + heldout)
    for section in ("trainer", "heldout"):  # stored verdicts are the judge's
        assert [r["verdict"] for r in record["sections"][section]["rows"]] == [r.verdict for r in rows_of(record, section)]
    shown = CliRunner().invoke(cli, ["metrics", "show", "cefr-lr"])
    assert shown.exit_code == 0, shown.output
    lines = [line.strip() for line in shown.output.splitlines()]
    for row in trainer + heldout:
        assert _shown(row).strip() in lines, _shown(row)
    assert "never saw" not in shown.output
    card = (ROOT / "docs" / "plugins" / "cards" / "cefr-lr.md").read_text(encoding="utf-8")
    model_card = Path(cls.model_card).read_text(encoding="utf-8")
    for rows in (trainer, heldout):
        assert "\n".join(table_lines(rows)) in card and "\n".join(table_lines(rows)) in model_card


def test_no_title_calls_a_table_with_contaminated_cells_data_never_seen():
    """"never saw" only for cells with no item-key overlap: no heading of a docs page or model card says it (the
    learned-heldout page and simpq's card did, over contaminated rows), and the learned-heldout page's table is
    the judged records' rows."""
    from simpeval.testing import load_script

    pages = [*(ROOT / "docs").rglob("*.md"), *(ROOT / "plugins").rglob("MODEL_CARD.md")]
    titles = [f"{page.relative_to(ROOT)}: {line}" for page in pages
              for line in page.read_text(encoding="utf-8").splitlines() if line.startswith("#") and "never saw" in line]
    assert titles == []
    heldout = load_script(ROOT / "benchmarks" / "learned_heldout.py")
    from simpeval.learning.record import table_lines
    from simpeval.registry import load_registry

    page = (ROOT / "docs" / "reproduced" / "learned-heldout.md").read_text(encoding="utf-8")
    assert page.startswith(heldout.TITLE + "\n")
    for name, row in heldout.page_rows_from_records(load_registry()):
        assert f"| {name} " + table_lines([row])[2] in page
    assert "contaminated (" in page


def test_learned_heldout_page_cards_and_metrics_show_agree_and_judge_beside_todays_baselines():
    """The held-out rows of lens-mini, simpq, sle and siera: ``metrics show NAME``, the card and the learned-heldout
    page show the record's rows, and the page names as baselines exactly the registry's baseline metrics now
    (:func:`simpeval.learning.baselines.baseline_metrics`: a metric registered since needs
    ``learned_heldout.py --rejudge``, which recomputes the baselines and keeps each learned r); sledoc's shows its
    document MAE."""
    import re

    from click.testing import CliRunner

    from simpeval.cli import cli
    from simpeval.learning.baselines import baseline_metrics
    from simpeval.learning.record import load_record, rows_of, table_lines
    from simpeval.registry import load_registry

    registry = load_registry()
    page = (ROOT / "docs" / "reproduced" / "learned-heldout.md").read_text(encoding="utf-8")
    listed = re.search(r"strongest of (\d+) non-learned registry metrics \(([^)]*)\)", page)
    assert listed.group(2).split(", ") == sorted(baseline_metrics(registry)) and "until `--rejudge`" not in page
    assert int(listed.group(1)) == len(baseline_metrics(registry))
    for name in ("lens-mini", "simpq", "sle", "siera"):
        rows = rows_of(load_record(registry.metric_class(name)), "heldout")
        shown = CliRunner().invoke(cli, ["metrics", "show", name])
        assert shown.exit_code == 0, shown.output
        lines = [line.strip() for line in shown.output.splitlines()]
        card = (ROOT / "docs" / "plugins" / "cards" / f"{name}.md").read_text(encoding="utf-8")
        assert "\n".join(table_lines(rows)) in card
        for row in rows:
            assert _shown(row).strip() in lines, _shown(row)
            assert f"| {name} " + table_lines([row])[2] in page
    sledoc = CliRunner().invoke(cli, ["metrics", "show", "sledoc"])
    assert sledoc.exit_code == 0 and "document MAE" in sledoc.output
