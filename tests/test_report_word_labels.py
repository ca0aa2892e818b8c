"""``simpeval report`` colours the samples' words by a metric's own labels (``Metric.word_labels`` /
``Metric.label_words``), for any metric that declares them, with a legend; a wrong answer is one line."""

from __future__ import annotations

import re

import pytest

import simpeval
from simpeval.registry import load_registry
from simpeval.report.html import render_html
from simpeval.report.model import build_report


class LongWords(simpeval.Metric):
    """Share of words of 5+ letters; labels those words "long" and words with a digit "number"."""

    name = "long-words"
    calls: list[list[str]] = []
    answer = None  # a wrong answer to return instead, for the contract test

    def _score_items(self, sources, outputs, references=None):
        return {self.name: [sum(len(w) >= 5 for w in o.split()) / max(1, len(o.split())) for o in outputs]}

    def word_labels(self):
        return {"long": "5 letters or more", "number": "holds a digit"}

    def label_words(self, sources, outputs):
        LongWords.calls.append(list(outputs))
        if self.answer is not None:
            return self.answer
        spans = []
        for output in outputs:
            pieces = re.split(r"(\s+)", output)
            spans.append([("number" if any(c.isdigit() for c in p) else "long" if len(p) >= 5 else None, p)
                          for p in pieces if p])
        return spans


class Plugin:
    @simpeval.hookimpl
    def simpeval_register_metrics(self):
        return [LongWords]


SOURCES = ["The enormous feline sat on 2 mats.", "A cat sat.", "Dogs ran quickly home."]
SYSTEMS = [("copy", SOURCES), ("short", ["The cat sat on 2 mats.", "A cat sat.", "Dogs ran home."])]


def _report(metrics, n_samples=1):
    return build_report(load_registry(autoload=False, plugins=[Plugin()]), SOURCES, SYSTEMS, None, metrics,
                        cache=None, n_samples=n_samples, seed=0)


def test_only_the_shown_outputs_are_labelled_once_each_and_coloured_with_a_legend():
    LongWords.calls, LongWords.answer = [], None
    report = _report(["long-words"], n_samples=1)
    shown = sorted({s.index for s in report.samples})
    assert len(shown) < len(SOURCES) and LongWords.calls == [[SYSTEMS[k][1][i] for k in range(2) for i in shown]]
    assert set(report.labelled_words[0].spans) == {(k, i) for k in range(2) for i in shown}
    report = _report(["long-words"], n_samples=3)
    (labelled,) = report.labelled_words
    assert labelled.metric == "long-words" and list(labelled.legend) == ["long", "number"]
    assert labelled.spans[(0, 0)][:3] == [(None, "The"), (None, " "), ("long", "enormous")]
    page = render_html(report)
    assert '<span class="wl0" title="5 letters or more">long</span>' in page  # the legend, in the metric's order
    assert '<span class="wl1" title="holds a digit">number</span>' in page
    assert 'The <span class="wl0" title="long">enormous</span>' in page
    assert 'on <span class="wl1" title="number">2</span> <span class="wl0" title="long">mats.</span>' in page
    assert page.count('<tr class="labels">') == 2 * len(report.samples)  # under every system's output


def test_a_metric_without_labels_adds_nothing():
    report = _report(["length"])
    assert report.labelled_words == []
    assert 'class="labels"' not in render_html(report) and "wl0" not in render_html(report).split("</style>")[1]


@pytest.mark.parametrize("answer,problem", [
    ([], "labelled the words of 0 outputs"),
    ([[("tall", "x")]] * 6, "something other than"),
    ([[(None, "not the output")]] * 6, "do not join into the output"),
])
def test_a_wrong_answer_is_one_line_naming_the_metric(answer, problem):
    LongWords.answer = answer
    try:
        with pytest.raises(simpeval.UsageError, match=problem) as caught:
            _report(["long-words"], n_samples=3)  # every item shown: 6 outputs
    finally:
        LongWords.answer = None
    assert 'metric "long-words"' in str(caught.value) and "\n" not in str(caught.value)


def test_the_base_metric_labels_nothing():
    from simpeval.metrics.length import Length

    assert Length().word_labels() == {}
    with pytest.raises(NotImplementedError):
        Length().label_words(["a"], ["b"])


def test_without_word_labels_nothing_is_labelled():  # what `report --format markdown` asks: it shows no colours
    LongWords.calls, LongWords.answer = [], None
    report = build_report(load_registry(autoload=False, plugins=[Plugin()]), SOURCES, SYSTEMS, None, ["long-words"],
                          cache=None, n_samples=1, word_labels=False)
    assert report.labelled_words == [] and LongWords.calls == []
