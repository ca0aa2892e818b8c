"""iBLEU, FKBLEU and the BLEU-SARI means: formulas over their components, and reuse of statistics."""

from __future__ import annotations

import math

import pytest

from simpeval import UsageError
from simpeval.registry import load_registry
from simpeval.metrics import bleu as bleu_module
from simpeval.metrics import sari as sari_module
from simpeval.metrics.bleu import Bleu, BleuSource
from simpeval.metrics.combined import BleuSariAmean, BleuSariGmean, FkBleu, IBleu
from simpeval.metrics.fkgl import Fkgl
from simpeval.metrics.sari import Sari
from simpeval.run import Run

SOURCES = [
    "The incumbent was defeated by a considerable margin in the election.",
    "It rained heavily, so the match was postponed until further notice.",
]
OUTPUTS = ["The incumbent lost the election by a lot.", "It rained a lot. The match was put off."]
REFERENCES = [
    ["The incumbent lost the election by a wide margin.", "The leader lost the vote badly."],
    ["It rained hard, so the match was delayed.", "The match was put off because of rain."],
]
ARGS = (SOURCES, OUTPUTS, REFERENCES)


def test_ibleu_is_the_weighted_difference_of_its_bleus() -> None:
    to_refs = Bleu().sentence_scores(*ARGS)["bleu"]
    to_source = BleuSource().sentence_scores(SOURCES, OUTPUTS)["bleu-source"]
    expected = [0.9 * r - 0.1 * s for r, s in zip(to_refs, to_source)]
    assert IBleu().sentence_scores(*ARGS)["ibleu"] == pytest.approx(expected, abs=1e-12)
    half = IBleu(alpha=0.5).sentence_scores(*ARGS)["ibleu"]
    assert half == pytest.approx([0.5 * r - 0.5 * s for r, s in zip(to_refs, to_source)])


def test_metaeval_ibleu_uses_exp_smoothing_against_the_source() -> None:
    settings = load_registry(autoload=False).presets["metaeval-2021"].settings
    metric = IBleu(**settings["ibleu"])
    preset = settings["bleu"]
    to_refs = Bleu(**preset).sentence_scores(*ARGS)["bleu"]
    source_settings = {**preset, "smooth": "exp", "effective_order": False}
    to_source = BleuSource(**source_settings).sentence_scores(SOURCES, OUTPUTS)["bleu-source"]
    assert metric.sentence_scores(*ARGS)["ibleu"] == pytest.approx(
        [0.9 * r - 0.1 * s for r, s in zip(to_refs, to_source)], abs=1e-12
    )
    assert "source_smooth:exp|source_eff:no" in metric.signature()


def test_fkbleu_scales_ibleu_by_the_sigmoid_of_the_grade_change() -> None:
    ibleu = IBleu().sentence_scores(*ARGS)["ibleu"]
    fkgl = Fkgl()
    out, src = fkgl.grades(OUTPUTS), fkgl.grades(SOURCES)
    expected = [i / (1 + math.exp(-(o - s))) for i, o, s in zip(ibleu, out, src)]
    assert FkBleu().sentence_scores(*ARGS)["fkbleu"] == pytest.approx(expected, abs=1e-12)


def test_bleu_sari_means() -> None:
    bleu = Bleu().sentence_scores(*ARGS)["bleu"]
    sari = Sari().sentence_scores(*ARGS)["sari"]
    assert BleuSariAmean().sentence_scores(*ARGS)["bleu-sari-amean"] == pytest.approx(
        [(b + s) / 2 for b, s in zip(bleu, sari)]
    )
    assert BleuSariGmean().sentence_scores(*ARGS)["bleu-sari-gmean"] == pytest.approx(
        [math.sqrt(b * s) for b, s in zip(bleu, sari)]
    )
    assert BleuSariAmean().signature().startswith("bleu-sari-amean|formula:1|lang:en|bleu_tok:13a|bleu_lc:no")
    assert "|sari_tok:13a|sari_lc:yes|sari_del:f1|" in BleuSariAmean().signature()


def test_composites_reuse_the_component_statistics() -> None:
    run = Run()
    store = run.store

    def score(metric):
        metric.bind_run(run)
        metric.sentence_scores(*ARGS)

    score(Bleu())
    score(Sari())
    bleu_entries = store.count(bleu_module.bleu_stats)
    sari_entries = store.count(sari_module.sari_stats)
    score(IBleu())
    score(BleuSariAmean())
    score(BleuSariGmean())
    # iBLEU only adds the BLEU-against-source statistics (one per item); the means add none.
    assert store.count(bleu_module.bleu_stats) == bleu_entries + len(OUTPUTS)
    assert store.count(sari_module.sari_stats) == sari_entries


@pytest.mark.parametrize("cls", [IBleu, FkBleu])
def test_alpha_outside_zero_one_is_a_usage_error(cls: type[IBleu]) -> None:
    assert cls(alpha=0.0).alpha == 0.0 and cls(alpha=1.0).alpha == 1.0
    with pytest.raises(UsageError) as error:
        cls(alpha="1.5")
    assert str(error.value) == f'option "alpha" of {cls.name} must be between 0 and 1, got 1.5'
