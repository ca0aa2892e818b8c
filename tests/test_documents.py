"""Document inputs: directories of .txt files and .jsonl files, paired by id, through the runner and the CLI."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from click.testing import CliRunner

import simpeval
from simpeval.cli import cli
from simpeval.documents import pair_documents, read_documents
from simpeval.errors import UsageError
from simpeval.metrics.fkgl import Fkgl
from simpeval.runner import MetricRequest, evaluate

ORIG = {
    "b": "The committee postponed its deliberations indefinitely. Nobody objected.",
    "a": "Researchers discovered an extraordinarily complicated mechanism.",
}
SIMPLE = {
    "a": "Scientists found a hard process.",
    "b": "The group stopped talking. No one said no.",
}


def write_dir(path, docs, encoding="utf-8"):
    path.mkdir()
    for doc_id, text in docs.items():
        (path / f"{doc_id}.txt").write_bytes(text.encode(encoding))
    return path


def write_jsonl(path, docs, targets=None):
    lines = [json.dumps({"id": i, "text": t, **({"target": targets[i]} if targets else {})}) for i, t in docs.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_a_directory_is_read_in_file_name_order_without_bom(tmp_path):
    directory = write_dir(tmp_path / "orig", {"b": "\ufeffSecond.\r\nLine.", "a": "First."})
    (directory / "notes.md").write_text("not a document")
    docs = read_documents(str(directory), "--orig")
    assert docs.ids == ["a", "b"]
    assert docs.texts == ["First.", "Second.\nLine."]
    assert docs.targets == {}


def test_jsonl_keeps_its_order_and_targets(tmp_path):
    path = write_jsonl(tmp_path / "sys.jsonl", SIMPLE, {"a": 1, "b": 2.5})
    docs = read_documents(str(path), "--sys")
    assert docs.ids == ["a", "b"]
    assert docs.targets == {"a": 1.0, "b": 2.5}
    assert docs.ordered(["b", "a"]) == [SIMPLE["b"], SIMPLE["a"]]


@pytest.mark.parametrize("content, message", [
    ('{"id": "a", "text": "x"}\nnot json\n', "line 2 is not JSON"),
    ('["a", "x"]\n', "line 1 is not a JSON object"),
    ('{"id": 3, "text": "x"}\n', 'needs a string "id"'),
    ('{"id": "a", "text": "x"}\n{"id": "a", "text": "y"}\n', "repeats the id 'a'"),
    ('{"id": "a", "text": "x", "target": "high"}\n', '"target": \'high\''),
    ("\n\n", "has no document"),
])
def test_bad_jsonl_names_the_line_and_the_fix(tmp_path, content, message):
    path = tmp_path / "docs.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(UsageError, match=message):
        read_documents(str(path), "--sys")


def test_pairing_names_missing_and_extra_documents(tmp_path):
    orig = read_documents(str(write_dir(tmp_path / "orig", ORIG)), "--orig")
    short = read_documents(str(write_jsonl(tmp_path / "short.jsonl", {"a": "x"})), "--sys")
    extra = read_documents(str(write_jsonl(tmp_path / "extra.jsonl", {**SIMPLE, "c": "z"})), "--sys")
    assert pair_documents([("--orig", orig), ("--sys", extra.__class__(["b", "a"], ["y", "x"]))]) == ["a", "b"]
    with pytest.raises(UsageError, match=r"--sys lacks documents 'b' that --orig has"):
        pair_documents([("--orig", orig), ("--sys", short)])
    with pytest.raises(UsageError, match=r"--sys has documents 'c' that --orig lacks"):
        pair_documents([("--orig", orig), ("--sys", extra)])


class _TargetEcho(simpeval.Metric):
    """Returns each item's target plus its output length, to show fields reach the metric batch by batch."""

    name = "target-echo"
    item_fields = ("target",)

    def _score_items(self, sources, outputs, references=None, target=None):
        return {self.name: [t + len(o) for t, o in zip(target, outputs)]}


def test_runner_slices_item_fields_with_the_batches():
    targets = [1.0, 2.0, 3.0]
    result = evaluate([MetricRequest(_TargetEcho(), ["target-echo"])], ["s"] * 3, ["a", "bb", "ccc"],
                      batch_size=2, fields={"target": targets, "unused": [0, 0, 0]})
    assert result.sentence_scores["target-echo"] == [2.0, 4.0, 6.0]
    assert result.corpus_scores["target-echo"] == 4.0


def test_a_sentence_metric_scores_each_document_as_one_text():
    result = evaluate([MetricRequest(Fkgl(), ["fkgl"])], list(ORIG.values()), list(ORIG.values()))
    by_document = [Fkgl().grades([text])[0] for text in ORIG.values()]
    assert result.sentence_scores["fkgl"] == by_document


def test_cli_scores_documents_keyed_by_id(tmp_path):
    orig = write_dir(tmp_path / "orig", ORIG)
    system = write_jsonl(tmp_path / "sys.jsonl", {"b": SIMPLE["b"], "a": SIMPLE["a"]})
    result = run("evaluate", "--orig", orig, "--sys", system, "-m", "fkgl,bleu-source",
                 "--sentence-level", "--format", "csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [r["id"] for r in rows] == ["a", "b"]
    expected = Fkgl().grades([SIMPLE["a"], SIMPLE["b"]])
    assert [float(r["fkgl"]) for r in rows] == pytest.approx(expected)
    assert "bleu-source is a sentence-level metric: each document is scored as one text" in result.stderr
    assert "fkgl is a sentence-level" not in result.stderr


def test_cli_json_lists_document_ids(tmp_path):
    orig = write_jsonl(tmp_path / "orig.jsonl", ORIG)
    refs = write_dir(tmp_path / "refs", SIMPLE)
    result = run("evaluate", "--orig", orig, "--sys", refs, "--refs", refs, "-m", "bleu",
                 "--sentence-level", "--format", "json")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["ids"] == ["b", "a"]
    assert payload["sentences"]["bleu"] == pytest.approx([100.0, 100.0])


@pytest.mark.parametrize("make_sys, message", [
    (lambda d: write_dir(d / "sys", {"a": "x"}), "--sys .*sys lacks documents 'b'"),
    (lambda d: write_dir(d / "sys", {**SIMPLE, "zz": "x"}), "--sys .*sys has documents 'zz'"),
    (lambda d: (d / "sys.txt").write_text("x\ny\n") and d / "sys.txt", "--sys .*sys.txt is a line file"),
    (lambda d: write_dir(d / "sys", {"a": "x", "b": "\xe9"}, encoding="latin-1"), "is not UTF-8"),
])
def test_cli_pairing_errors_are_one_line(tmp_path, make_sys, message):
    orig = write_dir(tmp_path / "orig", ORIG)
    result = run("evaluate", "--orig", orig, "--sys", make_sys(tmp_path), "-m", "fkgl")
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ")
    assert re.search(message, lines[0]), lines[0]


def test_documents_are_scored_one_system_at_a_time(tmp_path):
    orig = write_dir(tmp_path / "orig", ORIG)
    result = run("evaluate", "--orig", orig, "--sys", orig, "--sys", orig, "-m", "fkgl")
    assert result.exit_code == 2
    assert result.output.strip() == "Error: documents are scored one system at a time: give one --sys per run"
