"""Every better/worse label follows a declared direction; features without one get no label (issue 28).

PBMT-R was "better" on qe-levenshtein (similarity to the original) beside "worse" on qe-exact-copies and
ops-kept: a higher similarity was read as better only because it was not declared otherwise.
"""

from __future__ import annotations

import numpy as np

from simpeval.allpairs import MetricStatistics, compare_all_pairs
from simpeval.registry import load_registry
from simpeval.runner import compare_systems, resolve_metrics
from simpeval.significance import mean_statistics

SOURCES = [f"The committee , which met on day {i} , approved the long and complicated plan ." for i in range(40)]
COPIES = list(SOURCES)  # a system that copies its input
SIMPLER = [f"The committee approved the plan on day {i} ." for i in range(40)]


def test_features_are_declared_without_a_direction():
    registry = load_registry(autoload=False)
    qe, ops = registry.metric_class("qe"), registry.metric_class("ops")
    for sub in ("qe-levenshtein", "qe-compression", "qe-splits", "qe-additions", "qe-deletions"):
        assert qe.declared_direction(sub) is None
    assert qe.declared_direction("qe-exact-copies") is False and qe.declared_direction("qe-lexical-complexity") is False
    assert all(ops.declared_direction(sub) is None for sub in ops.score_names())
    assert registry.metric_class("fkgl").declared_direction("fkgl") is False
    assert registry.metric_class("sari").declared_direction("sari-add") is True
    assert qe.is_higher_better("qe-levenshtein") is True  # statistics that must orient every score still can


def test_no_label_contradicts_another():
    requests = resolve_metrics(load_registry(autoload=False), ["qe", "ops"])
    comparison = compare_systems(requests, SOURCES, [("copies", COPIES), ("simpler", SIMPLER)], test="bs",
                                 n_resamples=200)
    simpler = comparison.systems[1]
    verdicts = {sub: test.verdict(comparison.higher_is_better[sub]) for sub, test in simpler.tests.items()}
    assert verdicts["qe-exact-copies"] == "better"  # fewer copies, declared lower-is-better
    assert simpler.tests["qe-levenshtein"].significant()  # the difference is real ...
    for sub in ("qe-levenshtein", "qe-compression", "qe-deletions", "ops-kept", "ops-deleted"):
        assert verdicts[sub] is None  # ... but a feature's difference is no verdict


def test_all_pairs_rank_no_feature():
    rng = np.random.default_rng(0)
    values = [rng.normal(loc, 1, size=(60, 1)) for loc in (0.0, 1.0, 2.0)]
    stats = [mean_statistics(v)[0] for v in values]
    scorer = mean_statistics(values[0])[1]
    feature = MetricStatistics(["qe-compression"], [None], stats, scorer, values)
    result = compare_all_pairs(["a", "b", "c"], [feature], n_bootstrap=200)
    assert [row.rank for row in result.rankings["qe-compression"]] == [None, None, None]
    assert all(pair.wins is None and pair.p_bootstrap < 0.05 for pair in result.pairs["qe-compression"])
