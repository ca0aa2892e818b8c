"""Third-party plugins: real distributions built in a temp dir, found through the ``simpeval`` entry point."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

GOOD_PLUGIN = '''
import simpeval

class LengthRatio(simpeval.Metric):
    name = "length-ratio"
    requires_references = False

    def _score_items(self, sources, outputs, references=None):
        return {"length-ratio": [len(o.split()) / max(1, len(s.split())) for s, o in zip(sources, outputs)]}

@simpeval.hookimpl
def simpeval_register_metrics():
    return [LengthRatio]
'''

BROKEN_PLUGIN = '''
raise RuntimeError("this plugin is broken on purpose")
'''


def _distribution(root: Path, dist: str, package: str, code: str) -> Path:
    project = root / dist
    (project / package).mkdir(parents=True)
    (project / package / "__init__.py").write_text("")
    (project / package / "plugin.py").write_text(code)
    (project / "pyproject.toml").write_text('[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n')
    (project / "setup.cfg").write_text(textwrap.dedent(f"""\
        [metadata]
        name = {dist}
        version = 1.2.3

        [options]
        packages = {package}

        [options.entry_points]
        simpeval =
            {dist} = {package}.plugin
        """))
    return project


@pytest.fixture(scope="module")
def plugin_site(tmp_path_factory) -> Path:
    """A directory holding two installed plugin distributions: one that works, one that raises at import."""
    root = tmp_path_factory.mktemp("plugins")
    site = root / "site"
    projects = [
        _distribution(root, "length-ratio-plugin", "length_ratio_plugin", GOOD_PLUGIN),
        _distribution(root, "broken-plugin", "broken_plugin", BROKEN_PLUGIN),
    ]
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "--no-index",
         "--target", str(site), *map(str, projects)],
        check=True, capture_output=True,
    )
    return site


def _simpeval(site: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(site)}
    env.pop("SIMPEVAL_DISABLE_PLUGIN_AUTOLOAD", None)
    return subprocess.run([sys.executable, "-m", "simpeval", *args], env=env, input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_installed_plugin_is_listed_with_its_distribution(plugin_site):
    listing = json.loads(_simpeval(plugin_site, "metrics", "list", "--format", "json").stdout)
    [row] = [r for r in listing["metrics"] if r["name"] == "length-ratio"]
    assert row["provided by"] == "length-ratio-plugin 1.2.3"
    assert row["status"] == "ok"


def test_broken_plugin_is_reported_and_the_rest_still_work(plugin_site, tmp_path):
    listing = json.loads(_simpeval(plugin_site, "metrics", "list", "--format", "json").stdout)
    [error] = [e for e in listing["errors"] if "broken-plugin" in e]
    assert error == 'Error loading simpeval plugin "broken-plugin": RuntimeError: this plugin is broken on purpose'
    orig = tmp_path / "orig.txt"
    orig.write_text("one two three four\nfive six\n")
    done = _simpeval(plugin_site, "evaluate", "--orig", str(orig), "-m", "length-ratio", "--sentence-level",
                     "--format", "csv", stdin="one two\nfive six\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["index,length-ratio", "0,0.5", "1,1.0"]
    assert "# length-ratio|formula:1|lang:en|version:" in done.stderr


def test_strict_listing_fails_on_the_broken_plugin(plugin_site):
    done = _simpeval(plugin_site, "metrics", "list", "--strict")
    assert done.returncode == 2
    assert done.stderr.strip() == (
        'Error: Error loading simpeval plugin "broken-plugin": RuntimeError: this plugin is broken on purpose; '
        "fix or uninstall that plugin, or switch it off with -p no:broken-plugin"
    )


def test_plugin_autoload_can_be_disabled(plugin_site):
    env_off = {**os.environ, "PYTHONPATH": str(plugin_site), "SIMPEVAL_DISABLE_PLUGIN_AUTOLOAD": "1"}
    done = subprocess.run([sys.executable, "-m", "simpeval", "metrics", "list", "--format", "json"],
                          env=env_off, capture_output=True, text=True, timeout=120)
    listing = json.loads(done.stdout)
    assert "length-ratio" not in {r["name"] for r in listing["metrics"]} and listing["errors"] == []
