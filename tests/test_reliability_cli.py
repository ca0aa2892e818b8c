"""Reliability pass (issue 18): hostile or degenerate inputs get an honest answer or one line."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from simpeval.cli import cli


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture
def three_items(tmp_path):
    (tmp_path / "orig.txt").write_text("the cat sat on the mat .\nit was a sunny day .\nhe walked home slowly .\n")
    (tmp_path / "a.txt").write_text("the cat sat .\nit was sunny .\nhe walked home .\n")
    (tmp_path / "b.txt").write_text("the cat sat on the mat .\nit was a sunny day .\nhe walked home slowly .\n")
    return tmp_path


def test_evaluate_claims_no_significance_on_three_items(three_items):
    result = run("evaluate", "--orig", three_items / "orig.txt", "--sys", three_items / "a.txt",
                 "--sys", three_items / "b.txt", "-m", "fkgl,length", "--paired-bs", "--format", "json")
    assert result.exit_code == 0, result.output
    tested = [r for r in json.loads(result.stdout)["results"] if not r["baseline"]]
    assert tested and all(r["p_value"] is None and r["significant"] is False for r in tested)
    table = run("evaluate", "--orig", three_items / "orig.txt", "--sys", three_items / "a.txt",
                "--sys", three_items / "b.txt", "-m", "fkgl", "--paired-ar")
    assert "p=nan" in table.stdout and "*" not in table.stdout.split("\n", 2)[2]
    assert "# note: 3 items are too few for a paired test (at least 6): p = nan, no claim of significance" \
        in table.stderr


def test_report_claims_no_significance_on_one_item(tmp_path):
    (tmp_path / "orig.txt").write_text("the cat sat on the mat .\n")
    (tmp_path / "a.txt").write_text("the cat sat .\n")
    (tmp_path / "b.txt").write_text("a cat .\n")
    result = run("report", "--orig", tmp_path / "orig.txt", "--sys", tmp_path / "a.txt", "--sys", tmp_path / "b.txt",
                 "-m", "fkgl", "--format", "markdown")
    assert result.exit_code == 0, result.output
    assert "p = n/a (fewer than 6 items)" in result.stdout
    assert "p = 0.0010" not in result.stdout


def test_report_reads_jsonl_documents_as_documents(tmp_path):
    rows = {"orig": ["The committee postponed the decision. It met again later.", "Residents objected strongly."],
            "a": ["The group waited. It met later.", "People objected."]}
    for name, texts in rows.items():
        with (tmp_path / f"{name}.jsonl").open("w") as handle:
            for i, text in reversed(list(enumerate(texts))):  # another order than --orig's: paired by id
                handle.write(json.dumps({"id": f"d{i}", "text": text}) + "\n")
    result = run("report", "--orig", tmp_path / "orig.jsonl", "--sys", tmp_path / "a.jsonl", "-m", "fkgl",
                 "--format", "markdown")
    assert result.exit_code == 0, result.output
    assert '"id"' not in result.stdout and '{"' not in result.stdout  # no raw JSON scored or shown
    scored = run("evaluate", "--orig", tmp_path / "orig.jsonl", "--sys", tmp_path / "a.jsonl", "-m", "fkgl",
                 "--format", "json")
    fkgl = json.loads(scored.stdout)["corpus"]["fkgl"]
    assert f"{fkgl:.2f}" in result.stdout


def test_meta_evaluate_a_metric_whose_name_is_none_of_its_scores(data_dir):
    """``qe`` names no score of its own: it stands for its sub-scores (it was ``KeyError: 'qe'``)."""
    from simpeval.metrics.qe import QualityEstimation

    result = run("meta-evaluate", "--dataset", "simplicity-da", "--data-dir", data_dir, "-m", "qe", "--split", "none",
                 "--format", "json", "--no-cache")
    assert result.exit_code == 0, result.output
    records = json.loads(result.stdout)
    assert [r["metric"] for r in records] == list(QualityEstimation.score_names())
    assert all(r["n"] == 600 and -1 <= r["r"] <= 1 for r in records)
