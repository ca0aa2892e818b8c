"""Papers and presets come through plugin hooks: a third-party plugin adds a paper that
``simpeval reproduce --list`` shows and runs, and the built-in ones are plugin modules that
``-p no:MODULE`` switches off like any other."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from simpeval.cli import cli
from simpeval.registry import load_registry

TOY_PLUGIN = '''
import simpeval
from simpeval.presets import Preset
from simpeval.reproduce.paper import Paper


class Cell:
    def __init__(self, published, ours):
        self.published, self.ours = published, ours

    def render(self, fmt, data_dir):
        return f"toy table: published {self.published}, simpeval {self.ours:.1f}\\n"

    def cells(self):
        return [{"table": "1", "metric": "BLEU", "published": self.published, "simpeval": self.ours}]


class ToyPaper(Paper):
    name = "toy-2025"
    title = "A toy paper (2025): BLEU of one copied sentence"

    def table_numbers(self):
        return ["1"]

    def reproduce(self, registry, data_dir, cache=None, numbers=()):
        bleu = registry.create_metric("bleu", preset="toy-2025")
        score = bleu.corpus_score(["a b c d e"], ["a b c d e"], [["a b c d e"]])["bleu"]
        return [Cell(100.0, score)]


@simpeval.hookimpl
def simpeval_register_papers():
    return [ToyPaper()]


@simpeval.hookimpl
def simpeval_register_presets():
    return [Preset("toy-2025", "the toy paper's settings", settings={"bleu": {"lowercase": True}})]
'''


@pytest.fixture(scope="module")
def plugin_site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("paper-plugin")
    project = root / "toy-paper-plugin"
    (project / "toy_paper_plugin").mkdir(parents=True)
    (project / "toy_paper_plugin" / "__init__.py").write_text("")
    (project / "toy_paper_plugin" / "plugin.py").write_text(TOY_PLUGIN)
    (project / "pyproject.toml").write_text('[build-system]\nrequires = ["setuptools"]\n'
                                            'build-backend = "setuptools.build_meta"\n')
    (project / "setup.cfg").write_text(textwrap.dedent("""\
        [metadata]
        name = toy-paper-plugin
        version = 0.1.0

        [options]
        packages = toy_paper_plugin

        [options.entry_points]
        simpeval =
            toy-paper = toy_paper_plugin.plugin
        """))
    site = root / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "--no-index",
                    "--target", str(site), str(project)], check=True, capture_output=True)
    return site


def _simpeval(site: Path, *args: str) -> subprocess.CompletedProcess:
    path = os.pathsep.join(p for p in (str(site), os.environ.get("PYTHONPATH", "")) if p)
    env = {**os.environ, "PYTHONPATH": path}
    env.pop("SIMPEVAL_DISABLE_PLUGIN_AUTOLOAD", None)
    return subprocess.run([sys.executable, "-m", "simpeval", *args], env=env, capture_output=True, text=True,
                          timeout=120)


def test_a_plugins_paper_is_listed_and_reproduced(plugin_site):
    listing = _simpeval(plugin_site, "reproduce", "--list")
    assert listing.returncode == 0, listing.stderr
    [row] = [line for line in listing.stdout.splitlines() if line.startswith("toy-2025")]
    assert row.split()[:2] == ["toy-2025", "1"] and "A toy paper (2025)" in row
    assert any(line.startswith("alva-manchego-2021") for line in listing.stdout.splitlines())
    listed = json.loads(_simpeval(plugin_site, "reproduce", "--list", "--format", "json").stdout)
    assert {"paper": "toy-2025", "tables": ["1"], "title": "A toy paper (2025): BLEU of one copied sentence"} in listed
    done = _simpeval(plugin_site, "reproduce", "toy-2025", "--format", "json")
    assert done.returncode == 0, done.stderr
    [cell] = json.loads(done.stdout)
    assert cell == {"table": "1", "metric": "BLEU", "published": 100.0, "simpeval": pytest.approx(100.0)}


def test_a_plugins_preset_gives_its_settings(plugin_site, tmp_path):
    orig = tmp_path / "orig.txt"
    orig.write_text("The Cat sat.\n")
    ref = tmp_path / "ref.txt"
    ref.write_text("the cat sat.\n")
    done = _simpeval(plugin_site, "evaluate", "--orig", str(orig), "--refs", str(ref), "--sys", str(orig),
                     "-m", "bleu", "--preset", "toy-2025", "--format", "json")
    assert done.returncode == 0, done.stderr
    assert "lc:yes" in done.stdout + done.stderr  # the preset lower-cased BLEU


def test_the_built_in_papers_and_presets_are_plugin_modules():
    registry = load_registry(autoload=False)
    assert {"alva-manchego-2021", "kwak-2024"} <= set(registry.papers)
    assert {"lens-2023", "metaeval-2021"} <= set(registry.presets)
    without = load_registry(autoload=False, disabled=["simpeval.lens2023"])
    assert "kwak-2024" not in without.papers and "lens-2023" not in without.presets
    assert "lens-2023" not in without.preset_names()
    assert "alva-manchego-2021" in without.papers


def test_the_metaeval_2021_settings_come_through_the_hook_only():
    """No core metric carries the paper's settings: switching its module off removes the preset and them."""
    registry = load_registry(autoload=False)
    assert not [name for name, cls in registry.metrics.items() if "metaeval-2021" in cls.presets]
    assert registry.create_metric("sari", preset="metaeval-2021").deletion == "precision"
    assert registry.create_metric("fkbleu", preset="metaeval-2021").settings["fkgl_tokenizer"] == "moses"
    without = load_registry(autoload=False, disabled=["simpeval.reproduce.alva_manchego_2021"])
    assert "metaeval-2021" not in without.preset_names() and "alva-manchego-2021" not in without.papers


def test_switching_off_the_lens_module_removes_its_paper_from_the_command():
    result = CliRunner().invoke(cli, ["-p", "no:simpeval.lens2023", "reproduce", "kwak-2024"])
    assert result.exit_code == 2
    assert 'unknown paper "kwak-2024"' in result.output
