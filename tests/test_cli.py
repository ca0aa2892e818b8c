"""The command line as a user meets it: outputs, formats, and one-line errors with exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from simpeval.cli import cli

ORIG = "The cat sat on the mat .\nIt was a sunny day in the old town .\n"
SYS = "The cat sat .\nIt was sunny .\n"
REF = "The cat sat on the mat .\nIt was a sunny day .\n"


@pytest.fixture
def files(tmp_path):
    paths = {}
    for name, text in {"orig": ORIG, "sys": SYS, "ref": REF}.items():
        paths[name] = tmp_path / f"{name}.txt"
        paths[name].write_text(text, encoding="utf-8")
    return paths


def run(*args, input=None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input)


def test_version():
    result = run("--version")
    assert result.exit_code == 0 and result.output.startswith("simpeval, version ")


def test_corpus_scores_as_json_carry_signatures(files):
    result = run("evaluate", "--orig", files["orig"], "--sys", files["sys"], "--refs", files["ref"],
                 "-m", "bleu,fkgl", "--format", "json")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert set(payload["corpus"]) == {"bleu", "fkgl"}
    assert payload["signatures"]["bleu"].startswith("bleu|nrefs:1|")
    assert payload["n"] == 2


def test_sentence_level_csv_has_index_and_sub_score_columns(files):
    result = run("evaluate", "--orig", files["orig"], "--sys", files["sys"], "--refs", files["ref"],
                 "-m", "sari", "--sentence-level", "--format", "csv")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "index,sari,sari-add,sari-keep,sari-del"
    assert [line.split(",")[0] for line in lines[1:]] == ["0", "1"]


def test_system_outputs_from_standard_input(files):
    from_file = run("evaluate", "--orig", files["orig"], "--sys", files["sys"], "-m", "fkgl", "--format", "json")
    from_stdin = run("evaluate", "--orig", files["orig"], "-m", "fkgl", "--format", "json", input=SYS)
    assert json.loads(from_stdin.output)["corpus"] == json.loads(from_file.output)["corpus"]


def test_empty_lines_are_items_with_a_defined_score(files, tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("\nIt was sunny .\n")
    result = run("evaluate", "--orig", files["orig"], "--sys", empty, "--refs", files["ref"], "-m", "bleu,sari,fkgl",
                 "--sentence-level", "--format", "json")
    assert result.exit_code == 0, result.output
    sentences = json.loads(result.output)["sentences"]
    assert sentences["bleu"][0] == 0.0
    assert all(len(v) == 2 and v[0] == v[0] for v in sentences.values())  # one number per line, never NaN



def test_a_score_without_a_value_is_noted_with_how_many_and_the_first_line(tmp_path):
    orig, output = tmp_path / "orig.txt", tmp_path / "sys.txt"
    orig.write_text("Ein kurzer Satz hier .\n\nNoch einer .\n", encoding="utf-8")
    output.write_text("Kurz .\n\nEiner .\n", encoding="utf-8")  # line 2 has no words: no reading ease
    for shown in ("csv", "table"):  # csv rows are streamed out, not kept: counted as they go
        result = run("evaluate", "--orig", orig, "--sys", output, "-m", "fre,lix", "--lang", "de", "--sentence-level",
                     "--format", shown, "--batch-size", "1")
        assert result.exit_code == 0, result.output
        for name in ("fre", "lix"):
            assert f"# note: {name} has no value (nan) on 1 of 3 items (the first at index 1), e.g. a text without " \
                   "words" in result.stderr.splitlines()
    fine = run("evaluate", "--orig", orig, "--sys", orig, "-m", "fkgl", "--sentence-level", "--format", "csv")
    assert "no value" not in fine.stderr

def test_output_file_is_written(files, tmp_path):
    out = tmp_path / "scores.csv"
    result = run("evaluate", "--orig", files["orig"], "--sys", files["sys"], "-m", "fkgl", "--format", "csv", "-o", out)
    assert result.exit_code == 0
    assert out.read_text().splitlines()[0] == "metric,score,signature"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


@pytest.mark.parametrize(
    "args, message",
    [
        (["--refs", "{short}"], "--refs {short} has 1 lines but --orig {orig} has 2: every file needs one line per item"),
        (["--refs", "{missing}"], "cannot read --refs {missing}: No such file or directory; check the path"),
        (["--refs", "{latin}"], "--refs {latin} is not UTF-8 (byte 0xe9 at offset 3): convert it, e.g. iconv -f latin1 -t utf-8"),
        (["-m", "blue"], 'unknown metric "blue": did you mean bleu'),
        (["-m", "bleu:smoothing=exp", "--refs", "{ref}"], 'metric "bleu" has no option "smoothing"'),
        (["-m", "sari"], 'metric "sari" needs references: pass --refs FILE (one or more)'),
    ],
)
def test_bad_input_is_one_line_with_exit_status_2(files, tmp_path, args, message):
    (tmp_path / "short.txt").write_text("one line\n")
    (tmp_path / "latin.txt").write_bytes("caf\xe9\nb\n".encode("latin1"))
    names = {"short": tmp_path / "short.txt", "missing": tmp_path / "missing.txt",
             "latin": tmp_path / "latin.txt", "ref": files["ref"], "orig": files["orig"]}
    args = [a.format(**names) for a in args]
    result = run("evaluate", "--orig", files["orig"], "--sys", files["sys"], *args)
    assert result.exit_code == 2
    error_lines = result.output.strip().splitlines()
    assert len(error_lines) == 1 and error_lines[0].startswith("Error: " + message.format(**names))


def test_metrics_list_imports_no_heavy_library():
    code = ("import sys; from simpeval.cli import cli\n"
            "try:\n    cli(['metrics', 'list'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in ('torch', 'transformers', 'spacy', 'bert_score') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip().splitlines()[-1] == "[]"
    assert "bleu" in done.stdout and "sari" in done.stdout


def test_metrics_list_says_what_each_metric_needs():
    rows = {r["name"]: r for r in json.loads(run("metrics", "list", "--format", "json").output)["metrics"]}
    assert (rows["bertscore"]["neural"], rows["bertscore"]["refs"]) == ("yes", "yes")
    assert (rows["fkgl"]["neural"], rows["fkgl"]["refs"], rows["fkgl"]["provided by"]) == ("no", "no", "simpeval 0.1.0")
    assert rows["sari"]["sub-scores"] == "sari-add sari-keep sari-del"


@pytest.mark.parametrize(
    "args, message",
    [
        (["evaluate", "--orig", "x", "--format", "nope"],
         "Error: Invalid value for '--format': 'nope' is not one of 'table', 'markdown', 'latex', 'csv', 'json'. "
         "(see `simpeval evaluate --help`)"),
        (["evaluat"], "Error: No such command 'evaluat'. (Did you mean one of: 'evaluate', 'meta-evaluate'?) "
                      "(see `simpeval --help`)"),
    ],
)
def test_click_usage_errors_are_one_line_too(args, message):
    done = subprocess.run([sys.executable, "-m", "simpeval", *args], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [message] and done.stdout == ""


def test_an_empty_input_file_is_an_error_not_a_crash(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    result = run("evaluate", "--orig", empty, "--sys", empty, "-m", "length,ibleu", "--refs", empty)
    assert result.exit_code == 2
    assert result.output.strip() == f"Error: --orig {empty} has no lines: give one line per item to score"


def test_undefined_scores_are_null_in_json(files, tmp_path):
    orig = tmp_path / "orig.txt"
    orig.write_text("\nThe cat sat on the mat .\n")
    result = run("evaluate", "--orig", orig, "--sys", files["sys"], "-m", "length-token-ratio", "--sentence-level",
                 "--format", "json")
    payload = json.loads(result.output)  # strict JSON: no bare NaN
    assert payload["sentences"]["length-token-ratio"][0] is None
    assert payload["sentences"]["length-token-ratio"][1] == pytest.approx(4 / 7)
