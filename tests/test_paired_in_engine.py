"""Paired tests and all pairs run inside the engine, on the per-item statistics it collected while scoring:
nothing is recomputed afterwards, a second run reads them from the cache, ``--jobs`` computes them in its
workers, and the numbers equal those of the statistics recomputed from the texts (as the tests did before).
One system's ``--paired-bs`` (or ``--confidence``) gives its interval; too few resamples for an interval is
one line naming ``--paired-n``."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from simpeval import significance
from simpeval.allpairs import MetricStatistics, Settings, compare_all_pairs
from simpeval.cache import ScoreCache
from simpeval.cli import cli
from simpeval.allpairs import statistics
from simpeval.engine.compare import resampling_work
from simpeval.metrics.bleu import Bleu
from simpeval.engine.parallel import open_executor
from simpeval.registry import load_registry
from simpeval.runner import compare_systems, resolve_metrics

SOURCES = [f"The old committee approved plan number {i} after a very long debate ." for i in range(30)]
BASE = [" ".join(s.split()[: 3 + i % 7]) + " ." for i, s in enumerate(SOURCES)]
BETTER = [" ".join(s.split()[1 : 8 + i % 5]) + " ." for i, s in enumerate(SOURCES)]
THIRD = [" ".join(s.split()[2 : 9 + i % 3]) for i, s in enumerate(SOURCES)]
REFERENCES = [[f"The committee approved plan {i} after a long debate ."] for i in range(30)]
SYSTEMS = [("base", BASE), ("better", BETTER), ("third", THIRD)]


@pytest.fixture
def calls(monkeypatch):
    """How often BLEU computes per-item statistics (per call: the items it was given)."""
    made: list[int] = []
    original = Bleu._item_statistics

    def counting(self, sources, outputs, references=None):
        made.append(len(outputs))
        return original(self, sources, outputs, references)

    monkeypatch.setattr(Bleu, "_item_statistics", counting)
    return made


def _requests():
    return resolve_metrics(load_registry(autoload=False), ["bleu", "fkgl"])


def _recomputed(request, outputs):
    """A system's statistics as the paired tests computed them before: from the texts, after scoring."""
    stats = request.metric.corpus_statistics(SOURCES, outputs, REFERENCES)
    return np.asarray(stats, dtype=float)


def test_the_paired_test_resamples_what_the_engine_collected(calls, tmp_path):
    requests = _requests()
    compare_systems(requests, SOURCES, SYSTEMS[:2], REFERENCES, sentence_level=True, batch_size=7)
    scoring_alone = sum(calls)
    calls.clear()
    cache = ScoreCache(tmp_path / "cache")
    first = compare_systems(requests, SOURCES, SYSTEMS[:2], REFERENCES, test="bs", n_resamples=200, seed=3,
                            cache=cache, batch_size=7)
    # the test's statistics come from the scoring's own call per batch (sums and rows at once), none after
    assert sum(calls) == scoring_alone
    calls.clear()
    again = compare_systems(requests, SOURCES, SYSTEMS[:2], REFERENCES, test="bs", n_resamples=200, seed=3,
                            cache=cache, batch_size=7)
    assert calls == []  # every per-item statistic came from the cache
    for system, repeated, (_, outputs) in zip(first.systems, again.systems, SYSTEMS):
        stats, _ = statistics(requests[0], system.result)
        np.testing.assert_array_equal(stats, _recomputed(requests[0], outputs))
        assert system.intervals == repeated.intervals and system.tests == repeated.tests
    base, scorer = statistics(requests[0], first.baseline.result)
    [expected] = significance.paired_bootstrap(_recomputed(requests[0], BASE), _recomputed(requests[0], BETTER),
                                               scorer, np.random.default_rng(3), 200)
    assert first.systems[1].tests["bleu"] == expected


def test_parallel_workers_collect_the_same_statistics():
    requests = _requests()
    serial = compare_systems(requests, SOURCES, SYSTEMS[:2], REFERENCES, test="ar", n_resamples=300, batch_size=8)
    with open_executor(2) as executor:
        parallel = compare_systems(requests, SOURCES, SYSTEMS[:2], REFERENCES, test="ar", n_resamples=300,
                                   batch_size=8, executor=executor)
    for a, b in zip(serial.systems, parallel.systems):
        assert a.result.item_statistics == b.result.item_statistics
        assert a.tests == b.tests and a.intervals == b.intervals


def test_all_pairs_run_in_the_engine_equal_the_recomputed_statistics(calls):
    requests = _requests()
    settings = Settings(n_bootstrap=300, seed=5)
    ticks: list[int] = []
    compare_systems(requests, SOURCES, SYSTEMS, REFERENCES, sentence_level=True)
    scoring_alone = sum(calls)
    calls.clear()
    comparison = compare_systems(requests, SOURCES, SYSTEMS, REFERENCES, all_pairs=settings)
    assert sum(calls) == scoring_alone
    bleu = requests[0]
    _, scorer = statistics(bleu, comparison.baseline.result)
    sentence = [np.array([system.result.sentence_scores["bleu"]]).T for system in comparison.systems]
    reference = compare_all_pairs([name for name, _ in SYSTEMS],
                                  [MetricStatistics(["bleu"], [True], [_recomputed(bleu, out) for _, out in SYSTEMS],
                                                    scorer, sentence)],
                                  n_bootstrap=300, seed=5, tick=ticks.append)
    assert comparison.all_pairs.rankings["bleu"] == reference.rankings["bleu"]
    assert comparison.all_pairs.pairs["bleu"] == reference.pairs["bleu"]
    assert set(comparison.all_pairs.rankings) == {"bleu", "fkgl"}
    assert sum(ticks) == settings.work(3, 1)


def test_the_progress_total_is_what_the_tests_draw():
    requests = _requests()
    comparison = compare_systems(requests, SOURCES, SYSTEMS, REFERENCES, test="bs", n_resamples=40)  # keeps them
    from simpeval.engine.compare import run_tests

    for test, n in (("bs", 120), ("ar", 250)):
        ticks: list[int] = []
        run_tests(comparison, requests, test, n, 1, tick=ticks.append)
        assert sum(ticks) == resampling_work(test, 3, n, len(requests))


def _files(tmp_path):
    paths = {}
    for name, lines in (("orig", SOURCES), ("base", BASE), ("better", BETTER), ("ref", [r[0] for r in REFERENCES])):
        paths[name] = tmp_path / f"{name}.txt"
        paths[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    return paths


def _evaluate(paths, *args):
    return CliRunner().invoke(cli, ["evaluate", "--orig", str(paths["orig"]), "--refs", str(paths["ref"]),
                                    "-m", "bleu", "--no-cache", *args])


@pytest.mark.parametrize("flag", ["--paired-bs", "--confidence"])
def test_one_system_gets_its_confidence_interval(tmp_path, flag):
    paths = _files(tmp_path)
    done = _evaluate(paths, "--sys", str(paths["base"]), flag, "--paired-n", "200", "--format", "json")
    assert done.exit_code == 0, done.output
    [record] = json.loads(done.stdout)["results"]
    assert record["low"] < record["score"] < record["high"]
    requests = resolve_metrics(load_registry(autoload=False), ["bleu"])
    comparison = compare_systems(requests, SOURCES, [("base", BASE)], REFERENCES, test="bs", n_resamples=200)
    interval = comparison.baseline.intervals["bleu"]
    assert (record["low"], record["high"]) == (interval.low, interval.high)
    table = _evaluate(paths, "--sys", str(paths["base"]), flag)
    assert table.exit_code == 0 and "p-value" not in table.output and "percentile interval" in table.output


@pytest.mark.parametrize("args", [["--paired-bs", "--paired-n", "1"], ["--confidence", "--paired-n", "39"],
                                  ["--all-pairs", "--paired-n", "5"]])
def test_too_few_resamples_for_an_interval_is_one_line(tmp_path, args):
    paths = _files(tmp_path)
    done = _evaluate(paths, "--sys", str(paths["base"]), "--sys", str(paths["better"]), *args)
    assert done.exit_code == 2 and "--paired-n" in done.output and "40" in done.output
    assert len(done.output.strip().splitlines()) == 1


def test_forty_resamples_give_an_interval_around_the_score(tmp_path):
    paths = _files(tmp_path)
    done = _evaluate(paths, "--sys", str(paths["base"]), "--paired-bs", "--paired-n", "40", "--format", "json")
    [record] = json.loads(done.stdout)["results"]
    assert record["low"] <= record["score"] <= record["high"]


def test_paired_ar_with_one_system_names_the_remedy(tmp_path):
    paths = _files(tmp_path)
    done = _evaluate(paths, "--sys", str(paths["base"]), "--paired-ar")
    assert done.exit_code == 2 and "--paired-bs or --confidence with one system" in done.output
