"""The default data directory and ``simpeval data``: with the data in the per-user directory, nothing
needs exporting; without it, ``simpeval data`` says where it looks and how to add each data set."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

import simpeval
from simpeval.cli import cli
from simpeval.datacatalogue import catalogue
from simpeval.registry import load_registry


@pytest.fixture
def user_dir(tmp_path, monkeypatch):
    """A per-user data directory under a private XDG_DATA_HOME, no SIMPEVAL_DATA_DIR."""
    monkeypatch.delenv("SIMPEVAL_DATA_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "simpeval"


@pytest.mark.slow
def test_the_readme_snippet_and_commands_work_from_the_user_directory(user_dir, data_dir):
    user_dir.parent.mkdir(parents=True)
    user_dir.symlink_to(data_dir, target_is_directory=True)
    report = simpeval.meta_evaluate("simplicity-da", ["bleu"], preset="metaeval-2021", cache=False)
    assert abs(report.result.record("bleu", "All").r) == pytest.approx(0.496, abs=0.0005)  # Table 3
    done = CliRunner().invoke(cli, ["reproduce", "alva-manchego-2021", "--table", "9"])
    assert done.exit_code == 0, done.output
    listed = CliRunner().invoke(cli, ["data"])
    assert listed.exit_code == 0
    assert f"  user data directory    {user_dir}  (used)" in listed.output.splitlines()
    rows = {line.split()[0]: line for line in listed.output.splitlines() if line.strip()}
    assert "found" in rows["simplicity-da"] and "CC BY-NC-SA 4.0" in rows["simplicity-da"]
    # each data set's language and source are listed too
    assert rows["readmepp-fr"].split()[3:5] == ["fr", "MIT"] and "github.com/tareknaous/readme" in rows["readmepp-fr"]
    assert rows["deplain-ratings"].split()[3:5] == ["de", "GPL-3.0"]


def test_the_python_api_names_its_argument_not_the_cli_flag(user_dir):
    with pytest.raises(simpeval.UsageError) as info:
        simpeval.meta_evaluate("simplicity-da", ["bleu"], cache=False)
    assert "pass data_dir=DIR or set SIMPEVAL_DATA_DIR" in str(info.value)
    assert "--data-dir" not in str(info.value)


def test_data_lists_every_missing_data_set_with_its_source_licence_and_place(user_dir, tmp_path):
    (tmp_path / "partial" / "references" / "asset").mkdir(parents=True)
    for k in range(10):
        (tmp_path / "partial" / "references" / "asset" / f"asset.test.simp.{k}").write_text("x\n")
    done = CliRunner().invoke(cli, ["data", "--data-dir", str(tmp_path / "partial")])
    assert done.exit_code == 0
    lines = done.output.splitlines()
    assert lines[:4] == [
        "simpeval looks for data in (the first one given is used):",
        f"  --data-dir             {tmp_path / 'partial'}  (used)",
        "  $SIMPEVAL_DATA_DIR     -  (not given)",
        f"  user data directory    {user_dir}  (does not exist)",
    ]
    rows = {line.split()[0]: line.split() for line in lines[6:] if line.strip() and not line.startswith(" ")}
    assert rows["asset"][:3] == ["asset", "references", "found"]
    assert rows["asset_test"][:5] == ["asset_test", "test", "set", "missing", "1"]  # its .orig
    entries = catalogue(load_registry())
    missing = [e for e in entries if e.missing(tmp_path / "partial")]
    assert len(missing) == len(entries) - 1
    hint = lines.index(f"To add a data set, fetch it from its source (check its licence) and put its files under "
                       f"{tmp_path / 'partial'}, at these paths:")
    assert hint < lines.index("  simpda-2022: simpeval/simpDA_2022.csv")
    simpda = lines.index("  simpda-2022: simpeval/simpDA_2022.csv")
    assert lines[simpda + 1] == "    from https://github.com/Yao-Dou/LENS/tree/master/data (licence: as stated there)"
    dwiki = lines.index("  dwiki-2025: documents/dwiki-ratings/dwiki_final.jsonl")
    assert lines[dwiki + 1] == ("    from https://github.com/cardiffnlp/document-simplification/tree/main/meta_evaluation/"
                                "eval_datasets (licence: none stated by the repository)")
    assert "  asset_test: references/asset/asset.test.orig" in lines
    assert "  simplicity-da: metaeval/simplicity_DA.csv, metaeval/simplicity_DA_ratings.csv" in lines
    assert "    from https://github.com/feralvam/metaeval-simplification (licence: CC BY-NC-SA 4.0)" in lines


def test_data_without_any_directory_says_where_to_create_it(user_dir):
    done = CliRunner().invoke(cli, ["data"])
    assert done.exit_code == 0
    assert f"No data directory: create {user_dir} and put the data sets below in it." in done.output
    assert f"put its files under {user_dir}, at these paths:" in done.output
