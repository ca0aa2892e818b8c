"""Label softening on a hand-made corpus, the OneStopEnglish reader and the article split."""

from __future__ import annotations

import numpy as np
import pytest

from simpeval_sle.corpus import load_corpus, read_text, split_articles
from simpeval_sle.labels import soften_labels
from simpeval_sle.segment import sentences_of


def test_softening_by_hand():
    # level 0: 1 and 5 fall outside the 1st/99th percentiles (1.04, 4.96) and are dropped;
    # 2, 3, 4 scale to 0, 1, 2, mean 1, so the labels are -1, 0, 1.
    # level 1: ties keep every value: 10, 10, 20, 40, 40 scale to 0, 0, 2/3, 2, 2 (mean 14/15),
    # so the labels are scaled - 14/15 + 1.
    levels = [0, 0, 0, 0, 0, 1, 1, 1, 1, 1]
    scores = [3, 1, 2, 5, 4, 10, 40, 20, 10, 40]
    kept, labels = soften_labels(levels, scores)
    assert kept.tolist() == [True, False, True, False, True, True, True, True, True, True]
    assert labels == pytest.approx([0, -1, 1, 1 / 15, 31 / 15, 11 / 15, 1 / 15, 31 / 15])


def test_softened_labels_average_the_level_and_keep_the_order():
    rng = np.random.default_rng(3)
    levels = np.repeat([0, 1, 2], 200)
    scores = rng.normal(size=600) + levels
    kept, labels = soften_labels(levels, scores)
    for level in range(3):
        group = labels[levels[kept] == level]
        assert group.mean() == pytest.approx(level)
        assert group.max() - group.min() == pytest.approx(2.0)
        order = np.argsort(scores[kept][levels[kept] == level], kind="stable")
        assert np.all(np.diff(group[order]) >= 0)


def test_a_level_of_equal_scores_gets_the_level():
    kept, labels = soften_labels([2, 2, 2], [5.0, 5.0, 5.0])
    assert kept.all() and labels.tolist() == [2.0, 2.0, 2.0]


def test_reader_drops_bom_and_level_label_line(tmp_path):
    path = tmp_path / "x-int.txt"
    path.write_text("\ufeffIntermediate\r\nFirst line. Second one. \r\nTitle without stop\n", encoding="utf-8")
    text = read_text(path, "Intermediate")
    assert text == "First line. Second one.\nTitle without stop"
    assert sentences_of(text) == ["First line.", "Second one.", "Title without stop"]


def test_corpus_has_every_article_at_three_levels(corpus):
    documents = load_corpus(corpus)
    assert [(d.article, d.level) for d in documents[:3]] == [("bridge", 0), ("bridge", 1), ("bridge", 2)]
    assert documents[1].text == "The city then built a very large bridge across the river mouth."
    assert len(documents) == 18


def test_split_is_seeded_disjoint_and_complete():
    articles = [f"a{i:03d}" for i in range(189)]
    split = split_articles(articles, seed=0)
    assert split == split_articles(list(reversed(articles)), seed=0)
    assert split != split_articles(articles, seed=1)
    assert [len(split[p]) for p in ("train", "validation", "test")] == [133, 28, 28]
    assert sorted(sum(split.values(), [])) == articles


def test_onestopenglish_itself(data_dir):
    documents = load_corpus(data_dir)
    assert len(documents) == 3 * 189
    assert not any(d.text.startswith("Intermediate") for d in documents)


@pytest.mark.parametrize("content, problem", [
    (b"Intermediate\ncaf\xe9 society\n", "is not UTF-8 (byte 0xe9 at offset 16)"),
    (None, "cannot read"),
    (b"", "has no text: restore it, or remove the article at all three levels"),
    (b"\xef\xbb\xbfIntermediate\n \n", "has no text: restore it, or remove the article at all three levels"),
])
def test_a_bad_corpus_file_is_one_line(tmp_path, content, problem):
    from simpeval import UsageError

    path = tmp_path / "Cafe-int.txt"
    if content is None:
        path.mkdir()  # a directory where a text file should be
    else:
        path.write_bytes(content)
    import re

    with pytest.raises(UsageError, match=re.escape(problem)):
        read_text(path, "Intermediate")
