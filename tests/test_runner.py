"""The runner: spec parsing, sub-score selection, batching, caching and resuming."""

from __future__ import annotations

import pytest

import simpeval
from simpeval.cache import ScoreCache
from simpeval.registry import load_registry
from simpeval.runner import evaluate, parse_metric_specs, resolve_metrics


class WordRatio(simpeval.Metric):
    """Output words per source word; counts its calls so tests can see the cache work."""

    name = "word-ratio"
    sub_scores = ("word-ratio", "word-ratio-out")
    options = {"scale": simpeval.Option(float, default=1.0, help="multiplier")}
    presets = {"paper": {"scale": 100.0}}
    calls = 0

    def _score_items(self, sources, outputs, references=None):
        type(self).calls += 1
        return {
            "word-ratio": [self.scale * len(o.split()) / max(1, len(s.split())) for s, o in zip(sources, outputs)],
            "word-ratio-out": [float(len(o.split())) for o in outputs],
        }


class RefCount(simpeval.Metric):
    name = "ref-count"
    requires_references = True
    corpus_level = True

    def _score_items(self, sources, outputs, references=None):
        return {"ref-count": [float(len(r)) for r in references]}

    def _score_corpus(self, sources, outputs, references=None):
        return {"ref-count": float(sum(map(len, references)))}


class Plugin:
    @simpeval.hookimpl
    def simpeval_register_metrics(self):
        return [WordRatio, RefCount]


@pytest.fixture
def registry():
    WordRatio.calls = 0
    return load_registry(autoload=False, plugins=[Plugin()])


def test_specs_split_metrics_and_their_options():
    assert parse_metric_specs(["bleu,bertscore:model=/m,layer=6,sari", "fkgl"]) == [
        ("bleu", {}), ("bertscore", {"model": "/m", "layer": "6"}), ("sari", {}), ("fkgl", {})
    ]


def test_option_without_metric_is_a_usage_error():
    with pytest.raises(simpeval.UsageError, match="names no metric"):
        parse_metric_specs(["layer=6"])


def test_sub_scores_of_one_metric_share_an_instance(registry):
    requests = resolve_metrics(registry, ["word-ratio-out,word-ratio"])
    assert len(requests) == 1
    assert requests[0].report == ["word-ratio-out", "word-ratio"]


def test_preset_then_options(registry):
    [request] = resolve_metrics(registry, ["word-ratio"], preset="paper")
    assert request.metric.scale == 100.0
    [request] = resolve_metrics(registry, ["word-ratio:scale=2"], preset="paper")
    assert request.metric.signature() == f"word-ratio|formula:1|lang:en|scale:2.0|version:{simpeval.__version__}"


def test_unknown_metric_option_and_preset(registry):
    with pytest.raises(simpeval.UsageError, match='unknown metric "word-ratoi": did you mean word-ratio'):
        resolve_metrics(registry, ["word-ratoi"])
    with pytest.raises(simpeval.UsageError, match='has no option "scal"'):
        resolve_metrics(registry, ["word-ratio:scal=2"])
    with pytest.raises(simpeval.UsageError, match="option \"scale\" expects float, got 'big'"):
        resolve_metrics(registry, ["word-ratio:scale=big"])
    with pytest.raises(simpeval.UsageError, match='unknown preset "nope"'):
        resolve_metrics(registry, ["word-ratio"], preset="nope")


def test_scores_corpus_means_and_signatures(registry):
    requests = resolve_metrics(registry, ["word-ratio", "ref-count"])
    result = evaluate(requests, ["a b", "a b c d", ""], ["a", "a b", ""], [["x"], ["x", "y"], []])
    assert result.sentence_scores["word-ratio"] == [0.5, 0.5, 0.0]
    assert result.corpus_scores["word-ratio"] == pytest.approx(1 / 3)
    assert result.corpus_scores["ref-count"] == 3.0  # the metric's own corpus formula, not a mean
    assert result.signatures["ref-count"].startswith("ref-count|nrefs:var|")


def test_missing_references_and_length_mismatch(registry):
    [request] = resolve_metrics(registry, ["ref-count"])
    with pytest.raises(simpeval.UsageError, match="needs references"):
        evaluate([request], ["a"], ["a"], None)
    with pytest.raises(simpeval.UsageError, match="2 sources but 1 outputs"):
        evaluate([request], ["a", "b"], ["a"], [["a"]])


def test_cache_skips_finished_batches(registry, tmp_path):
    cache = ScoreCache(tmp_path)
    sources = [f"w{i} x y" for i in range(10)]
    outputs = [f"w{i}" for i in range(10)]
    first = evaluate(resolve_metrics(registry, ["word-ratio"]), sources, outputs, cache=cache, batch_size=4)
    assert WordRatio.calls == 3
    again = evaluate(resolve_metrics(registry, ["word-ratio"]), sources, outputs, cache=cache, batch_size=4)
    assert WordRatio.calls == 3 and again.sentence_scores == first.sentence_scores
    # a changed option changes the signature, hence the key: everything is recomputed
    evaluate(resolve_metrics(registry, ["word-ratio:scale=3"]), sources, outputs, cache=cache, batch_size=4)
    assert WordRatio.calls == 6


def test_interrupted_run_resumes_from_last_finished_batch(registry, tmp_path):
    cache = ScoreCache(tmp_path)
    sources = [f"w{i} x" for i in range(9)]
    outputs = [f"w{i}" if i != 7 else "BOOM" for i in range(9)]

    class Interrupted(Exception):
        pass

    original = WordRatio._score_items

    def flaky(self, s, o, r=None):
        if "BOOM" in o:
            raise Interrupted
        return original(self, s, o, r)

    WordRatio._score_items = flaky
    try:
        with pytest.raises(Interrupted):
            evaluate(resolve_metrics(registry, ["word-ratio"]), sources, outputs, cache=cache, batch_size=3)
    finally:
        WordRatio._score_items = original
    assert WordRatio.calls == 2  # batches 0-2 and 3-5 finished and were stored
    evaluate(resolve_metrics(registry, ["word-ratio"]), sources, outputs, cache=cache, batch_size=3)
    assert WordRatio.calls == 3  # only the batch 6-8 was scored again
    assert not list(tmp_path.rglob("*.tmp"))


def test_corrupt_cache_entry_is_recomputed(registry, tmp_path):
    cache = ScoreCache(tmp_path)
    evaluate(resolve_metrics(registry, ["word-ratio"]), ["a b"], ["a"], cache=cache)
    [entry] = [p for p in tmp_path.rglob("*.json")]
    entry.write_text("{truncated")
    result = evaluate(resolve_metrics(registry, ["word-ratio"]), ["a b"], ["a"], cache=cache)
    assert result.sentence_scores["word-ratio"] == [0.5] and WordRatio.calls == 2


def test_no_items_give_empty_scores(registry):
    result = evaluate(resolve_metrics(registry, ["word-ratio"]), [], [])
    assert result.sentence_scores == {"word-ratio": [], "word-ratio-out": []}
    assert result.corpus_scores["word-ratio"] != result.corpus_scores["word-ratio"]  # NaN: nothing to average
