"""No silent wrong answers: every ambiguous or impossible request is one line, exit status 2, nothing written."""

from __future__ import annotations

import csv
import json
import math
import os
import shutil
import stat

import numpy as np
import pytest
from click.testing import CliRunner

from simpeval.cli import cli
from simpeval.jsontext import dumps

ORIG = "The cat sat on the mat .\nIt was a sunny day in the old town .\n"
SYS = "The cat sat .\nIt was sunny .\n"


@pytest.fixture
def files(tmp_path):
    (tmp_path / "orig.txt").write_text(ORIG)
    (tmp_path / "sys.txt").write_text(SYS)
    return tmp_path


def run(*args, input=None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input, prog_name="simpeval")


def evaluate(files, *args):
    return run("evaluate", "--orig", files / "orig.txt", "--sys", files / "sys.txt", *args)


def one_line_error(result) -> str:
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    return lines[0]


@pytest.mark.parametrize("args, flag", [
    (["--format", "csv", "--format", "json"], "--format"),
    (["--preset", "metaeval-2021", "--preset", "metaeval-2021"], "--preset"),
    (["--batch-size", "4", "--batch-size", "8"], "--batch-size"),
    (["--progress", "--no-progress"], "--progress"),
])
def test_a_single_valued_option_given_twice_is_an_error(files, args, flag):
    error = one_line_error(evaluate(files, "-m", "fkgl", *args))
    assert error == f"Error: {flag} is given more than once: give it once (see `simpeval evaluate --help`)"


def test_repeatable_options_still_repeat(files):
    result = evaluate(files, "-m", "fkgl", "-m", "length", "--format", "json")
    assert result.exit_code == 0, result.output
    assert set(json.loads(result.output)["corpus"]) >= {"fkgl"}


def test_a_metric_asked_for_twice_with_different_settings_names_both(files):
    (files / "ref.txt").write_text(ORIG)
    error = one_line_error(evaluate(files, "--refs", files / "ref.txt", "-m", "bleu", "-m", "bleu:tokenizer=none"))
    assert error == ('Error: metric "bleu" is asked for twice with different settings ("bleu" and '
                     '"bleu:tokenizer=none"): keep one, or run once per setting')
    sub_score = one_line_error(evaluate(files, "--refs", files / "ref.txt", "-m", "sari-add,sari:tokenizer=none"))
    assert '"sari-add" and "sari:tokenizer=none"' in sub_score


def test_the_same_metric_twice_with_the_same_settings_is_one_metric(files):
    (files / "ref.txt").write_text(ORIG)
    result = evaluate(files, "--refs", files / "ref.txt", "-m", "bleu:tokenizer=none", "-m", "bleu:tokenizer=none",
                      "--format", "json")
    assert result.exit_code == 0, result.output
    assert list(json.loads(result.output)["corpus"]) == ["bleu"]


@pytest.mark.parametrize("spec, message", [
    ("bleu:", '-m "bleu:" has nothing after ":": write -m bleu or -m bleu:OPTION=VALUE'),
    (":x", '-m ":x" names no metric before ":": write -m NAME:OPTION=VALUE'),
    ("bleu:=3", '"=3" of metric "bleu" names no option: write bleu:OPTION=3'),
    ("bleu:smooth_value=", 'option "smooth_value" of metric "bleu" has no value: write bleu:smooth_value=VALUE'),
    ("bleu:smooth=floor,smooth=exp", 'option "smooth" of metric "bleu" is given twice (floor and exp): keep one'),
    ("bleu:smooth_value=nan", 'option "smooth_value" expects a finite number, got \'nan\''),
    ("bleu:smooth_value=-inf", 'option "smooth_value" expects a finite number, got \'-inf\''),
])
def test_malformed_or_non_finite_metric_specs(files, spec, message):
    (files / "ref.txt").write_text(ORIG)
    assert one_line_error(evaluate(files, "--refs", files / "ref.txt", "-m", spec)) == f"Error: {message}"


@pytest.mark.parametrize("args", [
    ["metrics", "show", "bleu", "--preset", "nope"],
    ["evaluate", "--orig", "{orig}", "--sys", "{orig}", "-m", "fkgl", "--preset", "nope"],
    ["meta-evaluate", "--dataset", "simplicity-da", "--data-dir", "{dir}", "--preset", "nope"],
])
def test_unknown_presets_are_errors_in_every_command(files, args):
    args = [a.format(orig=files / "orig.txt", dir=files) for a in args]
    error = one_line_error(run(*args))
    assert error.startswith('Error: unknown preset "nope": known presets are ')
    assert "metaeval-2021" in error


def test_a_preset_the_metric_lacks_is_named_by_metrics_show():
    error = one_line_error(run("metrics", "show", "length", "--preset", "metaeval-2021"))
    assert error == 'Error: metric "length" has no preset "metaeval-2021" (its presets: none)'


def test_json_is_strict_rfc_8259():
    text = dumps({"nan": math.nan, "inf": [np.float64("inf"), -math.inf], "count": np.int64(3), "r": np.float32(0.5)})
    assert text == '{"nan": null, "inf": [null, null], "count": 3, "r": 0.5}'
    json.loads(text, parse_constant=lambda token: pytest.fail(f"non-standard token {token}"))


def test_meta_evaluation_tables_report_the_n_of_a_sparse_column(data_dir, tmp_path):
    rows = list(csv.DictReader((data_dir / "metaeval/simplicity_DA.csv").open(encoding="utf-8")))
    with (tmp_path / "scores.csv").open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["sent_id", "sys_name", "sparse"])
        writer.writerows([r["sent_id"], r["sys_name"], float(r["simplicity"]) * (i % 3)] for i, r in enumerate(rows[:21]))
    base = ["meta-evaluate", "--dataset", "simplicity-da", "--data-dir", data_dir, "--scores", tmp_path / "scores.csv",
            "-m", "fkgl", "--no-cache"]
    records = json.loads(run(*base, "--format", "json").stdout)
    n = {(r["metric"], r["split"]): r["n"] for r in records}
    r = {(r["metric"], r["split"]): r["r"] for r in records}
    assert n[("sparse", "All")] == 21 and n[("fkgl", "All")] == 600
    table = run(*base).stdout
    [sparse_row] = [line for line in table.splitlines() if line.startswith("sparse")]
    assert f"{r[('sparse', 'All')]:.3f} (n=21)" in sparse_row
    [fkgl_row] = [line for line in table.splitlines() if line.startswith("fkgl")]
    assert "(n=" not in fkgl_row and "All (N=600)" in table
    csv_rows = list(csv.DictReader(run(*base, "--format", "csv").stdout.splitlines()))
    by_metric = {row["metric"]: row for row in csv_rows}
    assert by_metric["sparse"]["n (All)"] == "21" and by_metric["fkgl"]["n (All)"] == "600"


def test_unwritable_output_fails_before_any_work(files, tmp_path):
    blocked = tmp_path / "orig.txt" / "scores.csv"  # its parent is a file
    error = one_line_error(evaluate(files, "-m", "fkgl", "-o", blocked))
    assert error == (f"Error: cannot write -o {blocked}: {tmp_path / 'orig.txt'} is not a writable directory; "
                     "pick another path")
    # meta-evaluate refuses before loading the dataset: a missing data directory is not reached
    meta = one_line_error(run("meta-evaluate", "--dataset", "nope", "--data-dir", tmp_path / "absent", "-o", blocked))
    assert meta.startswith(f"Error: cannot write -o {blocked}")
    directory = one_line_error(evaluate(files, "-m", "fkgl", "-o", tmp_path))
    assert directory.startswith("Error: Invalid value for '-o' / '--output'") and "is a directory" in directory


def test_output_keeps_the_mode_of_an_existing_file(files, tmp_path):
    out = tmp_path / "scores.csv"
    out.write_text("old\n")
    out.chmod(0o640)
    result = evaluate(files, "-m", "fkgl", "--format", "csv", "-o", out)
    assert result.exit_code == 0, result.output
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    assert out.read_text().startswith("metric,score,signature")


def test_output_through_a_symlink_writes_its_target(files, tmp_path):
    target = tmp_path / "real.csv"
    target.write_text("old\n")
    link = tmp_path / "link.csv"
    link.symlink_to(target)
    result = evaluate(files, "-m", "fkgl", "--format", "csv", "-o", link)
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text().startswith("metric,score,signature")
    dangling = tmp_path / "dangling.csv"
    dangling.symlink_to(tmp_path / "nowhere" / "x.csv")
    error = one_line_error(evaluate(files, "-m", "fkgl", "-o", dangling))
    assert error == f"Error: -o {dangling} is a symbolic link to nothing: remove it or pick another path"


def test_unreadable_or_non_utf8_data_files_are_one_line(tmp_path, data_dir):
    copy = tmp_path / "data"
    (copy / "metaeval").mkdir(parents=True)
    (copy / "metaeval" / "simplicity_DA.csv").write_bytes(b"sent_id,sys_name\n1,caf\xe9\n")
    shutil.copy(data_dir / "metaeval" / "simplicity_DA_ratings.csv", copy / "metaeval")
    error = one_line_error(run("meta-evaluate", "--dataset", "simplicity-da", "--data-dir", copy, "-m", "fkgl"))
    assert error.startswith(f"Error: {copy / 'metaeval' / 'simplicity_DA.csv'} is not a UTF-8 CSV file")
    refs = copy / "references" / "asset"
    refs.mkdir(parents=True)
    (refs / "asset.test.orig").write_bytes(b"caf\xe9\n")
    from simpeval.datasets.references import test_set_lines

    with pytest.raises(Exception) as raised:
        test_set_lines(copy)
    assert str(raised.value) == (f"data file {refs / 'asset.test.orig'} is not UTF-8 (byte 0xe9 at offset 3): "
                                 "replace it with the released file")
