"""One meta-evaluation end to end through the library call: system level, averaged aspects, ties."""

from __future__ import annotations

import numpy as np
import pytest

from simpeval.metaeval.engine import Settings
from simpeval.metaeval.run import Request, run_meta_evaluation
from simpeval.metaeval.stats import correlation
from simpeval.registry import load_registry
from simpeval.runner import evaluate, resolve_metrics


@pytest.fixture(scope="module")
def registry():
    return load_registry()


def test_system_level_correlates_corpus_scores_with_mean_human_scores(registry, data_dir):
    request = Request(dataset="structural-simplicity", data_dir=data_dir, metrics=["bleu"], aspect="average",
                      level="system", preset="metaeval-2021")
    report = run_meta_evaluation(registry, request)
    record = report.result.record("bleu", "All")
    assert record.n == 25
    # independently: corpus BLEU of each system's 70 outputs vs the mean of its G/M/S averages
    dataset = report.dataset
    systems = list(dict.fromkeys(item.system for item in dataset.items))
    human = dataset.human_scores("average")
    refs, sources = dataset.references("hsplit"), dataset.metric_sources("hsplit")
    requests = resolve_metrics(registry, ["bleu"], "metaeval-2021")
    bleu, means = [], []
    for system in systems:
        idx = [i for i, item in enumerate(dataset.items) if item.system == system]
        result = evaluate(requests, [sources[i] for i in idx], [dataset.outputs[i] for i in idx],
                          [refs[i] for i in idx], sentence_level=False)
        bleu.append(result.corpus_scores["bleu"])
        means.append(np.mean(human[idx]))
    assert record.r == pytest.approx(correlation(np.array(bleu), np.array(means))[0])


def test_average_aspect_of_structural_simplicity_is_mean_of_g_m_s(registry, data_dir):
    dataset = registry.dataset_class("structural-simplicity")(data_dir)
    parts = [dataset.human_scores(a) for a in ("grammaticality", "meaning", "simplicity")]
    np.testing.assert_allclose(dataset.human_scores("average"), np.mean(parts, axis=0), atol=5e-7)
    # means of 3 ratings on 3 aspects are multiples of 1/9: rounding keeps equal ones equal
    assert len(np.unique(dataset.human_scores("average"))) == 33


def test_tie_aware_split_on_structural_simplicity(registry, data_dir):
    request = Request(dataset="structural-simplicity", data_dir=data_dir, metrics=["fkgl"], ties="exclude",
                      preset="metaeval-2021", settings=Settings(significance="none"))
    report = run_meta_evaluation(registry, request)
    assert report.result.record("fkgl", "Low").n == 361
    assert report.result.record("fkgl", "High").n == 556
    assert any("833 of 1750 items at the median" in w for w in report.result.warnings)
