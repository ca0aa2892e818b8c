"""SimpEval_2022 with the LENS authors' references and sentence types, WIKI-DA, and the sentence-type split."""

from collections import Counter

import numpy as np
import pytest

from simpeval.datasets.lens import SimpEval2022, WikiDA, read_lens_references
from simpeval.errors import UsageError
from simpeval.metaeval.splits import make_split


def test_simpeval_2022_references_and_sentence_types(data_dir):
    dataset = SimpEval2022(data_dir)
    refs = dataset.references()
    assert dataset.has_references() and len(refs) == len(dataset) == 360
    assert all(len(r) == 1 for r in refs)
    human1 = [(item.output, r[0]) for item, r in zip(dataset.items, refs) if item.system == "Human 1 Writing"]
    # "Human 1 Writing" wrote the references: matched on the original, all 60 agree word for word
    assert sum(output.split() == ref.split() for output, ref in human1) == 60
    assert Counter(item.sentence_type for item in dataset.items) == {
        "Splittings": 227, "Paraphrases": 96, "Deletions": 37}
    assert not dataset.has_references("asset")


def test_lens_references_are_read_as_lens_does(tmp_path):
    folder = tmp_path / "references" / "x"
    folder.mkdir(parents=True)
    (folder / "test.src").write_text("A b.\nC d.\nA B.\n")
    (folder / "test.dst").write_text("r1\tr2 \nr3\nr4\n")
    table = read_lens_references(tmp_path, "references/x")
    assert table == {"a b.": ["r4"], "c d.": ["r3"]}  # tabs split, lower-cased keys, the last line wins
    (folder / "test.dst").write_text("r1\n")
    with pytest.raises(UsageError, match="3 lines"):
        read_lens_references(tmp_path, "references/x")


def test_wiki_da_leaves_out_simpeval_past_originals(data_dir):
    dataset = WikiDA(data_dir)
    assert len(dataset) == 434
    assert len(dataset.references("asset")) == 434
    ratings = dataset.ratings("simplicity")
    assert ratings.item.max() == 433 and len(ratings.value) == 434 * 15
    # the per-item z-score means are those of Simplicity-DA's rows
    assert np.isfinite(dataset.human_scores("fluency")).all()


def test_sentence_type_split():
    split = make_split("sentence-type", np.zeros(4), [""] * 4, sentence_types=["D", "P", "D", "S"])
    assert {k: v.tolist() for k, v in split.groups.items()} == {"D": [0, 2], "P": [1], "S": [3], "All": [0, 1, 2, 3]}
    split = make_split("sentence-type", np.zeros(2), ["a", "b"])
    assert list(split.groups) == ["All"] and "no sentence types" in split.warnings[0]
