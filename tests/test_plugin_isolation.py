"""Plugin isolation with real installed distributions, one per fault kind, all installed at once.

Each fault is reported against its plugin (``metrics list``, ``datasets list``, one warning line
elsewhere) while ``--help``, ``metrics list``, ``evaluate`` and ``meta-evaluate`` keep working;
``-p no:NAME`` and ``$SIMPEVAL_DISABLE_PLUGINS`` switch plugins off. The last distribution is the
third-party dataset plugin of docs/plugin-authors.md, installed as the guide writes it.
"""

from __future__ import annotations

import json
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from test_plugins import _distribution

PLUGINS = {
    "raising-metrics": '''
import simpeval

@simpeval.hookimpl
def simpeval_register_metrics():
    raise ValueError("metrics hook broken on purpose")
''',
    "raising-datasets": '''
import simpeval

@simpeval.hookimpl
def simpeval_register_datasets():
    raise KeyError("datasets hook broken on purpose")
''',
    "raising-commands": '''
import click
import simpeval

@simpeval.hookimpl
def simpeval_register_commands(cli, train):
    @cli.command("half-added")
    def half_added():
        """Added before the hook raises: must not appear."""

    raise RuntimeError("commands hook broken on purpose")
''',
    "misspelled-hook": '''
import simpeval

@simpeval.hookimpl
def simpeval_register_metric():
    return []
''',
    "bad-scores": '''
import simpeval

class WrongCount(simpeval.Metric):
    name = "wrong-count"

    def _score_items(self, sources, outputs, references=None):
        return {"wrong-count": [1.0] * (len(outputs) + 1)}

class Stringy(simpeval.Metric):
    name = "stringy"

    def _score_items(self, sources, outputs, references=None):
        return {"stringy": ["0.5" for _ in outputs]}

class EmptyCorpus(simpeval.Metric):
    name = "empty-corpus"
    corpus_level = True

    def _score_items(self, sources, outputs, references=None):
        return {"empty-corpus": [0.0 for _ in outputs]}

    def _score_corpus(self, sources, outputs, references=None):
        return {}

@simpeval.hookimpl
def simpeval_register_metrics():
    return [WrongCount, Stringy, EmptyCorpus]
''',
    "colliding": '''
import simpeval

class MySari(simpeval.Metric):
    name = "my-sari"
    sub_scores = ("my-sari", "sari-add")

    def _score_items(self, sources, outputs, references=None):
        return {"my-sari": [0.0 for _ in outputs], "sari-add": [0.0 for _ in outputs]}

class Fine(simpeval.Metric):
    name = "fine-metric"

    def _score_items(self, sources, outputs, references=None):
        return {"fine-metric": [float(len(o)) for o in outputs]}

@simpeval.hookimpl
def simpeval_register_metrics():
    return [MySari, Fine]
''',
}

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "plugin-authors.md"


def guide_dataset_plugin() -> str:
    """The dataset plugin of docs/plugin-authors.md, as written there (the first Python block of its section)."""
    section = GUIDE.read_text(encoding="utf-8").split("## A dataset plugin", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


GOOD_METRIC = '''
import simpeval

class LengthRatio(simpeval.Metric):
    name = "length-ratio"

    def _score_items(self, sources, outputs, references=None):
        return {"length-ratio": [len(o.split()) / max(1, len(s.split())) for s, o in zip(sources, outputs)]}

@simpeval.hookimpl
def simpeval_register_metrics():
    return [LengthRatio]
'''

TOY_ROWS = [  # id, system, original, output, simplicity
    ("1", "a", "the big cat sat down on the mat", "the cat sat", 80),
    ("1", "b", "the big cat sat down on the mat", "the big cat sat down on the mat", 20),
    ("2", "a", "it rained heavily all day long", "it rained", 70),
    ("2", "b", "it rained heavily all day long", "it rained all day", 55),
    ("3", "a", "he walked slowly to the old station", "he walked to the station", 60),
    ("3", "b", "he walked slowly to the old station", "he walked slowly to the old train station", 10),
]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """Every faulty distribution, the working length-ratio metric and the toy dataset, installed."""
    root = tmp_path_factory.mktemp("isolation")
    projects = [_distribution(root, name, name.replace("-", "_"), code) for name, code in PLUGINS.items()]
    projects.append(_distribution(root, "length-ratio", "length_ratio", GOOD_METRIC))
    projects.append(_distribution(root, "toy-ratings", "toy_ratings", guide_dataset_plugin()))
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "--no-index",
         "--target", str(root / "site"), *map(str, projects)],
        check=True, capture_output=True,
    )
    return root / "site"


@pytest.fixture(scope="module")
def texts(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("texts")
    (root / "orig.txt").write_text("one two three four\nfive six\n")
    (root / "sys.txt").write_text("one two\nfive six\n")
    data = root / "data"
    (data / "toy").mkdir(parents=True)
    lines = ["id,system,original,output,simplicity", *(",".join(map(str, row)) for row in TOY_ROWS)]
    (data / "toy" / "ratings.csv").write_text("\n".join(lines) + "\n")
    return {"orig": root / "orig.txt", "sys": root / "sys.txt", "data": data}


def simpeval(site: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    full_env = {**os.environ, "PYTHONPATH": str(site), **(env or {})}
    for name in ("SIMPEVAL_DISABLE_PLUGIN_AUTOLOAD", "SIMPEVAL_DISABLE_PLUGINS"):
        if name not in (env or {}):
            full_env.pop(name, None)
    return subprocess.run([sys.executable, "-m", "simpeval", *map(str, args)], env=full_env,
                          capture_output=True, text=True, timeout=120)


EXPECTED_ERRORS = {
    "raising-metrics": 'Error in simpeval_register_metrics of simpeval plugin "raising-metrics": '
                       "ValueError: metrics hook broken on purpose",
    "raising-datasets": 'Error in simpeval_register_datasets of simpeval plugin "raising-datasets": '
                        "KeyError: 'datasets hook broken on purpose'",
    "raising-commands": 'Error in simpeval_register_commands of simpeval plugin "raising-commands": '
                        "RuntimeError: commands hook broken on purpose",
    "misspelled-hook": 'Error loading simpeval plugin "misspelled-hook": unknown hook '
                       "'simpeval_register_metric' in plugin",
    "colliding": 'Error registering simpeval plugin "colliding": sub-score "sari-add" of metric "my-sari" is '
                 'already a score of metric "sari" (simpeval 0.1.0): rename it',
}


@pytest.mark.slow
def test_metrics_list_reports_each_fault_against_its_plugin(site):
    done = simpeval(site, "metrics", "list", "--format", "json")
    assert done.returncode == 0, done.stderr
    listing = json.loads(done.stdout)
    errors = listing["errors"]
    for plugin, expected in EXPECTED_ERRORS.items():
        [error] = [e for e in errors if f'plugin "{plugin}"' in e]
        assert error.startswith(expected), error
    assert len(errors) == len(EXPECTED_ERRORS)
    rows = {row["name"]: row for row in listing["metrics"]}
    assert "my-sari" not in rows and rows["sari"]["provided by"] == "simpeval 0.1.0"
    assert rows["fine-metric"]["status"] == "plugin error"  # registered, but its plugin had a fault
    assert rows["length-ratio"]["status"] == "ok" and rows["wrong-count"]["status"] == "ok"
    assert done.stderr == ""  # the listing shows the faults; no warnings on top


def test_table_listings_name_the_plugin_and_its_distribution(site):
    for command in ("metrics", "datasets"):
        done = simpeval(site, command, "list")
        assert done.returncode == 0, done.stderr
        fault_lines = [line for line in done.stdout.splitlines() if line.startswith('plugin "')]
        assert len(fault_lines) == len(EXPECTED_ERRORS)
        assert 'plugin "raising-datasets" (raising-datasets 1.2.3): Error in simpeval_register_datasets' \
            in done.stdout
    assert "toy-ratings" in done.stdout


def test_help_survives_and_warns_once_per_fault(site):
    done = simpeval(site, "--help")
    assert done.returncode == 0, done.stderr
    assert "evaluate" in done.stdout and "half-added" not in done.stdout
    warnings = done.stderr.splitlines()
    assert len(warnings) == len(EXPECTED_ERRORS)
    assert all(w.startswith("warning: Error ") and " (switch it off with -p no:" in w for w in warnings)


def test_evaluate_runs_with_every_broken_plugin_installed(site, texts):
    done = simpeval(site, "evaluate", "--orig", texts["orig"], "--sys", texts["sys"], "-m", "length-ratio,fine-metric",
                    "--sentence-level", "--format", "csv")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["index,length-ratio,fine-metric", "0,0.5,7.0", "1,1.0,8.0"]
    # neither class sets `version`: the signatures (and cache keys) carry their distributions' versions
    assert "# length-ratio|formula:1|lang:en|version:1.2.3" in done.stderr.splitlines()
    assert "# fine-metric|formula:1|lang:en|version:1.2.3" in done.stderr.splitlines()


@pytest.mark.parametrize("metric, problem", [
    ("wrong-count", "returned 3 wrong-count scores for 2 items"),
    ("stringy", "returned a str ('0.5') as a stringy score"),
    ("empty-corpus", "returned no empty-corpus score"),
])
def test_a_metric_that_answers_wrongly_is_one_line_naming_its_plugin(site, texts, metric, problem):
    done = simpeval(site, "evaluate", "--orig", texts["orig"], "--sys", texts["sys"], "-m", metric, "--no-cache")
    assert done.returncode == 2
    [error] = [line for line in done.stderr.splitlines() if not line.startswith("warning: ")]
    assert error == (f'Error: metric "{metric}" (bad-scores 1.2.3) {problem}: '
                     "report it to the authors of bad-scores or switch it off with -p no:bad-scores")
    assert done.stdout == ""


def test_plugins_switched_off_by_option_and_environment(site):
    broken = ["raising-metrics", "raising-datasets", "raising-commands", "misspelled-hook", "colliding"]
    options = [arg for name in broken[:3] for arg in ("-p", f"no:{name}")]
    done = simpeval(site, *options, "metrics", "list", "--format", "json",
                    env={"SIMPEVAL_DISABLE_PLUGINS": ",".join(broken[3:])})
    assert done.returncode == 0, done.stderr
    listing = json.loads(done.stdout)
    assert listing["errors"] == []
    assert sorted(listing["disabled"]) == sorted(broken)
    assert "fine-metric" not in {row["name"] for row in listing["metrics"]}
    strict = simpeval(site, *options, "metrics", "list", "--strict",
                      env={"SIMPEVAL_DISABLE_PLUGINS": ",".join(broken[3:])})
    assert strict.returncode == 0 and strict.stderr == ""
    quiet_help = simpeval(site, *options, "--help", env={"SIMPEVAL_DISABLE_PLUGINS": ",".join(broken[3:])})
    assert quiet_help.returncode == 0 and quiet_help.stderr == ""


def test_a_built_in_plugin_can_be_switched_off(site):
    done = simpeval(site, "-p", "no:simpeval.metrics.bertscore", "metrics", "list", "--format", "json")
    assert "bertscore" not in {row["name"] for row in json.loads(done.stdout)["metrics"]}


def test_bad_plugin_option_is_one_line(site):
    done = simpeval(site, "-p", "raising-metrics", "metrics", "list")
    assert done.returncode == 2
    assert done.stderr.strip() == ("Error: Invalid value for '-p': 'raising-metrics': write -p no:NAME to "
                                   "switch plugin NAME off (see `simpeval --help`)")


def test_third_party_dataset_plugin_meta_evaluates(site, texts):
    """The toy dataset of the plugin guide, correlated with length-ratio: Pearson r against statistics'."""
    done = simpeval(site, "meta-evaluate", "--dataset", "toy-ratings", "--data-dir", texts["data"],
                    "-m", "length-ratio", "--split", "none", "--format", "json", "--no-cache")
    assert done.returncode == 0, done.stderr
    [record] = json.loads(done.stdout)
    ratios = [len(out.split()) / len(orig.split()) for _, _, orig, out, _ in TOY_ROWS]
    expected = statistics.correlation(ratios, [row[4] for row in TOY_ROWS])
    assert record["metric"] == "length-ratio" and record["n"] == 6
    assert record["r"] == pytest.approx(expected, abs=1e-12)
