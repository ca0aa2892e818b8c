"""A plugin cannot take down every command: not by a ``score_names`` that raises, ``sys.exit`` or
``KeyboardInterrupt`` at import, nor an import that never finishes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

PLUGINS = {
    "exits-at-import": "import sys\nsys.exit(3)\n",
    "interrupts-at-import": "raise KeyboardInterrupt\n",
    "blocks-at-import": "import time\ntime.sleep(600)\n",
    "raising-score-names": '''
import simpeval

class Broken(simpeval.Metric):
    name = "broken-names"

    @classmethod
    def score_names(cls):
        raise RuntimeError("score_names broken on purpose")

    def _score_items(self, sources, outputs, references=None):
        return {}

@simpeval.hookimpl
def simpeval_register_metrics():
    return [Broken]
''',
    "exits-in-hook": '''
import sys
import simpeval

@simpeval.hookimpl
def simpeval_register_datasets():
    sys.exit("bye")
''',
}

EXPECTED = {
    "exits-at-import": 'Error loading simpeval plugin "exits-at-import": SystemExit: 3',
    "interrupts-at-import": 'Error loading simpeval plugin "interrupts-at-import": KeyboardInterrupt',
    "blocks-at-import": 'Error loading simpeval plugin "blocks-at-import": PluginImportTimeout: its import did not '
                        "finish in 2 s (set SIMPEVAL_PLUGIN_IMPORT_TIMEOUT to wait longer, or to inf)",
    "raising-score-names": 'Error registering simpeval plugin "raising-score-names": RuntimeError: score_names '
                           "broken on purpose",
    "exits-in-hook": 'Error in simpeval_register_datasets of simpeval plugin "exits-in-hook": SystemExit: bye',
}


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """Each plugin as an installed distribution: its package and a ``.dist-info`` with its entry point."""
    root = tmp_path_factory.mktemp("hostile-plugins")
    for dist, code in PLUGINS.items():
        package = dist.replace("-", "_")
        (root / package).mkdir()
        (root / package / "__init__.py").write_text(code)
        info = root / f"{package}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
        (info / "entry_points.txt").write_text(f"[simpeval]\n{dist} = {package}\n")
    return root


def simpeval(site: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *sys.path]), "SIMPEVAL_PLUGIN_IMPORT_TIMEOUT": "2"}
    for name in ("SIMPEVAL_DISABLE_PLUGIN_AUTOLOAD", "SIMPEVAL_DISABLE_PLUGINS"):
        env.pop(name, None)
    return subprocess.run([sys.executable, "-m", "simpeval", *map(str, args)], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def test_help_survives_every_hostile_plugin(site):
    done = simpeval(site, "--help")
    assert done.returncode == 0, done.stderr
    assert "evaluate" in done.stdout and "Traceback" not in done.stderr
    warnings = sorted(done.stderr.splitlines())
    assert warnings == sorted(f"warning: {error} (switch it off with -p no:{name})" for name, error in EXPECTED.items())


def test_evaluate_and_listing_survive_every_hostile_plugin(site, tmp_path):
    (tmp_path / "orig.txt").write_text("the cat sat on the mat .\n")
    (tmp_path / "sys.txt").write_text("the cat sat .\n")
    done = simpeval(site, "evaluate", "--orig", "orig.txt", "--sys", "sys.txt", "-m", "length", "--format", "csv",
                    cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("metric,score,signature\nlength,")
    listing = simpeval(site, "metrics", "list")
    assert listing.returncode == 0, listing.stderr
    for name, error in EXPECTED.items():
        assert f'plugin "{name}" (' in listing.stdout and error in listing.stdout


POLITE = '''
import signal
import simpeval

print("hello from the polite plugin")
signal.signal(signal.SIGUSR1, lambda *_: None)


class Polite(simpeval.Metric):
    name = "polite"
    requires_references = False

    def _score_items(self, sources, outputs, references=None):
        return {"polite": [1.0 for _ in outputs]}


@simpeval.hookimpl
def simpeval_register_metrics():
    return [Polite]
'''


@pytest.fixture(scope="module")
def polite_site(tmp_path_factory) -> Path:
    """One plugin that does at import what a module may do: print, and install a signal handler."""
    root = tmp_path_factory.mktemp("polite-plugin")
    (root / "polite").mkdir()
    (root / "polite" / "__init__.py").write_text(POLITE)
    info = root / "polite-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: polite\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[simpeval]\npolite = polite\n")
    (root / "orig.txt").write_text("the cat sat on the mat .\n")
    (root / "sys.txt").write_text("the cat sat .\n")
    return root


@pytest.mark.parametrize("timeout", ["2", "inf"])
def test_a_plugin_may_print_and_install_a_signal_handler_at_import_and_inf_waits_for_ever(polite_site, timeout):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(polite_site), *sys.path]),
           "SIMPEVAL_PLUGIN_IMPORT_TIMEOUT": timeout}
    for name in ("SIMPEVAL_DISABLE_PLUGIN_AUTOLOAD", "SIMPEVAL_DISABLE_PLUGINS"):
        env.pop(name, None)
    done = subprocess.run([sys.executable, "-m", "simpeval", "evaluate", "--orig", "orig.txt", "--sys", "sys.txt",
                           "-m", "polite", "--format", "csv", "--no-cache"], env=env, cwd=polite_site,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stderr == "hello from the polite plugin\n"  # its print goes to stderr, not into the CSV
    assert done.stdout.startswith("metric,score,signature\npolite,1"), done.stdout


def test_switching_off_a_plugin_that_does_not_exist_is_a_warning(polite_site):
    done = subprocess.run([sys.executable, "-m", "simpeval", "-p", "no:nosuch", "evaluate", "--orig", "orig.txt",
                           "--sys", "sys.txt", "-m", "fkgl", "--no-cache"], cwd=polite_site, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0
    assert ('warning: -p no:nosuch switches nothing off: no plugin is called "nosuch" (see `simpeval metrics list`)'
            in done.stderr.splitlines())


def test_a_metric_of_a_switched_off_plugin_is_not_just_unknown(polite_site):
    done = subprocess.run([sys.executable, "-m", "simpeval", "-p", "no:simpeval.metrics.fkgl", "evaluate", "--orig",
                           "orig.txt", "--sys", "sys.txt", "-m", "fkgl", "--no-cache"], cwd=polite_site,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip().endswith('(or it is one of a plugin switched off: drop -p no:simpeval.metrics.fkgl, '
                                        "or its name from $SIMPEVAL_DISABLE_PLUGINS)")
