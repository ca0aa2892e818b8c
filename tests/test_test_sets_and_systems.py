"""Named test sets (``--test-set``) and several systems at once (``--sys`` repeated, ``--sys-dir``,
``--paired-bs``/``--paired-ar``), on the published system outputs."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from simpeval.cli import cli
from simpeval.datasets.testsets import TEST_SETS, load_test_set

EASSE_NAMES = ["asset_test", "asset_valid", "turkcorpus_test", "turkcorpus_valid", "turkcorpus_test_legacy",
               "turkcorpus_valid_legacy", "pwkp_test", "pwkp_valid", "hsplit_test", "wikisplit_test",
               "wikisplit_valid", "googlecomp_test", "googlecomp_valid", "qats_test"]
GERMAN_NAMES = ["deplain-web_test", "deplain-web-doc_test"]


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture
def outputs(data_dir):
    return data_dir / "system_outputs/turkcorpus/test"


def test_every_easse_test_set_is_known():
    assert list(TEST_SETS) == EASSE_NAMES + GERMAN_NAMES


@pytest.mark.parametrize("name, items, refs", [
    ("asset_test", 359, 10), ("asset_valid", 2000, 10), ("turkcorpus_test", 359, 8), ("turkcorpus_valid", 2000, 8),
    ("turkcorpus_test_legacy", 359, 8), ("turkcorpus_valid_legacy", 2000, 8), ("pwkp_test", 100, 1),
    ("pwkp_valid", 205, 1), ("hsplit_test", 359, 4), ("wikisplit_test", 5000, 1), ("wikisplit_valid", 5000, 1),
    ("googlecomp_test", 1000, 1), ("googlecomp_valid", 1000, 1), ("qats_test", 126, 1),
    ("deplain-web_test", 1846, 1), ("deplain-web-doc_test", 147, 1),
])
def test_each_test_set_loads_with_its_size(data_dir, name, items, refs):
    test_set = load_test_set(data_dir, name)
    assert len(test_set.sources) == items and test_set.n_references == refs
    assert all(len(r) == refs for r in test_set.references)


def test_test_sets_command_lists_every_set_as_present(data_dir):
    result = run("test-sets", "--data-dir", data_dir)
    assert result.exit_code == 0
    rows = result.output.splitlines()[2:]
    assert [row.split()[0] for row in rows] == EASSE_NAMES + GERMAN_NAMES
    assert all(row.split()[2] == "ok" for row in rows)


def test_test_set_equals_the_same_files_given_by_hand(data_dir, outputs):
    by_name = run("evaluate", "--test-set", "asset_test", "--sys", outputs / "ACCESS", "-m", "bleu,sari",
                  "--format", "json", "--data-dir", data_dir)
    refs = [a for i in range(10) for a in ("--refs", data_dir / f"references/asset/asset.test.simp.{i}")]
    by_hand = run("evaluate", "--orig", data_dir / "references/asset/asset.test.orig", "--sys", outputs / "ACCESS",
                  *refs, "-m", "bleu,sari", "--format", "json")
    assert by_name.exit_code == 0, by_name.output
    assert json.loads(by_name.output) == json.loads(by_hand.output)
    assert json.loads(by_name.output)["signatures"]["bleu"].startswith("bleu|nrefs:10|")


def test_a_missing_test_set_file_names_itself_and_its_source(tmp_path):
    (tmp_path / "references/pwkp").mkdir(parents=True)
    (tmp_path / "references/pwkp/pwkp.test.orig").write_text("a\n")
    result = run("evaluate", "--test-set", "pwkp_test", "--sys", tmp_path / "references/pwkp/pwkp.test.orig",
                 "--data-dir", tmp_path)
    assert result.exit_code == 2
    assert result.output.startswith(f"Error: missing data file {tmp_path / 'references/pwkp/pwkp.test.simp'} "
                                    "(public copy: https://github.com/feralvam/easse")


@pytest.mark.parametrize("args, message", [
    (["--test-set", "asset_tset"], 'unknown test set "asset_tset": choose one of asset_test'),
    (["--test-set", "asset_test", "--orig", "x"], "--test-set supplies --orig and --refs"),
    (["--test-set", "asset_test", "--paired-bs", "--paired-ar"], "--paired-bs and --paired-ar are two tests"),
    (["--test-set", "asset_test", "--paired-ar"], "--paired-ar needs a baseline and at least one more system"),
])
def test_bad_test_set_options_are_one_line(data_dir, outputs, args, message):
    result = run("evaluate", *args, "--sys", outputs / "ACCESS", "--data-dir", data_dir)
    assert result.exit_code == 2 and result.output.startswith("Error: " + message)
    assert len(result.output.strip().splitlines()) == 1


def test_several_systems_give_one_row_each_equal_to_scoring_them_alone(data_dir, outputs):
    names = ["ACCESS", "Dress-Ls", "PBMT-R"]
    args = [a for n in names for a in ("--sys", outputs / n)]
    result = run("evaluate", "--test-set", "turkcorpus_test", *args, "-m", "bleu,sari,fkgl", "--format", "json",
                 "--data-dir", data_dir)
    assert result.exit_code == 0, result.output
    records = json.loads(result.output)["results"]
    assert [r["system"] for r in records if r["metric"] == "bleu"] == names
    for name in names:
        alone = json.loads(run("evaluate", "--test-set", "turkcorpus_test", "--sys", outputs / name, "-m",
                               "bleu,sari,fkgl", "--format", "json", "--data-dir", data_dir).output)["corpus"]
        assert {r["metric"]: r["score"] for r in records if r["system"] == name} == alone


def test_paired_bootstrap_marks_systems_against_the_first(data_dir, outputs):
    # ACCESS against itself cannot differ; Dress-Ls is about 3.6 SARI below it on 359 sentences
    result = run("evaluate", "--test-set", "asset_test", "--sys", outputs / "ACCESS", "--sys", outputs / "ACCESS",
                 "--sys", outputs / "Dress-Ls", "-m", "sari,bleu", "--paired-bs", "--format", "json",
                 "--data-dir", data_dir)
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert (payload["test"], payload["resamples"]) == ("bs", 1000)
    rows = {(r["system"], r["metric"]): r for r in payload["results"]}
    base, same, other = list(dict.fromkeys(r["system"] for r in payload["results"]))
    assert same == base + "#2" and base.endswith("ACCESS") and other == "Dress-Ls"
    assert rows[(same, "sari")]["p_value"] == 1.0 and not rows[(same, "sari")]["significant"]
    assert rows[(other, "sari")]["p_value"] < 0.01 and rows[(other, "sari")]["significant"]
    assert "p_value" not in rows[(base, "sari")] and rows[(base, "sari")]["low"] < rows[(base, "sari")]["score"]
    assert all(r["low"] <= r["mean"] <= r["high"] for r in rows.values())


@pytest.mark.slow
def test_sys_dir_scores_every_file_and_ar_reports_p_values(data_dir, tmp_path, outputs):
    for name in ["ACCESS", "Hybrid", "UNTS"]:
        (tmp_path / name).write_bytes((outputs / name).read_bytes())
    result = run("evaluate", "--test-set", "turkcorpus_test", "--sys-dir", tmp_path, "-m", "sari",
                 "--paired-ar", "--paired-n", "2000", "--format", "csv", "--data-dir", data_dir)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("system,baseline,metric,score,mean,low,high,p_value,significant")
    assert [line.split(",")[0] for line in lines[1:] if ",sari," in line] == ["ACCESS", "Hybrid", "UNTS"]
    table = run("evaluate", "--test-set", "turkcorpus_test", "--sys-dir", tmp_path, "-m", "sari", "--paired-ar",
                "--paired-n", "2000", "--data-dir", data_dir)
    assert table.exit_code == 0 and "p=" in table.output and "approximate randomization, 2000 resamples" in table.output


@pytest.mark.slow
def test_analysis_adds_word_operations_per_system(data_dir, outputs):
    result = run("evaluate", "--test-set", "asset_test", "--sys", outputs / "ACCESS", "--sys", outputs / "Hybrid",
                 "-m", "sari", "--analysis", "--format", "json", "--data-dir", data_dir)
    assert result.exit_code == 0, result.output
    scores = {(r["system"], r["metric"]): r["score"] for r in json.loads(result.output)["results"]}
    for system in ("ACCESS", "Hybrid"):
        shares = [scores[(system, f"ops-{op}")] for op in ("kept", "deleted", "replaced", "moved")]
        assert sum(shares) == pytest.approx(1.0) and 0 <= scores[(system, "ops-f1-kept")] <= 100
    assert scores[("Hybrid", "ops-deleted")] > 3 * scores[("ACCESS", "ops-deleted")]  # Hybrid deletes the most
    no_refs = run("evaluate", "--orig", data_dir / "references/asset/asset.test.orig", "--sys", outputs / "ACCESS",
                  "-a", "--format", "json")
    assert sorted(json.loads(no_refs.output)["corpus"]) == sorted(
        ["fkgl", "ops-kept", "ops-deleted", "ops-replaced", "ops-moved", "ops-added"])


def test_pwkp_outputs_with_known_answers(data_dir):
    # PWKP's published outputs include the reference itself and the unchanged original
    outputs = data_dir / "system_outputs/pwkp/test"
    result = run("evaluate", "--test-set", "pwkp_test", "--sys", outputs / "Complex.tok", "--sys",
                 outputs / "Reference.tok", "-m", "bleu:lowercase=yes,sari,qe-exact-copies,ops-kept", "--paired-bs",
                 "--format", "json", "--data-dir", data_dir)
    assert result.exit_code == 0, result.output
    rows = {(r["system"], r["metric"]): r for r in json.loads(result.output)["results"]}
    assert rows[("Reference.tok", "bleu")]["score"] == pytest.approx(100.0)
    assert rows[("Reference.tok", "sari")]["score"] == pytest.approx(100.0)
    assert rows[("Complex.tok", "qe-exact-copies")]["score"] == 1.0 and rows[("Complex.tok", "ops-kept")]["score"] == 1.0
    assert rows[("Reference.tok", "sari")]["p_value"] == pytest.approx(1 / 1001)  # every resample favours it
