"""D-SARI against the authors' reference implementation (Sun et al. 2021's ``D_SARI.py``).

``documents/dwiki-ratings/d_sari_oracle.json`` holds the script's scores (x 100, NLTK 3.8.1, English
Punkt) of the first 40 D-Wikipedia documents of ``dwiki_final.jsonl``; simpeval must give them to
1e-9 through the command (documents as ``.jsonl``, one ``--refs`` file per reference) and the API.
"""

from __future__ import annotations

import json
import math

import pytest
from click.testing import CliRunner

import simpeval
from simpeval.cli import cli
from simpeval.metrics.dsari import d_sari
from simpeval.testing import shared_data_dir


@pytest.fixture(scope="module")
def oracle():
    folder = shared_data_dir("documents/dwiki-ratings") / "documents" / "dwiki-ratings"
    values = json.loads((folder / "d_sari_oracle.json").read_text(encoding="utf-8"))["values"]
    with open(folder / "dwiki_final.jsonl", encoding="utf-8") as handle:
        records = [json.loads(line) for _, line in zip(range(len(values)), handle)]
    return records, [v["d_sari"] for v in sorted(values, key=lambda v: v["index"])]


def _write(tmp_path, records):
    paths = {}
    for name, text_of in (("orig", lambda r: r["original"]), ("sys", lambda r: r["simplification"]),
                          ("ref", lambda r: r["references"][0])):
        paths[name] = tmp_path / f"{name}.jsonl"
        paths[name].write_text("".join(json.dumps({"id": f"d{i}", "text": text_of(r)}) + "\n"
                                       for i, r in enumerate(records)), encoding="utf-8")
    return paths


def test_the_command_gives_the_authors_scores(tmp_path, oracle):
    records, expected = oracle
    assert all(len(r["references"]) == 1 for r in records)  # one --refs file serves them all
    paths = _write(tmp_path, records)
    result = CliRunner().invoke(cli, ["evaluate", "--orig", str(paths["orig"]), "--sys", str(paths["sys"]),
                                      "--refs", str(paths["ref"]), "-m", "d-sari", "--sentence-level",
                                      "--format", "json"])
    assert result.exit_code == 0, result.output
    scores = json.loads(result.stdout)["sentences"]["d-sari"]
    assert scores == pytest.approx(expected, abs=1e-9, rel=0)


def test_the_api_gives_the_authors_scores(tmp_path, oracle):
    records, expected = oracle
    paths = _write(tmp_path, records[:10])
    result = simpeval.evaluate_files(paths["orig"], paths["sys"], [paths["ref"]], "d-sari", cache=False)
    assert result.sentence_scores["d-sari"] == pytest.approx(expected[:10], abs=1e-9, rel=0)


def test_penalties_by_hand():
    """Worked by hand from the script's formulas (n_refs = 1, so counts are not scaled)."""
    source = "the old man walked slowly home ."
    output = "the man walked home ."
    # same length and sentence count as the reference: no penalty. keep: orders 1 and 2 all right, 3 and 4
    # nothing kept (0.5); deletion: every deleted n-gram right (1); addition: nothing added at order 1,
    # every added n-gram right at orders 2-4 (0.75)
    assert d_sari(source, output, [output]) == pytest.approx((75.0, 50.0, 100.0, 75.0), abs=1e-12)
    # a reference of 6 tokens in 2 sentences: LP1 = exp((5 - 6) / 5) on addition, SLP = exp(-1/2) on keep;
    # keep still 0.5, deletion 1; addition F1 per order: 0, (1/2, 1/3) -> 0.4, (1/3, 1/4) -> 2/7, 0
    score, keep, delete, add = d_sari(source, output, ["the man walked . home ."])
    assert keep == pytest.approx(50 * math.exp(-0.5), abs=1e-12)
    assert delete == pytest.approx(100.0, abs=1e-12)
    assert add == pytest.approx(100 * (0.4 + 2 / 7) / 4 * math.exp(-0.2), abs=1e-12)
    assert score == pytest.approx((keep + delete + add) / 3, abs=1e-12)


def test_an_empty_output_scores_without_dividing_by_zero():
    score, keep, delete, add = d_sari("A long sentence here.", "", ["A short one."])
    assert math.isfinite(score) and add == 0.0
