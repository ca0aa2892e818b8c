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


@pytest.fixture
def hostile_documents(tmp_path):
    ids = ["\\input{|id}", "a|b\nc", "=HYPERLINK(1)", "-2+3"]
    for name in ("orig", "sys"):
        with (tmp_path / f"{name}.jsonl").open("w") as handle:
            for i, doc_id in enumerate(ids):
                handle.write(json.dumps({"id": doc_id, "text": f"the cat sat on mat {i} ."}) + "\n")
    return tmp_path


def test_latex_escapes_backslashes_and_braces_from_ids(hostile_documents):
    result = run("evaluate", "--orig", hostile_documents / "orig.jsonl", "--sys", hostile_documents / "sys.jsonl",
                 "-m", "fkgl", "--sentence-level", "--format", "latex")
    assert result.exit_code == 0, result.output
    assert r"\input{" not in result.stdout
    assert r"\textbackslash{}input\{|id\} &" in result.stdout
    assert "a|b c &" in result.stdout  # the line break inside the id does not end the row


def test_markdown_rows_survive_pipes_and_newlines_in_ids(hostile_documents):
    result = run("evaluate", "--orig", hostile_documents / "orig.jsonl", "--sys", hostile_documents / "sys.jsonl",
                 "-m", "fkgl", "--sentence-level", "--format", "markdown")
    lines = result.stdout.splitlines()
    assert len(lines) == 2 + 4 and all(line.count(" | ") == 1 for line in lines[2:])
    assert lines[3].startswith(r"| a\|b c | ")


def test_csv_text_cells_are_not_formulas_but_numbers_stay_numbers(hostile_documents):
    result = run("evaluate", "--orig", hostile_documents / "orig.jsonl", "--sys", hostile_documents / "sys.jsonl",
                 "-m", "fkgl", "--sentence-level", "--format", "csv")
    import csv
    import io

    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert [row[0] for row in rows[1:]] == ["\\input{|id}", "a|b\nc", "'=HYPERLINK(1)", "'-2+3"]
    assert all(float(row[1]) == float(row[1]) for row in rows[1:])  # scores stay plain numbers
    assert not any(row[1].startswith("'") for row in rows[1:])


def test_report_markdown_escapes_html_in_system_names(tmp_path):
    (tmp_path / "orig.txt").write_text("the cat sat on the mat .\n")
    hostile = tmp_path / "<img src=x onerror=alert(1)>.txt"
    hostile.write_text("the cat sat .\n")
    result = run("report", "--orig", tmp_path / "orig.txt", "--sys", hostile, "-m", "fkgl", "--format", "markdown")
    assert result.exit_code == 0, result.output
    import re

    assert not re.search(r"(?<!\\)<img", result.stdout)  # every "<" escaped, in the table and the samples
    assert r"\<img src=x onerror=alert(1)\>.txt" in result.stdout


@pytest.mark.parametrize("command", [["evaluate"], ["report", "--format", "markdown"]])
def test_a_negative_seed_is_one_line(three_items, command):
    result = run(*command, "--orig", three_items / "orig.txt", "--sys", three_items / "a.txt",
                 "--sys", three_items / "b.txt", "-m", "fkgl", "--paired-bs", "--seed", "-1")
    assert result.exit_code == 2
    assert "Invalid value for '--seed': -1 is not in the range x>=0." in result.output
    assert "Traceback" not in result.output


def test_mathtext_in_a_system_file_name_is_drawn_as_written(tmp_path):
    (tmp_path / "orig.txt").write_text("the cat sat on the mat .\nit was a sunny day .\n")
    hostile = tmp_path / "$\\frac{1}{$.txt"  # mathtext that does not even parse
    hostile.write_text("the cat sat .\nit was sunny .\n")
    result = run("report", "--orig", tmp_path / "orig.txt", "--sys", hostile, "-m", "fkgl",
                 "-o", tmp_path / "report.html")
    assert result.exit_code == 0, result.output
    html = (tmp_path / "report.html").read_text()
    assert "\\frac" in html  # the name is in the page as text


def test_a_blocked_pickle_never_advises_weights_only_false(tmp_path):
    import pickle
    from fractions import Fraction

    import torch

    from simpeval import models
    from simpeval.errors import UsageError

    path = tmp_path / "weights.pt"  # any object besides tensors (a Fraction here) is refused by weights_only=True
    torch.save({"layer": torch.zeros(2), "extra": Fraction(1, 3)}, path, pickle_module=pickle)
    with pytest.raises(UsageError) as caught:
        models.load_torch_state(path)
    message = str(caught.value)
    assert "weights_only" not in message and "which simpeval never unpickles" in message
    assert caught.value.__cause__ is None and caught.value.__suppress_context__
