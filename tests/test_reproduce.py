"""``simpeval reproduce``: the paper's table beside simpeval's, and the command behind it that gives the same numbers."""

from __future__ import annotations

import json
import shlex

import pytest
from click.testing import CliRunner

from simpeval.cli import cli
from simpeval.reproduce import find_table
from simpeval.registry import load_registry
from simpeval.reproduce.alva_manchego_2021 import TABLES


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_table3_printed_beside_the_paper(data_dir):
    result = run("reproduce", "alva-manchego-2021", "--table", "3", "--data-dir", data_dir)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "Table 3: Simplicity-DA, ASSET references, quality splits"
    assert lines[1] == "$ " + TABLES["3"].command(data_dir)
    [bleu] = [line for line in lines if line.startswith("BLEU ")]
    assert bleu.split() == ["BLEU", "0.405", "0.235", "0.496", "0.405", "0.235", "0.496", "0.000"]
    [bertscore] = [line for line in lines if line.startswith("BERTScore_P")]
    assert bertscore.split()[3] == "0.617*"  # the only winner on All
    assert "max |ours - paper| = 0.000" in result.stdout


@pytest.mark.slow
def test_printed_command_gives_the_printed_numbers(data_dir):
    """The exact meta-evaluate command reproduce prints, run as a user would, gives the same |r|."""
    shown = run("reproduce", "alva-manchego-2021", "--table", "9", "--data-dir", data_dir, "--format", "csv")
    rows = [line.split(",") for line in shown.stdout.splitlines()[1:]]
    ours = {row[1]: float(row[2]) for row in rows if row[2] != "n/a"}  # label -> SBMT ours
    argv = shlex.split(TABLES["9"].command(data_dir))
    assert argv[:2] == ["simpeval", "meta-evaluate"]
    records = json.loads(run(*argv[1:], "--format", "json").stdout)
    by_key = {(r["metric"], r["split"]): abs(r["r"]) for r in records}
    assert ours["BLEU"] == pytest.approx(by_key[("bleu", "SBMT")], abs=1e-12)
    assert ours["BERTScore_P"] == pytest.approx(by_key[("bertscore-p", "SBMT")], abs=1e-12)
    assert ours["BLEU"] == pytest.approx(0.295, abs=0.0005)  # the paper's value


@pytest.mark.slow
def test_table11_prints_both_reference_sets_with_n_a_where_nothing_was_published(data_dir):
    result = run("reproduce", "alva-manchego-2021", "--table", "11", "--data-dir", data_dir, "--format", "markdown")
    assert result.exit_code == 0, result.output
    assert "### Table 11: Simplicity-DA, all references" in result.stdout
    assert "### Table 11: Simplicity-DA, selected references" in result.stdout
    assert "| BERTScore_P | n/a | n/a | n/a | 0.543 | 0.276 | 0.635 | - |" in result.stdout


def test_unknown_table_is_one_line():
    result = run("reproduce", "alva-manchego-2021", "--table", "4")
    assert result.exit_code == 2
    assert result.output.strip() == "Error: alva-manchego-2021 has no table 4: choose --table from 3, 7, 9, 10, 11"


def test_meta_evaluate_points_to_the_published_table(data_dir):
    # the paper's metric settings: the published table, and where its other rows come from
    result = run("meta-evaluate", "--dataset", "simplicity-da", "--data-dir", data_dir, "-m", "fkgl",
                 "--preset", "metaeval-2021")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == (
        "# published: Table 3 of alva-manchego-2021 has these settings (its BERTScore/SARI-SAMSA/SAMSA rows: "
        "--scores metaeval/metrics_simplicity_DA.csv); the paper's values beside simpeval's: "
        "simpeval reproduce alva-manchego-2021 --table 3")
    other = run("meta-evaluate", "--dataset", "simplicity-da", "--data-dir", data_dir, "-m", "fkgl",
                "--references", "turkcorpus")
    assert "published" not in other.stdout and "paper" not in other.stdout
    # only EASSE's published scores, nothing computed: no preset is involved, so these are the paper's settings
    published = run("meta-evaluate", "--dataset", "simplicity-da", "--data-dir", data_dir,
                    "--scores", data_dir / "metaeval/metrics_simplicity_DA.csv", "--score-columns", "bleu,samsa")
    assert published.stdout.splitlines()[-1].startswith(
        "# published: Table 3 of alva-manchego-2021 has these settings (its BERTScore/SARI-SAMSA rows: --scores")


def test_the_default_run_says_how_it_differs_from_the_paper(data_dir):
    from importlib.metadata import version

    result = run("meta-evaluate", "--dataset", "simplicity-da", "--data-dir", data_dir, "-m", "fkgl")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].endswith(f" preset=none (today's EASSE defaults, sacrebleu {version('sacrebleu')})")
    assert lines[-1] == (
        "# not the paper's settings: Table 3 of alva-manchego-2021 used --preset metaeval-2021 (here: no preset: "
        f"today's EASSE defaults, sacrebleu {version('sacrebleu')}); and EASSE's published "
        "BERTScore/SARI-SAMSA/SAMSA scores; the paper's numbers: simpeval reproduce alva-manchego-2021 --table 3")
    tuned = run("meta-evaluate", "--dataset", "simplicity-da", "--data-dir", data_dir, "-m", "fkgl:clip=no",
                "--preset", "metaeval-2021", "--significance", "none")
    assert tuned.stdout.splitlines()[-1].startswith(
        "# not the paper's settings: Table 3 of alva-manchego-2021 used --preset metaeval-2021 (here: "
        "--preset metaeval-2021 with -m fkgl:clip=no); a williams test at alpha=0.05 (here: significance=none")


@pytest.mark.parametrize("options", [
    ("--aspect", "fluency"), ("--aspect", "meaning", "--correlation", "spearman"), ("--raw",),
    ("--correlation", "kendall"), ("--level", "system"), ("--ties", "exclude"), ("--split", "system-type"),
    ("--average-by", "item"),
])
def test_no_table3_pointer_on_runs_that_are_not_table3(options, data_dir):
    result = run("meta-evaluate", "--dataset", "simplicity-da", "--data-dir", data_dir, "-m", "fkgl",
                 "--preset", "metaeval-2021", *options)
    assert result.exit_code == 0, result.output
    assert "Table 3" not in result.stdout
    if options == ("--split", "system-type"):  # Table 9 is this one
        assert result.stdout.splitlines()[-1].startswith("# published: Table 9 of alva-manchego-2021")
    else:
        assert "published" not in result.stdout and "paper" not in result.stdout


def test_find_table_by_dataset_references_and_split():
    registry = load_registry()
    assert find_table(registry, "structural-simplicity", "hsplit", "system-type").key == "10"
    assert find_table(registry, "simplicity-da", "selected", "quality").key == "11-selected"
    assert find_table(registry, "simpeval-2022", "asset", "quality") is None
