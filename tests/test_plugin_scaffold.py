"""``simpeval plugin new``: the skeleton installs with pip, registers its metric and passes its own test;
the plugin guide shows exactly these files."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from click.testing import CliRunner

from simpeval.cli import cli
from simpeval.scaffold import plugin_files

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "plugin-authors.md"


def _pip(*args):
    return subprocess.run([sys.executable, "-m", "pip", *args], capture_output=True, text=True, timeout=300)


def test_skeleton_installs_registers_and_passes_its_test(tmp_path):
    target = tmp_path / "simpeval-scaffold-probe"
    result = CliRunner().invoke(cli, ["plugin", "new", "scaffold-probe", "--directory", str(target)])
    assert result.exit_code == 0, result.output
    assert sorted(p.relative_to(target).as_posix() for p in target.rglob("*") if p.is_file()) == [
        "README.md", "pyproject.toml", "simpeval_scaffold_probe/__init__.py", "simpeval_scaffold_probe/plugin.py",
        "tests/test_scaffold_probe.py"]
    installed = _pip("install", "-q", "--no-deps", "--no-build-isolation", "--no-index", str(target))
    assert installed.returncode == 0, installed.stderr
    try:
        listing = subprocess.run([sys.executable, "-m", "simpeval", "metrics", "list", "--format", "json"],
                                 capture_output=True, text=True, timeout=120)
        [row] = [r for r in json.loads(listing.stdout)["metrics"] if r["name"] == "scaffold-probe"]
        assert (row["provided by"], row["status"]) == ("simpeval-scaffold-probe 0.1.0", "ok")
        tested = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(target / "tests")],
                                capture_output=True, text=True, timeout=300, cwd=tmp_path)
        assert tested.returncode == 0, tested.stdout + tested.stderr
        assert "1 passed" in tested.stdout
    finally:
        _pip("uninstall", "-y", "-q", "simpeval-scaffold-probe")


def test_existing_directory_and_bad_names_are_one_line_errors(tmp_path):
    taken = CliRunner().invoke(cli, ["plugin", "new", "x", "--directory", str(tmp_path)])
    assert taken.exit_code == 2 and taken.output.strip() == (
        f"Error: {tmp_path} already exists: pick a new directory with --directory")
    bad = CliRunner().invoke(cli, ["plugin", "new", "Length_Ratio", "--directory", str(tmp_path / "new")])
    assert bad.exit_code == 2 and bad.output.startswith('Error: plugin name "Length_Ratio" is not lowercase')
    assert not (tmp_path / "new").exists()
    installed = CliRunner().invoke(cli, ["plugin", "new", "bleu", "--directory", str(tmp_path / "new")])
    assert installed.exit_code == 2 and installed.output.strip() == (
        'Error: "bleu" is already the name of an installed metric or sub-score (see `simpeval metrics list`): pick '
        "another name")
    long = CliRunner().invoke(cli, ["plugin", "new", "x" * 300])
    assert long.exit_code == 2 and long.output.strip() == "Error: plugin name of 300 characters: give one of at most 64"
    assert not (tmp_path / "new").exists()


def test_the_guide_shows_the_skeleton_file_for_file():
    """Every block of the guide that starts with ``# <path>`` is that file of ``plugin new length-ratio``."""
    blocks = re.findall(r"```(?:python|toml)\n# (\S+)\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S)
    files = plugin_files("length-ratio")
    assert {path for path, _ in blocks} == {"pyproject.toml", "simpeval_length_ratio/plugin.py",
                                            "tests/test_length_ratio.py"}
    for path, text in blocks:
        assert text == files[path], path


def test_the_guides_example_runs_as_written_without_deprecations(tmp_path, monkeypatch):
    """The guide's plugin module and its test, taken from the page and run (no 0.1 name in them)."""
    blocks = dict(re.findall(r"```(?:python|toml)\n# (\S+)\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S))
    package = tmp_path / "simpeval_length_ratio"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "plugin.py").write_text(blocks["simpeval_length_ratio/plugin.py"])
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "simpeval_length_ratio", raising=False)
    monkeypatch.delitem(sys.modules, "simpeval_length_ratio.plugin", raising=False)
    namespace: dict = {}
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        exec(compile(blocks["tests/test_length_ratio.py"], "docs/plugin-authors.md", "exec"), namespace)
        namespace["test_length_ratio_scores_hand_counted_sentences"]()
    from simpeval_length_ratio.plugin import LengthRatio

    assert "_score_items" in vars(LengthRatio) and LengthRatio.formula_version == "1"
