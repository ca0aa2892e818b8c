"""``cefr-lr``: its features against their definitions (wordfreq as the oracle of the frequencies), its score
as the shipped linear model of them, and its correlation on TextComplexityDE (German, never trained on)
as docs/benchmarks/cefr-lr.md reports it."""

from __future__ import annotations

import math

import numpy as np
import pytest
from wordfreq import zipf_frequency

from simpeval.errors import UsageError
from simpeval.metaeval.engine import Settings
from simpeval.metaeval.run import Request, run_meta_evaluation
from simpeval.metrics.cefr_lr import CefrLr, features
from simpeval.metrics.cefr_lr_weights import WEIGHTS
from simpeval.registry import load_registry


def test_features_follow_their_definitions():
    found = features("Der Hund schläft. Er träumt.", "de")
    freqs = [zipf_frequency(w, "de") for w in ("der", "hund", "schläft", "er", "träumt")]
    expected = [math.log1p(5), 22 / 5, 1 / 5, math.log1p(5 / 2), np.mean(freqs),
                sum(f < 3 for f in freqs) / 5, min(freqs)]
    assert found == pytest.approx(expected)
    assert np.isnan(features("...", "de")).all()


def test_the_score_is_the_shipped_linear_model():
    texts = ["Das ist gut.", "Die Wiedervereinigung Deutschlands erforderte langwierige Verhandlungen."]
    scores = CefrLr(lang="de").sentence_scores(texts, texts)["cefr-lr"]
    for text, score in zip(texts, scores):
        standard = (features(text, "de") - np.array(WEIGHTS["mean"])) / np.array(WEIGHTS["scale"])
        assert score == pytest.approx(float(standard @ np.array(WEIGHTS["coef"]) + WEIGHTS["intercept"]))
    assert scores[0] < scores[1]
    with pytest.raises(UsageError, match="cefr-lr"):
        CefrLr(lang="es")


def test_textcomplexityde_as_its_card_reports(data_dir):
    report = run_meta_evaluation(load_registry(), Request(dataset="textcomplexityde", data_dir=data_dir,
                                                          metrics=["cefr-lr"], split="none", settings=Settings()))
    assert report.result.record("cefr-lr", "All").r == pytest.approx(0.796, abs=0.0005)


@pytest.mark.parametrize("name", ["readmepp-ar", "readmepp-en", "readmepp-hi", "textcomplexityde"])
def test_the_baselines_of_rated_texts_are_the_languages_leaderboards_non_learned_scores(data_dir, name):
    """The judge compares cefr-lr on a dataset of single texts with what the languages leaderboard correlates
    there (every installed score that reads a text alone with rules for its language), less the learned ones."""
    from simpeval.cli.leaderboard import default_metrics
    from simpeval.learning.baselines import baseline_specs
    from simpeval.leaderboard.run import _usable

    registry = load_registry()
    dataset = registry.dataset_class(name)(data_dir)
    board, _ = default_metrics(registry, neural=False, level="languages")
    usable, _ = _usable(registry, board, dataset)
    expected = sorted(s for s in usable if not registry.metric_class(s).trained_on)
    assert sorted(baseline_specs(registry, False, dataset.lang, texts=True)) == expected
    assert "cefr-lr" not in expected and expected


def test_textcomplexityde_rows_rejudged_equal_the_record(data_dir):
    """The shipped model's held-out rows, judged again now (scores through the registry in German, baselines,
    item-key overlap with ReadMe++), are the stored ones."""
    from simpeval.learning.baselines import baseline_scores
    from simpeval.learning.heldout import judge_metric, text_items
    from simpeval.learning.record import load_record

    registry = load_registry()
    items = text_items(registry.dataset_class("textcomplexityde")(data_dir))
    baselines = {items.name: baseline_scores(items.sources, items.outputs, None, registry, lang="de", texts=True)}
    rows = []
    for aspect in ("complexity", "understandability", "lexical-difficulty"):
        found, unknown = judge_metric(CefrLr, {"cefr-lr": aspect}, [items], registry, data_dir, baselines)
        assert unknown == []
        rows += [row.to_json() for row in found]
    assert rows == load_record(CefrLr)["sections"]["heldout"]["rows"]
    assert rows[0]["r"] == pytest.approx(0.796, abs=0.0005) and rows[0]["baseline"] == "rix"
