"""CI cannot pass empty: without its data directory or an installed module a test skips locally and fails
under CI=true."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

USES_DATA = textwrap.dedent('''
    from simpeval.testing import shared_data_dir

    def test_needs_data():
        assert shared_data_dir("metaeval").is_dir()
''')

PLUGIN_CONFTESTS = sorted(Path(__file__).parents[1].glob("plugins/*/tests/conftest.py"))


NEEDS_MODULE = textwrap.dedent('''
    from simpeval.testing import require_module

    def test_needs_module():
        assert require_module("simpeval_no_such_module")
''')

ROOT = Path(__file__).parents[1]


def _pytest(tmp_path: Path, ci: str | None, data_dir: Path, test: str = USES_DATA) -> subprocess.CompletedProcess:
    (tmp_path / "test_uses_data.py").write_text(test)
    env = {**os.environ, "SIMPEVAL_DATA_DIR": str(data_dir)}
    env.pop("CI", None)
    if ci is not None:
        env["CI"] = ci
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
                          env=env, capture_output=True, text=True, timeout=120, cwd=tmp_path)


def test_missing_data_skips_outside_ci(tmp_path):
    done = _pytest(tmp_path, None, tmp_path / "nowhere")
    assert done.returncode == 0 and "1 skipped" in done.stdout, done.stdout


@pytest.mark.parametrize("ci", ["true", "1"])
def test_missing_data_fails_under_ci(tmp_path, ci):
    done = _pytest(tmp_path, ci, tmp_path / "nowhere")
    assert done.returncode == 1 and "1 failed" in done.stdout, done.stdout
    assert "CI=true but SIMPEVAL_DATA_DIR is not set to a directory holding metaeval" in done.stdout


def test_present_data_passes_under_ci(tmp_path):
    (tmp_path / "data" / "metaeval").mkdir(parents=True)
    done = _pytest(tmp_path, "true", tmp_path / "data")
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout


def test_missing_module_skips_outside_ci_and_fails_under_ci(tmp_path):
    done = _pytest(tmp_path, None, tmp_path, NEEDS_MODULE)
    assert done.returncode == 0 and "1 skipped" in done.stdout, done.stdout
    done = _pytest(tmp_path, "true", tmp_path, NEEDS_MODULE)
    assert done.returncode != 0 and "CI=true but simpeval_no_such_module cannot be imported" in done.stdout, done.stdout


def test_no_test_skips_on_a_missing_module_by_itself():
    """``pytest.importorskip`` would let CI pass without the module: tests use ``require_module``."""
    for path in [*ROOT.glob("tests/*.py"), *ROOT.glob("plugins/*/tests/*.py")]:
        if path != Path(__file__):
            assert "importorskip" not in path.read_text(encoding="utf-8"), path


def test_every_data_fixture_goes_through_the_ci_rule():
    """No conftest (core or plugin) decides on its own to skip when the data is missing."""
    conftests = [Path(__file__).with_name("conftest.py"), *PLUGIN_CONFTESTS]
    for path in conftests:
        text = path.read_text()
        assert "pytest.skip" not in text, path
        if "SIMPEVAL_DATA_DIR" in text or "data_dir" in text:
            assert "shared_data_dir" in text, path
