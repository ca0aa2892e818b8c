"""Dataset loaders (on rows written here), the data directory, reference sets and the word aligner."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

from simpeval import UsageError
from simpeval.datadir import resolve_data_dir, user_data_dir
from simpeval.datasets.aligner import align
from simpeval.datasets.lens import SimpDA2022, SimpEval2022, SimpLikert2022
from simpeval.datasets.metaeval import StructuralSimplicity
from simpeval.datasets.references import sources_for_lines
from simpeval.datasets.selection import Operations, detect_operations
from simpeval.registry import load_registry

ONE_ROW_PER_RATING = ["WorkerId", "Input.id", "Input.original", "Input.simplified", "Input.system",
                      "Answer.adequacy", "Answer.fluency", "Answer.simplicity"]
STRUCTURAL = ["sent_id", "sys_name", "orig_sent", "simp_sent", "sys_type", "structural_simplicity", "simplicity",
              "meaning", "grammaticality"]
BUILTIN = {"simplicity-da", "structural-simplicity", "simpeval-past", "simpeval-2022", "simpda-2022", "simplikert-2022"}


def _write(path: Path, header: list[str], rows: list[list]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)


def test_registry_has_the_builtin_datasets():
    registry = load_registry(autoload=False)
    assert BUILTIN <= set(registry.datasets)
    with pytest.raises(UsageError, match='unknown dataset "simplicity"'):
        registry.dataset_class("simplicity")


def test_data_dir_comes_from_the_argument_the_environment_or_the_user_directory(tmp_path, monkeypatch):
    monkeypatch.delenv("SIMPEVAL_DATA_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    user = tmp_path / "xdg" / "simpeval"
    assert user_data_dir() == user
    with pytest.raises(UsageError) as info:
        resolve_data_dir(None)
    assert str(info.value) == (
        f"no data directory: SIMPEVAL_DATA_DIR is not set and {user} does not exist: put the data there "
        "(`simpeval data` lists each data set, its source and licence), or pass --data-dir DIR or set "
        "SIMPEVAL_DATA_DIR")
    with pytest.raises(UsageError, match=r"or pass data_dir=DIR or set") as info:
        resolve_data_dir(None, argument="data_dir=")
    assert "--data-dir" not in str(info.value)
    user.mkdir(parents=True)
    assert resolve_data_dir(None) == user
    env = tmp_path / "env"
    env.mkdir()
    monkeypatch.setenv("SIMPEVAL_DATA_DIR", str(env))
    assert resolve_data_dir(None) == env
    assert resolve_data_dir(tmp_path) == tmp_path
    # a place that is given but wrong is an error, never a fall-through to the next
    with pytest.raises(UsageError, match=r"data directory .*nowhere does not exist: fix --data-dir$"):
        resolve_data_dir(tmp_path / "nowhere")
    monkeypatch.setenv("SIMPEVAL_DATA_DIR", str(tmp_path / "nowhere"))
    with pytest.raises(UsageError, match=r"does not exist: fix \$SIMPEVAL_DATA_DIR$"):
        resolve_data_dir(None)


def test_a_missing_file_names_itself_and_the_remedy(tmp_path):
    with pytest.raises(UsageError) as info:
        SimpEval2022(tmp_path)
    message = str(info.value)
    assert "simpeval_2022.csv" in message and "github.com/Yao-Dou/LENS" in message and "`simpeval data`" in message
    assert "--data-dir" not in message  # the Python API raises it too


def test_simpeval_2022_loader(tmp_path):
    header = ["original_id", "original", "generation", "system", "sentence_type",
              "rating_1", "rating_2", "rating_3", "rating_1_zscore", "rating_2_zscore", "rating_3_zscore"]
    _write(tmp_path / "simpeval/simpeval_2022.csv", header, [
        [7, "A long sentence.", "A sentence.", "gpt", "para", 80, 70, 90, 0.5, 0.1, 0.9],
        [7, "A long sentence.", "Long.", "t5", "para", 20, 30, 10, -1.0, -0.5, -1.5],
    ])
    data = SimpEval2022(tmp_path)
    assert data.keys == [("7", "gpt"), ("7", "t5")]
    np.testing.assert_allclose(data.human_scores("simplicity"), [0.5, -1.0])
    np.testing.assert_allclose(data.human_scores("simplicity", raw=True), [80.0, 20.0])
    assert data.ratings("simplicity").matrix().tolist() == [[80, 70, 90], [20, 30, 10]]
    with pytest.raises(UsageError, match="missing data file .*references/simpeval-2022/test.src"):
        data.references()
    (tmp_path / "references/simpeval-2022").mkdir(parents=True)
    (tmp_path / "references/simpeval-2022/test.src").write_text("Other.\na long sentence.\n")
    (tmp_path / "references/simpeval-2022/test.dst").write_text("Ref.\nShort.\tBrief.\n")
    assert data.references() == [["Short.", "Brief."], ["Short.", "Brief."]]
    assert [item.sentence_type for item in data.items] == ["para", "para"]


@pytest.mark.parametrize("cls,filename", [(SimpDA2022, "simpDA_2022.csv"), (SimpLikert2022, "simplikert_2022.csv")])
def test_one_row_per_rating_loaders(tmp_path, cls, filename):
    _write(tmp_path / "simpeval" / filename, ONE_ROW_PER_RATING, [
        ["w1", 1, "Orig one.", "Out one.", "sysA", 4, 5, 1],
        ["w2", 1, "Orig one.", "Out one.", "sysA", 2, 3, 3],
        ["w1", 1, "Orig one.", "Out two.", "sysB", 2, 1, 5],
        ["w2", 1, "Orig one.", "Out two.", "sysB", 4, 5, 5],
    ])
    data = cls(tmp_path)
    assert data.keys == [("1", "sysA"), ("1", "sysB")]
    np.testing.assert_allclose(data.human_scores("simplicity", raw=True), [2.0, 5.0])
    np.testing.assert_allclose(data.human_scores("meaning", raw=True), [3.0, 3.0])
    # z per worker: w1 simplicity (1, 5) -> (-1, 1); w2 (3, 5) -> (-1, 1)
    np.testing.assert_allclose(data.human_scores("simplicity"), [-1.0, 1.0])
    average = data.human_scores("average", raw=True)
    np.testing.assert_allclose(average, [(2 + 3 + 4) / 3, (5 + 3 + 3) / 3])
    assert data.ratings("fluency").matrix().shape == (2, 2)
    with pytest.raises(UsageError, match='no aspect "grammaticality"'):
        data.human_scores("grammaticality")


def test_bad_numbers_are_reported_with_their_row(tmp_path):
    _write(tmp_path / "simpeval/simpDA_2022.csv", ONE_ROW_PER_RATING, [["w1", 1, "o", "s", "x", 4, "n/a", 1]])
    with pytest.raises(UsageError, match=r"row 2: Answer.fluency='n/a' is not a number"):
        SimpDA2022(tmp_path)


def test_infinite_numbers_and_non_utf8_files_are_usage_errors(tmp_path):
    _write(tmp_path / "simpeval/simpDA_2022.csv", ONE_ROW_PER_RATING, [["w1", 1, "o", "s", "x", 4, "inf", 1]])
    with pytest.raises(UsageError, match=r"row 2: Answer.fluency is inf: remove the row or fill it in"):
        SimpDA2022(tmp_path)
    (tmp_path / "simpeval/simpDA_2022.csv").write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(UsageError, match="is not a UTF-8 CSV file"):
        SimpDA2022(tmp_path)


def test_paper_dataset_ratings_must_match_its_items(tmp_path):
    _write(tmp_path / "metaeval/structural_simplicity.csv", STRUCTURAL,
           [[1, "A", "o", "s", "Semantics", 1, 2, 3, 4], [2, "A", "o2", "s2", "PBMT", -1, 0, 5, 5]])
    ratings = ["sent_id", "sys_name", "orig_sent", "simp_sent", "rater_id", "structural_simplicity"]
    path = tmp_path / "metaeval/structural_simplicity_ratings.csv"
    _write(path, ratings, [[1, "A", "o", "s", "r1", 1], [2, "A", "o2", "s2", "r1", -1]])
    data = StructuralSimplicity(tmp_path)
    assert [item.system_type for item in data.items] == ["Sem", "PBMT"]
    assert [item.line for item in data.items] == [0, 1]
    assert data.human_scores("meaning").tolist() == [3.0, 5.0]
    assert not data.has_standardized("meaning")
    assert data.ratings("structural_simplicity").value.tolist() == [1.0, -1.0]
    _write(path, ratings, [[1, "A", "o", "s", "r1", 1], [3, "B", "o3", "s3", "r1", 0]])
    with pytest.raises(UsageError, match=r"1 ratings of items not in the scores file, e.g. \('3', 'B'\)"):
        StructuralSimplicity(tmp_path)


def test_empty_files_are_usage_errors(tmp_path):
    _write(tmp_path / "simpeval/simpDA_2022.csv", ONE_ROW_PER_RATING, [])
    with pytest.raises(UsageError, match='no rated outputs in dataset "simpda-2022"'):
        SimpDA2022(tmp_path)
    _write(tmp_path / "metaeval/structural_simplicity.csv", STRUCTURAL, [[1, "A", "o", "s", "PBMT", 1, 2, 3, 4]])
    _write(tmp_path / "metaeval/structural_simplicity_ratings.csv",
           ["sent_id", "sys_name", "orig_sent", "simp_sent", "rater_id", "structural_simplicity"], [])
    data = StructuralSimplicity(tmp_path)
    with pytest.raises(UsageError, match="the ratings file holds no ratings"):
        data.ratings("structural_simplicity").matrix()


def test_a_truncated_test_set_file_is_a_usage_error(tmp_path):
    source = tmp_path / "references/hsplit/hsplit.tok.src"
    source.parent.mkdir(parents=True)
    source.write_text("one .\ntwo .\n", encoding="utf-8")
    with pytest.raises(UsageError, match="hsplit.tok.src has 2 lines, expected 359: re-fetch it"):
        sources_for_lines(tmp_path, "hsplit", [0])


def test_aligner_finds_deletions_and_replacements():
    alignment = align("The cat sat on the mat quietly .", "The feline sat on the mat .")
    assert alignment.deleted() == ["quietly"]
    assert alignment.replaced() == [("cat", "feline")]
    moved = align("In 1998 , Culver won .", "Culver won in 1998 .")
    assert moved.deleted() == [] and moved.replaced() == []


def test_operations_select_reference_sets():
    split_only = detect_operations("He came and he saw it .", "He came . And he saw it .")
    assert split_only.split
    assert Operations(True, False, False).reference_sets == ("hsplit",)
    assert Operations(False, True, True).reference_sets == ("turkcorpus", "asset")
    assert Operations(True, True, False).reference_sets == ("asset",)
    assert Operations(False, False, False).reference_sets == ("asset",)
    paraphrase = detect_operations("He purchased a car .", "He bought a car .")
    assert paraphrase == Operations(split=False, deletion=False, replacement=True)


def test_builtin_datasets_on_the_shared_data(data_dir):
    registry = load_registry(autoload=False)
    da = registry.dataset_class("simplicity-da")(data_dir)
    assert len(da) == 600 and da.items[0].system_type in {"S2S", "SBMT", "PBMT", "Sem+PBMT"}
    assert [len(r) for r in (da.references("asset")[0], da.references("all")[0])] == [10, 22]
    np.testing.assert_allclose(
        da.human_scores("average"),
        np.mean([da.human_scores(a) for a in ("simplicity", "meaning", "fluency")], axis=0),
        atol=5e-7,
    )
    structural = registry.dataset_class("structural-simplicity")(data_dir)
    assert len(structural) == 1750 and structural.default_references == "hsplit"
    # HSplit's references pair with HSplit's own lowercased, tokenised source (as in EASSE)
    assert structural.metric_sources("hsplit")[0].startswith("one side of the armed conflicts")
    assert structural.metric_sources("asset")[0].startswith("One side of the armed conflicts")
    past = registry.dataset_class("simpeval-past")(data_dir)
    assert len(past) == 2400 and all(item.line is not None for item in past.items)
    assert len(past.references()[0]) == 10
