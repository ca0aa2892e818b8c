"""The one evaluation engine: every entry point runs its items through
:func:`simpeval.engine.execute.score_source`, and a plan that cannot run is refused first."""

from __future__ import annotations

import io
import sys

import pytest
from click.testing import CliRunner

import simpeval
from simpeval.cli import cli
from simpeval.engine import execute as engine
from simpeval.engine.metrics import MetricRequest
from simpeval.engine.plan import Plan, System
from simpeval.engine.sources import LineFileSource, MemorySource
from simpeval.errors import UsageError
from simpeval.metrics.base import Metric
from simpeval.registry import load_registry
from simpeval.runner import compare_systems, evaluate, resolve_metrics

SOURCES = [f"The committee approved plan number {i} after a long debate ." for i in range(12)]
OUTPUTS = [f"The committee approved plan {i} ." for i in range(12)]
REFERENCES = [[f"The committee approved plan {i} after a debate ."] for i in range(12)]


@pytest.fixture
def scored(monkeypatch):
    """The number of items each call of ``score_source`` was given, in call order."""
    calls: list[int | None] = []
    original = engine.score_source

    def spy(requested, source, run, **kwargs):
        calls.append(source.count())
        return original(requested, source, run, **kwargs)

    monkeypatch.setattr(engine, "score_source", spy)
    return calls


def test_every_way_in_scores_through_the_engine(scored, tmp_path, data_dir):
    registry = load_registry(autoload=False)
    evaluate(resolve_metrics(registry, ["bleu"]), SOURCES, OUTPUTS, REFERENCES)
    assert scored == [12]
    compare_systems(resolve_metrics(registry, ["bleu"]), SOURCES, [("a", OUTPUTS), ("b", SOURCES)], REFERENCES,
                    test="bs", n_resamples=40)
    assert scored[1:] == [12, 12]
    for name, lines in (("orig", SOURCES), ("sys", OUTPUTS), ("ref", [r[0] for r in REFERENCES])):
        (tmp_path / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    paths = {"orig": tmp_path / "orig.txt", "sys": tmp_path / "sys.txt", "refs": [tmp_path / "ref.txt"]}
    simpeval.evaluate_files(**paths, metrics="bleu", cache=False, registry=registry)
    assert scored[3:] == [12]
    done = CliRunner().invoke(cli, ["evaluate", "--orig", str(paths["orig"]), "--sys", str(paths["sys"]),
                                    "--refs", str(paths["refs"][0]), "-m", "bleu", "--no-cache"])
    assert done.exit_code == 0, done.output
    assert scored[4:] == [12]
    done = CliRunner().invoke(cli, ["report", "--orig", str(paths["orig"]), "--sys", str(paths["sys"]),
                                    "--refs", str(paths["refs"][0]), "-m", "bleu", "--format", "markdown",
                                    "--no-cache", "-o", str(tmp_path / "report.md")])
    assert done.exit_code == 0, done.output
    assert scored[5:] == [12, 12]  # the metrics, then the features
    report = simpeval.meta_evaluate("simplicity-da", "fkgl", data_dir=data_dir, cache=False, registry=registry)
    assert scored[7:] == [len(report.human)]


class WholeCorpus(Metric):
    """Its corpus score needs every item at once (no additive statistics): the number of outputs."""

    name = "whole-corpus"
    requires_references = False
    corpus_level = True

    def _score_items(self, sources, outputs, references=None):
        return {"whole-corpus": [1.0] * len(outputs)}

    def _score_corpus(self, sources, outputs, references=None):
        return {"whole-corpus": float(len(outputs))}


def test_standard_input_read_whole_for_a_corpus_formula_counts_its_items(tmp_path, monkeypatch):
    (tmp_path / "orig.txt").write_text("\n".join(SOURCES) + "\n", encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(("\n".join(OUTPUTS) + "\n").encode())))
    plan = Plan([MetricRequest(WholeCorpus(), ["whole-corpus"])],
                [System("stdin", LineFileSource(str(tmp_path / "orig.txt"), "-"))], batch_size=5)
    result = engine.execute(plan)
    assert result.corpus_scores == {"whole-corpus": 12.0} and result.n_items == 12


def test_a_plan_that_cannot_run_is_refused_before_any_input_is_read():
    requests = [MetricRequest(WholeCorpus(), ["whole-corpus"])]
    with pytest.raises(UsageError, match="no system outputs"):
        engine.execute(Plan(requests, []))
    one = [System("a", MemorySource(SOURCES, OUTPUTS))]
    with pytest.raises(UsageError, match="--paired-ar needs a baseline and at least one more system"):
        engine.execute(Plan(requests, one, test="ar"))  # one system's bootstrap intervals: --paired-bs
    with pytest.raises(ValueError, match="unknown paired test 'tt'"):
        engine.execute(Plan(requests, one * 2, test="tt"))


def test_a_run_s_own_cache_is_the_one_used(tmp_path):
    from simpeval.cache import ScoreCache
    from simpeval.run import Run

    requests = resolve_metrics(load_registry(autoload=False), ["bleu"])
    with Run(cache=ScoreCache(tmp_path / "cache")) as run:
        evaluate(requests, SOURCES, OUTPUTS, REFERENCES, run=run)
        with pytest.raises(ValueError, match="give the cache and the executor to the Run"):
            evaluate(requests, SOURCES, OUTPUTS, REFERENCES, cache=ScoreCache(tmp_path / "other"), run=run)
    assert list((tmp_path / "cache").rglob("*.json")) and not (tmp_path / "other").exists()
