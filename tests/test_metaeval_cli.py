"""``simpeval meta-evaluate`` and ``simpeval datasets`` as a user meets them: formats, plots, bad input."""

from __future__ import annotations

import csv
import json

import click
import pytest
from click.testing import CliRunner

from simpeval.cli import SimpevalGroup
from simpeval.cli.datasets import datasets
from simpeval.cli.meta_evaluate import meta_evaluate

PUBLISHED = "metaeval/metrics_simplicity_DA.csv"
COLUMNS = "bertscore-p,bleu,sari,fkgl"


@click.group(cls=SimpevalGroup)
def root() -> None:
    """The commands under test, behind the core's one-line error handling."""


root.add_command(meta_evaluate)
root.add_command(datasets)


def run(*args):
    return CliRunner().invoke(root, [str(a) for a in args])


def published(data_dir, *args):
    return run("meta-evaluate", "--dataset", "simplicity-da", "--data-dir", data_dir,
               "--scores", data_dir / PUBLISHED, "--score-columns", COLUMNS, *args)


def test_json_records(data_dir):
    result = published(data_dir, "--format", "json")
    assert result.exit_code == 0, result.output
    records = json.loads(result.stdout)
    assert len(records) == 4 * 3
    first = records[0]
    assert {"metric", "split", "n", "r", "p_value", "winner"} <= set(first)
    by_key = {(r["metric"], r["split"]): r for r in records}
    assert by_key[("bertscore-p", "All")]["r"] == pytest.approx(0.617, abs=0.0005)
    assert by_key[("bertscore-p", "All")]["winner"] and not by_key[("sari", "All")]["winner"]
    assert by_key[("fkgl", "High")]["r"] < 0  # r is signed
    assert by_key[("bleu", "Low")]["n"] == 300


def test_table_markdown_latex_csv(data_dir):
    table = published(data_dir)
    assert "Low (N=300)" in table.stdout and "0.617*" in table.stdout
    markdown = published(data_dir, "--format", "markdown")
    assert "| bertscore-p | **0.512** |" in markdown.stdout
    latex = published(data_dir, "--format", "latex")
    assert r"\textbf{0.617}" in latex.stdout
    rows = list(csv.reader(published(data_dir, "--format", "csv").stdout.splitlines()))
    assert rows[0] == ["metric", "Low (N=300)", "High (N=300)", "All (N=600)"]
    assert float(rows[1][3]) == pytest.approx(0.6168, abs=1e-3)


def test_system_level_and_system_type_split(data_dir):
    result = published(data_dir, "--level", "system", "--format", "json")
    assert result.exit_code == 0, result.output
    records = json.loads(result.stdout)
    assert {r["split"] for r in records} == {"All"} and records[0]["n"] == 6
    by_type = published(data_dir, "--split", "system-type", "--format", "json")
    splits = {r["split"]: r["n"] for r in json.loads(by_type.stdout)}
    assert splits == {"S2S": 300, "SBMT": 100, "PBMT": 100, "Sem+PBMT": 100, "All": 600}


def test_computed_metrics_with_preset_and_spearman(data_dir):
    result = run("meta-evaluate", "--dataset", "simplicity-da", "--data-dir", data_dir, "-m", "bleu,fkgl",
                 "--preset", "metaeval-2021", "--correlation", "spearman", "--resamples", "100", "--format", "json")
    assert result.exit_code == 0, result.output
    records = {(r["metric"], r["split"]): r for r in json.loads(result.stdout)}
    assert set(records) == {(m, s) for m in ("bleu", "fkgl") for s in ("Low", "High", "All")}
    assert records[("bleu", "All")]["signature"].startswith("bleu|nrefs:10")


def test_plots_are_written(data_dir, tmp_path):
    result = published(data_dir, "--plots", tmp_path / "plots")
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in (tmp_path / "plots").iterdir())
    assert "scatter-bertscore-p.png" in names and "significance-All.png" in names
    assert (tmp_path / "plots" / "scatter-bleu.png").read_bytes()[:4] == b"\x89PNG"


def test_unknown_dataset_is_one_line_exit_2(data_dir):
    result = run("meta-evaluate", "--dataset", "simplicity", "--data-dir", data_dir)
    assert result.exit_code == 2
    assert 'unknown dataset "simplicity"' in result.output and "Traceback" not in result.output


def _scores_file(tmp_path, header, rows):
    path = tmp_path / "scores.csv"
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)
    return path


def test_scores_without_key_columns(data_dir, tmp_path):
    path = _scores_file(tmp_path, ["id", "mine"], [[1, 0.5]])
    result = run("meta-evaluate", "--dataset", "simplicity-da", "--data-dir", data_dir, "--scores", path)
    assert result.exit_code == 2 and "lacks key column(s) sent_id, sys_name" in result.output


def test_scores_with_unmatched_items_and_nan(data_dir, tmp_path):
    rows = list(csv.DictReader((data_dir / "metaeval/simplicity_DA.csv").open(encoding="utf-8")))
    good = [[r["sent_id"], r["sys_name"], float(r["simplicity"]) + i % 7] for i, r in enumerate(rows[:500])]
    good[0][2] = "nan"
    path = _scores_file(tmp_path, ["sent_id", "sys_name", "mine"], good + [["999", "nobody", 1.0]])
    result = run("meta-evaluate", "--dataset", "simplicity-da", "--data-dir", data_dir, "--scores", path,
                 "--format", "json")
    assert result.exit_code == 0, result.output
    assert "matched 500 of 600 items" in result.stderr
    assert "1 missing or non-numeric" in result.stderr
    record = {r["split"]: r for r in json.loads(result.stdout)}["All"]
    assert record["n"] == 499
    nothing = _scores_file(tmp_path, ["sent_id", "sys_name", "mine"], [["999", "nobody", 1.0]])
    none = run("meta-evaluate", "--dataset", "simplicity-da", "--data-dir", data_dir, "--scores", nothing)
    assert none.exit_code == 2 and "none of its 1 rows matches" in none.output


def test_scores_infinite_all_nan_and_binary(data_dir, tmp_path):
    rows = list(csv.DictReader((data_dir / "metaeval/simplicity_DA.csv").open(encoding="utf-8")))
    keyed = [[r["sent_id"], r["sys_name"]] for r in rows]
    inf = _scores_file(tmp_path, ["sent_id", "sys_name", "mine"],
                       [[*k, "inf" if i < 3 else float(r["simplicity"])] for i, (k, r) in enumerate(zip(keyed, rows))])
    result = run("meta-evaluate", "--dataset", "simplicity-da", "--data-dir", data_dir, "--scores", inf,
                 "--format", "json")
    assert result.exit_code == 0, result.output
    assert "3 missing or non-numeric (or infinite)" in result.stderr
    assert {r["split"]: r for r in json.loads(result.stdout)}["All"]["n"] == 597
    empty = _scores_file(tmp_path, ["sent_id", "sys_name", "mine"], [[*k, "nan"] for k in keyed])
    result = run("meta-evaluate", "--dataset", "simplicity-da", "--data-dir", data_dir, "--scores", empty)
    assert result.exit_code == 2 and "column mine has no finite number" in result.output
    assert result.stdout == ""
    binary = tmp_path / "scores.bin"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    result = run("meta-evaluate", "--dataset", "simplicity-da", "--data-dir", data_dir, "--scores", binary)
    assert result.exit_code == 2 and "is not a UTF-8 CSV file" in result.output
    assert "Traceback" not in result.output


def test_bad_plots_dir_and_stray_score_columns_fail_before_any_output(data_dir, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    out = tmp_path / "report.json"
    result = published(data_dir, "--plots", blocker / "plots", "-o", out)
    assert result.exit_code == 2 and "cannot create --plots directory" in result.output
    assert "Traceback" not in result.output and not out.exists()
    stray = run("meta-evaluate", "--dataset", "simplicity-da", "--data-dir", data_dir, "-m", "fkgl",
                "--score-columns", "bleu")
    assert stray.exit_code == 2 and "--score-columns picks columns of --scores files" in stray.output


def test_scores_without_the_chosen_test_set_name_the_ones_they_have(data_dir):
    result = published(data_dir, "--references", "selected")
    assert result.exit_code == 2
    assert "has no rows with test_set=selected: pick --references among its test sets (asset, turk, hsplit, all)" \
        in result.output


def test_scores_columns_naming_the_same_metric_are_refused(data_dir, tmp_path):
    path = _scores_file(tmp_path, ["sent_id", "sys_name", "BLEU", "bleu"], [["1", "Hybrid", 1.0, 2.0]])
    result = run("meta-evaluate", "--dataset", "simplicity-da", "--data-dir", data_dir, "--scores", path)
    assert result.exit_code == 2 and "columns BLEU and bleu both name metric bleu" in result.output


def test_constant_metric_is_a_warning(data_dir, tmp_path):
    rows = list(csv.DictReader((data_dir / "metaeval/simplicity_DA.csv").open(encoding="utf-8")))
    path = _scores_file(tmp_path, ["sent_id", "sys_name", "flat", "mine"],
                        [[r["sent_id"], r["sys_name"], 1.0, r["fluency"]] for r in rows])
    result = run("meta-evaluate", "--dataset", "simplicity-da", "--data-dir", data_dir, "--scores", path)
    assert result.exit_code == 0, result.output
    assert "flat has no correlation on split All" in result.stderr
    assert "nan" in result.stdout


def test_datasets_list_and_agreement(data_dir):
    listing = run("datasets", "list")
    assert listing.exit_code == 0 and "structural-simplicity" in listing.output and "average" in listing.output
    result = run("datasets", "agreement", "structural-simplicity", "--data-dir", data_dir, "--repetitions", "50",
                 "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["icc"] == pytest.approx(0.465, abs=0.001)
    missing = run("datasets", "agreement", "simpeval-past", "--data-dir", data_dir, "--aspect", "meaning")
    assert missing.exit_code == 2 and "no per-rater ratings" in missing.output
    assert missing.output.strip().endswith("use --aspect simplicity")


def test_every_format_says_how_its_numbers_were_made(data_dir):
    args = ("meta-evaluate", "--dataset", "simplicity-da", "--data-dir", data_dir, "-m", "fkgl",
            "--scores", data_dir / PUBLISHED, "--score-columns", "bleu")
    from importlib.metadata import version

    settings = ("dataset=simplicity-da aspect=simplicity (z-scores) references=asset level=sentence "
                "correlation=pearson significance=williams alpha=0.05 "
                f"preset=none (today's EASSE defaults, sacrebleu {version('sacrebleu')})")
    fkgl = "fkgl: fkgl|formula:2|lang:en|tok:13a|lc:yes|clip:yes|version:0.1.0"
    bleu = "bleu: scores:metrics_simplicity_DA.csv"
    table = run(*args).stdout.splitlines()
    assert table[0] == f"# {settings}" and table[-3:-1] == [f"# {fkgl}", f"# {bleu}"]
    assert table[-1].startswith("# not the paper's settings: Table 3")  # see tests/test_reproduce.py
    markdown = run(*args, "--format", "markdown").stdout.splitlines()
    assert markdown[-2:] == [f"- `{fkgl}`", f"- `{bleu}`"] and f"Settings: `{settings}`." in markdown[-4]
    latex = run(*args, "--format", "latex").stdout.splitlines()
    assert latex[0] == f"% {settings}" and latex[-2:] == [f"% {fkgl}", f"% {bleu}"]
    csv_run = CliRunner().invoke(root, [str(a) for a in (*args, "--format", "csv")])
    assert csv_run.stdout.splitlines()[0] == "metric,Low (N=300),High (N=300),All (N=600)"
    assert csv_run.stderr.splitlines()[-3:] == [f"# {settings}", f"# {fkgl}", f"# {bleu}"]


def test_no_significance_marks_without_a_test(data_dir):
    args = ("meta-evaluate", "--dataset", "simplicity-da", "--data-dir", data_dir, "-m", "fkgl",
            "--scores", data_dir / PUBLISHED, "--score-columns", "bleu,sari")
    tested = run(*args).stdout
    assert "* = not significantly outperformed by any other metric" in tested
    assert any("*" in line for line in tested.splitlines()[3:6])
    untested = run(*args, "--significance", "none")
    assert untested.exit_code == 0, untested.output
    body = [line for line in untested.stdout.splitlines() if not line.startswith("#")]
    assert not any("*" in line for line in body)  # tested marks some winners with *; none here
    assert "no significance test (--significance none): no cell is marked" in body
    assert "not significantly outperformed" not in untested.stdout
    markdown = run(*args, "--significance", "none", "--format", "markdown").stdout
    assert "**" not in markdown and "Bold" not in markdown
    latex = run(*args, "--significance", "none", "--format", "latex").stdout
    assert "textbf" not in latex and "% no significance test" in latex
    records = json.loads(run(*args, "--significance", "none", "--format", "json").stdout)
    assert {r["winner"] for r in records} == {None}
    assert any(r["winner"] for r in json.loads(run(*args, "--format", "json").stdout))


def test_resampling_shows_a_progress_bar_with_its_total_and_eta(data_dir, monkeypatch):
    """Issue 28 (a new user's silent half hour): a resampling statistic moves a bar to its total, with the
    elapsed time and the ETA; --no-progress (and a redirected standard error, the default) prints none.
    The bar draws every update here: on a quiet machine the 780 resamples end within tqdm's 0.1 s
    refresh interval, where only the last frame would be drawn."""
    import functools
    import re

    import tqdm

    monkeypatch.setattr(tqdm, "tqdm", functools.partial(tqdm.tqdm, mininterval=0, miniters=1))
    shown = published(data_dir, "--correlation", "kendall-23", "--resamples", "20", "--bootstrap", "40", "--progress")
    assert shown.exit_code == 0, shown.output
    frames = shown.stderr.replace("\r", "\n")
    moves = [(int(done), int(total)) for done, total in
             re.findall(r"resampling: +\d+%\|[^|]*\| (\d+)/(\d+) \[\d\d:\d\d<\d\d:\d\d", frames)]  # elapsed<ETA
    assert len({total for _, total in moves}) == 1 and moves[0][1] > 40, frames[-500:]
    assert len({done for done, _ in moves}) >= 2 and max(done for done, _ in moves) > 0  # it moves
    for quiet in (["--no-progress"], []):
        done = published(data_dir, "--correlation", "kendall-23", "--resamples", "20", "--bootstrap", "40", *quiet)
        assert done.exit_code == 0 and "resampling" not in done.stderr
        assert done.stdout == shown.stdout
