"""``wu-arase-2025`` on a synthetic file in exactly the released format (the ratings are not in the shared data)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from simpeval.cli import cli
from simpeval.testing import shared_data_dir

SIMPA = ("The hospital discharged the patient after a lengthy convalescence.",
         "The patient left the hospital after a long recovery.")


def annotations(simplicity, meaning, fluency):
    return {f"annotator_{k + 1}": {"fluency": f, "meaning preservation": m, "simplicity": s}
            for k, (s, m, f) in enumerate(zip(simplicity, meaning, fluency))}


@pytest.fixture()
def data_dir(tmp_path):
    """A data directory with the shared references and a likert_gpt.json and likert_t5.json of 14 records:
    six turk and six asset items on lines 1-6, one SimPA item, and one whose source is not its line's."""
    shared = shared_data_dir("references/asset")
    (tmp_path / "references").symlink_to(shared / "references")
    originals = (shared / "references/asset/asset.test.orig").read_text(encoding="utf-8").splitlines()
    folder = tmp_path / "llm-era" / "wu-arase-2025"
    folder.mkdir(parents=True)
    for model, offset in (("gpt", 0), ("t5", 1)):
        records = []
        for line in range(1, 7):
            source_file = "turk" if line % 2 else "asset"
            rating = [3, 3, 3] if (line + offset) % 3 else [2, 3, 1]  # mostly 3 of 3, as the released ratings
            records.append({"id": line, "source_file": source_file, "source_id": line, "model": model,
                            "source": originals[line - 1], "simple": originals[line - 1].split(",")[0] + ".",
                            "label_annotations": annotations(rating, rating[::-1], [3, 3, 3])})
        records.append({"id": 7, "source_file": "simpa", "source_id": 1, "model": model, "source": SIMPA[0],
                        "simple": SIMPA[1], "label_annotations": annotations([2, 2, 3], [3, 3, 3], [3, 2, 3])})
        (folder / f"likert_{model}.json").write_text(json.dumps(records), encoding="utf-8")
    bad = json.loads((folder / "likert_t5.json").read_text(encoding="utf-8"))
    bad.append({**bad[0], "id": 8, "source_id": 9})  # line 9's original is another sentence
    (folder / "likert_t5.json").write_text(json.dumps(bad), encoding="utf-8")
    return tmp_path


def test_the_loader_reads_the_files_present(data_dir):
    from simpeval.datasets.wuarase import WuArase2025

    dataset = WuArase2025(data_dir)
    assert len(dataset) == 15
    assert dataset.items[0].key == ("1", "gpt") and dataset.items[0].system_type == "turk"
    assert dataset.human_scores("simplicity")[6] == pytest.approx(7 / 3)  # the SimPA item: 2, 2, 3
    refs = dataset.references()
    assert refs[0] == dataset.references("turkcorpus")[0] and len(refs[0]) == 8  # turk: TurkCorpus's 8
    assert len(refs[1]) == 10  # asset: ASSET's 10
    assert refs[6] is None and refs[-1] is None  # SimPA; the mismatched source
    assert dataset.warnings == ["1 item(s) whose source is not the test-set line their source_id names get no "
                                "references: likert_t5.json record 8 (turk 9)"]
    assert dataset.ratings("meaning").matrix().shape == (15, 3)


def test_meta_evaluate_uses_tie_aware_statistics_and_leaves_simpa_out_of_sari(data_dir):
    result = CliRunner().invoke(cli, ["meta-evaluate", "--dataset", "wu-arase-2025", "-m", "sari,fkgl", "--split",
                                      "none", "--data-dir", str(data_dir), "--format", "json"])
    assert result.exit_code == 0, result.output
    records = {r["metric"]: r for r in json.loads(result.stdout)}
    assert records["sari"]["n"] == 12 and records["fkgl"]["n"] == 15  # no references: SimPA, the mismatch
    assert "threshold" in records["fkgl"]  # acc23-opt reports the tie threshold it chose
    assert "record 8 (turk 9)" in result.stderr
    table = CliRunner().invoke(cli, ["meta-evaluate", "--dataset", "wu-arase-2025", "-m", "fkgl", "--split", "none",
                                     "--data-dir", str(data_dir)])
    assert "correlation=acc23-opt" in table.stdout


def test_data_names_the_source(tmp_path):
    result = CliRunner().invoke(cli, ["data", "--data-dir", str(tmp_path)])
    assert ("  wu-arase-2025: llm-era/wu-arase-2025/likert_gpt.json, llm-era/wu-arase-2025/likert_qwen.json, "
            "llm-era/wu-arase-2025/likert_llama.json and 1 more") in result.output
    assert ("github.com/WuXuanxin/human-eval-llm-simplification/tree/main/annotation/likert/exclude_newsela"
            in result.output)
