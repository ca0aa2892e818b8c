"""The rated non-English datasets on the real files (DEplain ratings, TextComplexityDE, ReadMe++), and
meta-evaluation of datasets of single rated texts (kind "text": a text's readability)."""

from __future__ import annotations

import numpy as np
import pytest

from simpeval.errors import UsageError
from simpeval.metaeval.engine import Settings
from simpeval.metaeval.run import Request, run_meta_evaluation
from simpeval.registry import load_registry

# items per split in the released ReadMe++ workbooks (trailing empty rows skipped)
READMEPP_COUNTS = {"ar": (1543, 196, 206), "en": (2243, 283, 296), "fr": (1319, 165, 185),
                   "hi": (1179, 149, 163), "ru": (1404, 176, 178)}


@pytest.fixture(scope="module")
def registry():
    return load_registry()


def test_deplain_ratings(registry, data_dir):
    dataset = registry.dataset_class("deplain-ratings")(data_dir)
    assert len(dataset) == 384 and dataset.lang == "de" and dataset.kind == "rated"
    first = dataset.items[0]
    assert first.key == ("54-1-1-3", "54-0-1-3") and first.output.endswith("mit Energie zu versorgen.")
    assert "GPS-Geräte" in first.source  # UTF-8
    assert dataset.human_scores("simplicity")[:2].tolist() == [1.0, 2.0]
    assert dataset.human_scores("meaning")[0] == 5.0
    # the README's table: DEplain-web simplicity 1.04 +- 0.82, meaning preservation 4.29 +- 0.93
    assert dataset.human_scores("simplicity").mean() == pytest.approx(1.04, abs=0.005)
    assert dataset.human_scores("meaning").mean() == pytest.approx(4.29, abs=0.005)
    assert "GPL-3.0" in dataset.licence


def test_textcomplexityde_reads_cp1252(registry, data_dir):
    dataset = registry.dataset_class("textcomplexityde")(data_dir)
    assert len(dataset) == 1000 and dataset.kind == "text" and dataset.lang == "de"
    assert dataset.items[1].key == ("4",)
    assert dataset.items[1].output == "Als Nebenprodukt entstand damals natürlich auch die erste Seifenblase."
    assert dataset.items[1].source == dataset.items[1].output
    assert dataset.human_scores("complexity")[0] == pytest.approx(1.888888889)
    assert dataset.human_scores("lexical-difficulty")[1] == pytest.approx(3.2)
    assert dataset.human_scores("understandability")[-1] == 1.0  # the Leichte-Sprache sentences are easy
    pairs = registry.dataset_class("textcomplexityde-pairs")(data_dir)
    assert len(pairs) == 250 and pairs.items[0].key == ("5",)
    assert pairs.items[0].source.startswith("Wegen dieser leichten Vergänglichkeit wurde ,Seifenblase‘")
    assert np.bincount(pairs.human_scores("simpler").astype(int)).tolist() == [1, 135, 114]


@pytest.mark.parametrize("lang", sorted(READMEPP_COUNTS))
def test_readmepp(registry, data_dir, lang):
    dataset = registry.dataset_class(f"readmepp-{lang}")(data_dir)
    splits = dataset.item_splits()
    counts = tuple(splits.count(s) for s in ("train", "validation", "test"))
    assert counts == READMEPP_COUNTS[lang] and dataset.lang == lang and dataset.default_split == "test"
    cefr = dataset.human_scores("cefr")
    assert set(np.unique(cefr)) == {1.0, 2.0, 3.0, 4.0, 5.0, 6.0}
    test = dataset.only_split("test")
    assert len(test) == counts[2] and test.keys[0] == ("test", "2") and test.item_splits() == ["test"] * counts[2]
    if lang == "fr":
        assert test.items[0].output.startswith("Robert Wallace au XIIIe siècle") and test.human_scores("cefr")[0] == 4
        assert test.items[0].system_type == "Wikipedia"


def _report(registry, data_dir, dataset, metrics, **options):
    settings = Settings(bootstrap=200, rank=True)
    return run_meta_evaluation(registry, Request(dataset=dataset, data_dir=data_dir, metrics=metrics,
                                                 settings=settings, **options))


def test_meta_evaluate_readmepp_fr_on_its_test_split(registry, data_dir):
    report = _report(registry, data_dir, "readmepp-fr", ["lix", "rix", "length", "fre"])
    assert len(report.dataset) == 185 and "its test split only (185 of 1669 items" in report.result.warnings[0]
    rec = {m: report.result.record(m, "All") for m in ("lix", "rix", "length", "fre")}
    assert rec["lix"].r == pytest.approx(0.653, abs=0.0005) and rec["lix"].n == 185
    assert rec["rix"].r == pytest.approx(0.641, abs=0.0005)
    assert rec["fre"].r == pytest.approx(-0.609, abs=0.0005)  # Kandel-Moles: higher = easier
    assert rec["lix"].ci_low < rec["lix"].r < rec["lix"].ci_high
    assert rec["lix"].rank == 1 and rec["fre"].rank is not None
    assert "lang:fr" in report.signatures["lix"]


def test_meta_evaluate_textcomplexityde(registry, data_dir):
    report = _report(registry, data_dir, "textcomplexityde", ["rix", "lix", "wiener-sachtextformel-1"], split="none")
    rec = {m: report.result.record(m, "All") for m in ("rix", "lix", "wiener-sachtextformel-1")}
    assert rec["rix"].r == pytest.approx(0.738, abs=0.0005) and rec["rix"].n == 1000
    assert rec["lix"].r == pytest.approx(0.657, abs=0.0005)
    assert rec["wiener-sachtextformel-1"].r == pytest.approx(0.532, abs=0.0005)
    assert rec["rix"].rank == 1 and rec["wiener-sachtextformel-1"].rank > 1  # a significantly worse cluster
    assert rec["rix"].ci_low < rec["rix"].r < rec["rix"].ci_high


def test_text_datasets_refuse_metrics_that_compare_texts(registry, data_dir):
    for spec, usable in (("sari", "none of its scores"), ("qe", "qe-lexical-complexity"),
                         ("length-compression", "length, length-sentences")):
        with pytest.raises(UsageError) as info:
            _report(registry, data_dir, "textcomplexityde", [spec])
        assert "rates single texts" in str(info.value) and usable in str(info.value)
        assert "\n" not in str(info.value)
    with pytest.raises(UsageError, match="rates single texts, not the outputs of systems: use --level sentence"):
        _report(registry, data_dir, "textcomplexityde", ["rix"], level="system")


def test_text_datasets_default_to_output_only_scores(registry, data_dir):
    report = run_meta_evaluation(registry, Request(dataset="readmepp-ru", data_dir=data_dir,
                                                   settings=Settings(), split="none"))
    names = report.result.metrics
    assert {"lix", "rix", "oborneva", "length", "qe-lexical-complexity"} <= set(names)
    assert not {"length-compression", "sari", "fkgl"} & set(names)  # fkgl: English only
