"""``sari-legacy`` against the corpus SARI values in EASSE's own tests (``tests/test_sari.py``,
``test_corpus_sari_legacy``: legacy TurkCorpus test set, tokenised lower-cased outputs)."""

from __future__ import annotations

import pytest

from simpeval.datasets.testsets import load_test_set
from simpeval.metrics.sari import Sari, SariLegacy

EASSE_LEGACY = {
    "Dress-Ls": 37.266058818588216,
    "Dress": 37.08210095744638,
    "EncDecA": 35.65754396121206,
    "Hybrid": 31.39665078989411,
    "PBMT-R": 38.558843050332037,
    "SBMT-SARI": 39.964857928109127,
}


@pytest.mark.parametrize("system, expected", EASSE_LEGACY.items())
def test_corpus_sari_legacy_equals_easse(data_dir, system, expected):
    test_set = load_test_set(data_dir, "turkcorpus_test_legacy")
    path = data_dir / f"system_outputs/turkcorpus/test/tok.low/{system}.tok.low"
    outputs = path.read_text(encoding="utf-8").splitlines()
    scores = SariLegacy().corpus_score(test_set.sources, outputs, test_set.references)
    assert scores["sari-legacy"] == pytest.approx(expected, abs=1e-9)
    parts = [scores[f"sari-legacy-{op}"] for op in ("add", "keep", "del")]
    assert scores["sari-legacy"] == pytest.approx(sum(parts) / 3)


def test_legacy_leaves_the_original_untokenised_and_the_case_alone():
    # "end." stays one token of the original while the output's "end ." is two: legacy SARI
    # counts a deletion and additions that SARI, tokenising everything, does not see
    args = (["The end."], ["The end."], [["The end."]])
    legacy = SariLegacy().corpus_score(*args)["sari-legacy"]
    assert legacy != pytest.approx(Sari(lowercase=False).corpus_score(*args)["sari"])
    tokenised = (["The end ."], ["The end."], [["The end."]])
    assert SariLegacy().corpus_score(*tokenised)["sari-legacy"] == pytest.approx(
        Sari(lowercase=False).corpus_score(*tokenised)["sari"])
    assert SariLegacy().signature().startswith("sari-legacy|formula:1|lang:en|tok:13a|del:f1|paper:no|")
