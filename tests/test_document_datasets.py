"""The rated document data of Maddela & Alva-Manchego (2025): dwiki-2025, cochrane-pairs, the perturbation sets,
and the pair statistics behind ``meta-evaluate`` on pairs."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from simpeval.cli import cli
from simpeval.metaeval.pairwise import pair_agreement
from simpeval.testing import shared_data_dir


@pytest.fixture(scope="module")
def data():
    return shared_data_dir("documents/dwiki-ratings")


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_pair_agreement_by_hand():
    first = np.array([1.0, 2.0, 3.0, 5.0, np.nan])
    second = np.array([2.0, 1.0, 3.0, 4.0, 1.0])
    second_preferred = np.array([True, True, False, False, False])
    # pair 1: prefers the second, as judged; 2: prefers the first, wrongly; 3: tie; 4: prefers the first, rightly;
    # 5: not finite, left out
    higher = pair_agreement(first, second, second_preferred)
    assert (higher.agree, higher.ties, higher.n) == (0.5, 0.25, 4)
    lower = pair_agreement(first, second, second_preferred, higher_is_better=False)  # pairs 2 right, 1 and 4 wrong
    assert (lower.agree, lower.ties, lower.n) == (0.25, 0.25, 4)
    ranged = pair_agreement(first, second, second_preferred, bootstrap=200, rng=np.random.default_rng(1))
    assert 0.0 <= ranged.ci_low <= ranged.agree <= ranged.ci_high <= 1.0
    assert pair_agreement(first[4:], second[4:], second_preferred[4:]).n == 0


def test_dwiki_2025_reads_ratings_and_own_references(data):
    from simpeval.datasets.dwiki import DWiki2025

    dataset = DWiki2025(data)
    assert len(dataset) == 522
    assert dataset.aspects == ("simplicity", "simplicity-word", "simplicity-sent", "meaning", "grammar")
    first = json.loads((data / DWiki2025.files[0]).read_text(encoding="utf-8").split("\n", 1)[0])
    overall = next(r for r in first["ratings"] if r["name"] == "simplicity-overall")
    assert dataset.human_scores("simplicity")[0] == pytest.approx(overall["agg_value"])
    assert list(dataset.ratings("simplicity").value[:3]) == overall["value"]
    assert dataset.references()[0] == first["references"]
    assert dataset.level == "document"


def test_meta_evaluate_dwiki_aspects(data):
    result = run("meta-evaluate", "--dataset", "dwiki-2025", "-m", "fkgl", "--aspect", "grammar", "--split", "none",
                 "--format", "json", "--data-dir", data)
    assert result.exit_code == 0, result.output
    (record,) = json.loads(result.stdout)
    assert record["metric"] == "fkgl" and record["n"] == 522 and -1 <= record["r"] <= 1
    wrong = run("meta-evaluate", "--dataset", "dwiki-2025", "-m", "fkgl", "--aspect", "fluency", "--data-dir", data)
    assert wrong.exit_code == 2 and "grammar" in wrong.output


def test_cochrane_pairs_accuracy(data):
    result = run("meta-evaluate", "--dataset", "cochrane-pairs", "-m", "fkgl", "--format", "json",
                 "--data-dir", data)
    assert result.exit_code == 0, result.output
    (record,) = json.loads(result.stdout)
    assert record["dataset"] == "cochrane-pairs" and record["n"] == 120
    assert 0 <= record["ci_low"] <= record["accuracy"] <= record["ci_high"] <= 1


def test_cochrane_pairs_prefer_the_second_when_the_majority_says_1(data):
    from simpeval.datasets.dwiki import CochranePairs

    dataset = CochranePairs(data)
    records = [json.loads(line) for line in (data / CochranePairs.files[0]).read_text(encoding="utf-8").splitlines()]
    assert len(dataset.pairs) == 120
    assert dataset.pairs.second_preferred.tolist() == [r["ratings"][0]["agg_value"] == 1 for r in records]
    assert dataset.outputs[1] == records[0]["simplification2"]


def test_perturbations_json_has_one_record_per_metric_and_set(data):
    result = run("meta-evaluate", "--perturbations", "-m", "bleu,sari,fkgl", "--format", "json", "--data-dir", data)
    assert result.exit_code == 0, result.output
    records = json.loads(result.stdout)
    assert len(records) == 27
    assert {r["metric"] for r in records} == {"bleu", "sari", "fkgl"}
    assert len({r["perturbation"] for r in records}) == 9
    for r in records:
        assert {"perturbation", "metric", "prefers_unperturbed", "ties", "n"} <= set(r)
        assert 0 <= r["prefers_unperturbed"] <= 1 and 0 <= r["ties"] <= 1 and r["n"] == 60
        assert r["prefers_unperturbed"] + r["ties"] <= 1
    # four coherence pairs hold the same text twice: every metric ties on them
    assert all(r["ties"] >= 4 / 60 for r in records if r["perturbation"] == "coherence")


def test_perturbations_and_dataset_exclude_each_other(data):
    both = run("meta-evaluate", "--perturbations", "--dataset", "dwiki-2025", "-m", "fkgl", "--data-dir", data)
    assert both.exit_code == 2 and "drop one" in both.output
    neither = run("meta-evaluate", "-m", "fkgl", "--data-dir", data)
    assert neither.exit_code == 2 and "--perturbations" in neither.output


def test_the_python_api_refuses_to_correlate_a_pairwise_dataset(data):
    import simpeval

    with pytest.raises(simpeval.UsageError, match="pairwise dataset"):
        simpeval.meta_evaluate("cochrane-pairs", ["fkgl"], data_dir=data, cache=False)
