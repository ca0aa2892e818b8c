"""Reading parallel files: alignment checks, distinct source indices, per-source subsampling."""

import pytest
from simpeval_siera.data import load_training_pairs, subsample
from simpeval_siera.pipeline import normalized_pairs

import simpeval


def write(path, lines):
    path.write_text("\n".join(lines) + "\n")
    return path


def test_two_sets_keep_their_sources_apart(tmp_path):
    orig = write(tmp_path / "o", ["A one.", "B two."])
    simp0, simp1 = write(tmp_path / "s0", ["a", "b"]), write(tmp_path / "s1", ["aa", ""])
    pairs = load_training_pairs([], orig, [simp0, simp1], None)
    assert pairs == [("A one.", "a", 0), ("B two.", "b", 1), ("A one.", "aa", 0)]
    data_dir = tmp_path / "data"
    (data_dir / "references" / "asset").mkdir(parents=True)
    write(data_dir / "references" / "asset" / "asset.valid.orig", ["C three."])
    for k in range(10):
        write(data_dir / "references" / "asset" / f"asset.valid.simp.{k}", [f"c{k}"])
    both = load_training_pairs(["asset-valid"], orig, [simp0], data_dir)
    assert {group for _, _, group in both} == {0, 1, 2}
    assert [p for p in both if p[2] == 0] == [("C three.", f"c{k}", 0) for k in range(10)]


def test_misaligned_files_and_missing_data_are_usage_errors(tmp_path):
    orig = write(tmp_path / "o", ["A one.", "B two."])
    with pytest.raises(simpeval.UsageError, match="has 1 lines but"):
        load_training_pairs([], orig, [write(tmp_path / "s", ["a"])], None)
    with pytest.raises(simpeval.UsageError, match="no training data"):
        load_training_pairs([], None, [], None)


def test_subsample_draws_per_source_with_a_seed():
    pairs = [("o", f"s{k}", group) for group in range(3) for k in range(4)]
    chosen = subsample(pairs, 2, seed=0)
    assert [group for _, _, group in chosen] == [0, 0, 1, 1, 2, 2]
    assert chosen == subsample(pairs, 2, seed=0) != subsample(pairs, 2, seed=1)
    assert subsample(pairs, None, seed=0) == pairs


def test_normalized_pairs_drop_unchanged_simplifications():
    assert normalized_pairs([("Hi, you.", "Hi , you .", 0), ("Hello there.", "Hi.", 1)]) == [
        ("Hello there .", "Hi .", 1)
    ]
