"""The Metric contract: public templates over protected steps, DESIGN.md's plugin example scoring as
written, signatures naming the formula and the language, composites checking once, and the checks a
metric class passes when a plugin registers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import types
import warnings
from pathlib import Path

import pytest

import simpeval
from simpeval.metrics.base import Metric
from simpeval.metrics.bleu import Bleu
from simpeval.metrics.combined import BleuSariAmean, BleuSariGmean, FkBleu, IBleu
from simpeval.metrics.composite import Composite
from simpeval.registry import load_registry
from simpeval.runner import evaluate, resolve_metrics

SOURCES = ["one two three four", "five six seven", "eight"]
OUTPUTS = ["one two", "five six", "eight nine ten"]
REFS = [["one two three"], ["five six"], ["eight nine"]]

# The third-party plugin of DESIGN.md (it implements score_sentences, the name DESIGN.md documents)
DESIGN_PLUGIN = '''
import simpeval

class LengthRatio(simpeval.Metric):
    name = "length-ratio"
    requires_references = False

    def score_sentences(self, sources, outputs, references=None):
        return {"length-ratio": [len(o.split()) / max(1, len(s.split()))
                                 for s, o in zip(sources, outputs)]}

@simpeval.hookimpl
def simpeval_register_metrics():
    return [LengthRatio]
'''


def _module(name: str, code: str) -> types.ModuleType:
    module = types.ModuleType(name)
    exec(compile(code, name, "exec"), module.__dict__)
    return module


def test_the_design_md_plugin_scores_as_written_without_a_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        plugin = _module("design_plugin", DESIGN_PLUGIN)
    registry = load_registry(autoload=False, plugins=[plugin])
    assert not registry.failures
    result = evaluate(resolve_metrics(registry, ["length-ratio"]), SOURCES, OUTPUTS)
    assert result.sentence_scores["length-ratio"] == [0.5, 2 / 3, 3.0]
    assert result.corpus_scores["length-ratio"] == pytest.approx((0.5 + 2 / 3 + 3.0) / 3)
    metric = registry.create_metric("length-ratio")
    assert metric.sentence_scores(SOURCES, OUTPUTS) == {"length-ratio": [0.5, 2 / 3, 3.0]}
    with pytest.raises(simpeval.UsageError, match="1 sources but 2 outputs"):  # the template checks its inputs
        metric.sentence_scores(SOURCES[:1], OUTPUTS[:2])


@pytest.mark.parametrize("old", ["score_corpus", "additive_statistics", "score_from_statistics", "component_scores",
                                 "bind_store"])
def test_no_simpeval_0_1_name_is_left(old):
    """No 0.1 was ever released: its method names are gone, not kept behind deprecation warnings."""
    assert not hasattr(Bleu(), old)


def test_new_metrics_raise_no_deprecation_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        registry = load_registry()
        result = evaluate(resolve_metrics(registry, ["bleu", "sari", "fkgl", "ibleu", "fkbleu", "bleu-sari-gmean"]),
                          SOURCES, OUTPUTS, REFS)
    assert set(result.corpus_scores) >= {"bleu", "sari", "fkgl", "ibleu", "fkbleu", "bleu-sari-gmean"}


def test_metric_is_abstract():
    with pytest.raises(TypeError, match="_score_items"):
        Metric()


def test_composites_share_one_base_and_check_their_inputs_once(monkeypatch):
    assert all(issubclass(cls, Composite) for cls in (IBleu, FkBleu, BleuSariAmean, BleuSariGmean))
    checks = []
    monkeypatch.setattr(Metric, "check_inputs", lambda self, *args: checks.append(self.name))
    FkBleu().sentence_scores(SOURCES, OUTPUTS, REFS)
    assert checks == ["fkbleu"]  # its BLEUs and FKGL are reached through their protected steps


# ----------------------------------------------------------------------
# Validation when a plugin registers
# ----------------------------------------------------------------------

FAULTY_PLUGIN = '''
import simpeval


class Good(simpeval.Metric):
    name = "good"
    def _score_items(self, sources, outputs, references=None):
        return {"good": [1.0] * len(outputs)}


class ShadowsStore(Good):
    name = "shadows-store"
    options = {"store": simpeval.Option(str, "x")}


class ShadowsSignature(Good):
    name = "shadows-signature"
    options = {"signature": simpeval.Option(str, "x")}


class ShadowsAMethod(Good):
    name = "shadows-a-method"
    options = {"words": simpeval.Option(int, 1)}
    def words(self, text):
        return text.split()


class StatisticsOnly(Good):
    name = "statistics-only"
    def _item_statistics(self, sources, outputs, references=None):
        return [(1,) for _ in outputs]


class NoScoringStep(simpeval.Metric):
    name = "no-scoring-step"


class UnlocatableDefault(Good):
    name = "unlocatable-default"
    options = {"checkpoint": simpeval.Option(str, "packaged", path=True)}
    def fingerprint(self, option_name, value):
        return "packaged@0"


@simpeval.hookimpl
def simpeval_register_metrics():
    return [Good, ShadowsStore, ShadowsSignature, ShadowsAMethod, StatisticsOnly, NoScoringStep, UnlocatableDefault]
'''

EXPECTED_FAULTS = [
    'option "store" of metric "shadows-store" would hide the attribute ShadowsStore.store: rename the option',
    'option "signature" of metric "shadows-signature" would hide the attribute ShadowsSignature.signature: '
    "rename the option",
    'option "words" of metric "shadows-a-method" would hide the attribute ShadowsAMethod.words: rename the option',
    'metric "statistics-only" implements _item_statistics but not _score_from_totals, which scores their sums: '
    "implement both, or neither",
    'metric "no-scoring-step" does not implement _score_items: implement it (see docs/plugin-authors.md)',
]
UNLOCATABLE = ('metric "unlocatable-default" cannot locate the default "packaged" of its option "checkpoint", so '
               '"weights missing" may be wrong: override locate_model (or missing_weights) to say where that model is')


def test_registration_reports_each_broken_contract_on_one_line_and_keeps_the_rest():
    registry = load_registry(autoload=False, plugins=[_module("faulty", FAULTY_PLUGIN)])
    [info] = registry.failures
    assert info.errors == [f'Error registering simpeval plugin "faulty": {fault}' for fault in EXPECTED_FAULTS]
    assert "good" in registry.metrics and "bleu" in registry.metrics
    assert not set(registry.metrics) & {"shadows-store", "statistics-only", "no-scoring-step"}
    # a default nobody can locate only misleads the listing: the metric registers, with a note
    assert "unlocatable-default" in registry.metrics and info.notes == [UNLOCATABLE]


def test_a_shipped_checkpoint_name_is_located_where_the_metric_says(tmp_path):
    (tmp_path / "model.safetensors").write_bytes(b"weights")
    code = FAULTY_PLUGIN.replace('''        return "packaged@0"
''', f'''        return "packaged@0"
    @classmethod
    def locate_model(cls, option_name, value):
        return {str(tmp_path)!r} if value == "packaged" else value
''')
    registry = load_registry(autoload=False, plugins=[_module("fixed", code)])
    assert registry.info("fixed").notes == []
    assert registry.metrics["unlocatable-default"].missing_weights() == []
    (tmp_path / "model.safetensors").unlink()
    assert registry.metrics["unlocatable-default"].missing_weights() == ["packaged"]


def test_metrics_list_shows_the_faults_and_the_other_plugins(tmp_path):
    project = tmp_path / "faulty-plugin"
    (project / "faulty_plugin").mkdir(parents=True)
    (project / "faulty_plugin" / "__init__.py").write_text("")
    (project / "faulty_plugin" / "plugin.py").write_text(FAULTY_PLUGIN)
    (project / "setup.cfg").write_text(textwrap.dedent("""\
        [metadata]
        name = faulty-plugin
        version = 1.0

        [options]
        packages = faulty_plugin

        [options.entry_points]
        simpeval =
            faulty = faulty_plugin.plugin
        """))
    (project / "pyproject.toml").write_text('[build-system]\nrequires = ["setuptools"]\n'
                                            'build-backend = "setuptools.build_meta"\n')
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "--no-index",
                    "--target", str(site), str(project)], check=True, capture_output=True)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).resolve().parents[1]), str(site),
                                                        os.environ.get("PYTHONPATH", "")])}
    env.pop("SIMPEVAL_DISABLE_PLUGIN_AUTOLOAD", None)
    done = subprocess.run([sys.executable, "-m", "simpeval", "metrics", "list", "--format", "json"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    listing = json.loads(done.stdout)
    ours = [error for error in listing["errors"] if '"faulty"' in error]  # other installed plugins may have faults
    assert ours == [f'Error registering simpeval plugin "faulty": {f}' for f in EXPECTED_FAULTS]
    assert [note for note in listing["notes"] if "unlocatable-default" in note] == [UNLOCATABLE]
    statuses = {row["name"]: row["status"] for row in listing["metrics"]}
    assert statuses["good"] == "plugin error" and statuses["bleu"] == "ok"
    table = subprocess.run([sys.executable, "-m", "simpeval", "metrics", "list"], env=env, capture_output=True,
                           text=True, timeout=120)
    assert f'note: plugin "faulty" (faulty-plugin 1.0): {UNLOCATABLE}' in table.stdout.splitlines()
    if "lens-mini" in statuses:  # shipped checkpoints are found where the plugin keeps them
        assert statuses["lens-mini"] == statuses["lens-cla-mini"] == "ok"



class _RewritesEverything(Metric):
    """Writes into every list it is handed: sources, outputs, the reference list and each item's references."""
    name = "rewrites-everything"
    requires_references = True

    def _score_items(self, sources, outputs, references=None):
        for texts in (sources, outputs, *references):
            texts[:] = ["" for _ in texts]
        references[:] = [[] for _ in references]
        return {self.name: [1.0 for _ in outputs]}


def test_a_metric_writing_into_its_references_changes_no_other_metrics_numbers():
    """Issue 28 (high 3) with references too: sari, fkgl and bleu read what the user gave whichever runs first."""
    registry = load_registry(autoload=False)
    registry.metrics[_RewritesEverything.name] = _RewritesEverything
    orig = [f"The old committee approved plan number {i} after a very long and difficult debate ." for i in range(8)]
    out = [f"The committee approved plan {i} after a long debate ." for i in range(8)]
    refs = [[f"The committee approved plan {i} ." for i in range(8)], [f"Plan {i} was approved ." for i in range(8)]]
    alone = simpeval.evaluate(orig, out, refs, "sari,fkgl,bleu", cache=False, registry=registry).corpus_scores
    first = simpeval.evaluate(orig, out, refs, "rewrites-everything,sari,fkgl,bleu", cache=False,
                              registry=registry).corpus_scores
    last = simpeval.evaluate(orig, out, refs, "sari,fkgl,bleu,rewrites-everything", cache=False,
                             registry=registry).corpus_scores
    assert alone["sari"] > 0 and alone["fkgl"] > 0 and alone["bleu"] > 0
    for scores in (first, last):
        assert {k: scores[k] for k in alone} == alone
