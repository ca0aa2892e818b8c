"""The plugin as a third party uses it: found through the entry point, run by simpeval's runner."""

import pytest
from simpeval_cescore.combine import cescore

from simpeval import UsageError
from simpeval.registry import load_registry
from simpeval.runner import evaluate, resolve_metrics

SOURCES = [
    "The committee, having deliberated for hours, postponed its decision on the proposal.",
    "He cannot attend the meeting because he is ill.",
]
OUTPUTS = [
    "The committee talked for hours. It postponed its decision on the proposal.",
    "He cannot attend the meeting because he is ill.",
]


@pytest.fixture(scope="module")
def registry():
    return load_registry(autoload=True)


def test_entry_point_registers_the_family(registry):
    for name in ("cescore", "cescore-tss", "cescore-semimatch"):
        assert registry.provider[name].distribution == "simpeval-cescore"
    assert registry.metric_class("cescore-g").name == "cescore"
    assert registry.metric_class("cescore-asf").name == "cescore-tss"


def test_runner_scores_and_signatures(registry):
    requests = resolve_metrics(registry, ["cescore", "cescore-sls", "cescore-semimatch:max_n=5"])
    result = evaluate(requests, SOURCES, OUTPUTS, None, sentence_level=True, cache=None, progress=False)
    expected = [cescore(s, o) for s, o in zip(SOURCES, OUTPUTS)]
    assert result.sentence_scores["cescore"] == [e.ce for e in expected]
    assert result.sentence_scores["cescore-g"] == [e.g for e in expected]
    assert result.corpus_scores["cescore-s"] == pytest.approx((expected[0].s + expected[1].s) / 2)
    assert result.sentence_scores["cescore-s"][1] == 0.5  # unchanged output
    assert "cescore-tss" not in result.sentence_scores   # only the requested sub-score
    assert result.signatures["cescore"] == "cescore|formula:1|lang:en|g0:no|version:0.1.0"
    assert result.signatures["cescore-semimatch"] == "cescore-semimatch|formula:1|lang:en|min_n:4|max_n:5|version:0.1.0"


def test_paper_zero_rule_is_an_option(registry):
    metric = registry.create_metric("cescore", {"ignore_zero_sentences": "yes"})
    source = "the cat sat on the mat and the dog ate the bone"
    scores = metric.sentence_scores([source], ["The cat sat on the mat. The dog ate."])
    assert scores["cescore-g"] == [pytest.approx(0.575)]
    assert metric.signature() == "cescore|formula:1|lang:en|g0:yes|version:0.1.0"


def test_text_simplicity_metric_scores_the_output_alone(registry):
    metric = registry.create_metric("cescore-tss")
    a = metric.sentence_scores(["x", "y"], ["The cat.", "The cat."])
    assert a["cescore-tss"] == [pytest.approx(8.056514476380837, abs=1e-12)] * 2
    assert a["cescore-sls"][0] == pytest.approx(0.9183397445384054, abs=1e-15)  # 2 words


def test_bad_input_is_a_usage_error(registry):
    with pytest.raises(UsageError, match="min_n"):
        registry.create_metric("cescore-semimatch", {"min_n": "1"})
    with pytest.raises(UsageError, match=r"got 5\.\.4: pass min_n=N,max_n=M with 2 <= N <= M"):
        registry.create_metric("cescore-semimatch", {"min_n": "5", "max_n": "4"})
    with pytest.raises(UsageError, match="outputs"):
        registry.create_metric("cescore").sentence_scores(SOURCES, OUTPUTS[:1])


def test_semimatch_needs_no_nltk():
    # SemiMatch's tokens are whitespace tokens: scoring it alone must not load NLTK's tokenizers
    import subprocess
    import sys

    code = (
        "import sys; from simpeval_cescore.metrics import SemiMatchMetric; "
        "s = SemiMatchMetric(min_n=2, max_n=2).sentence_scores(['a b c d .'], ['a b x d .']); "
        "print(s['cescore-semimatch'], 'nltk' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    # bigrams a-b (1), b-x (partial: (2-2)/2 = 0), x-d (0), d-. (1): 2 / 4
    assert done.stdout.split() == ["[0.5]", "False"]
