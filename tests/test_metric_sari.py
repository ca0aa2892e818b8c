"""SARI: cases worked out by hand, corpus pooling and edge cases."""

from __future__ import annotations

import pytest

from simpeval.metrics.sari import Sari

PLAIN = {"tokenizer": "none", "lowercase": False}


def test_one_reference_worked_by_hand() -> None:
    # source "a b c", output "a d", reference "a d c" (r = 1).
    # n=1: add {d}: P=1 R=1 F1=1; keep out {a}=1, ref {a,c}=2, correct 1: P=1 R=1/2 F1=2/3;
    #      delete out {b,c}=2, ref {b}=1, correct 1: P=1/2 (F1 2/3).
    # n=2: add {ad}: P=1, ref adds {ad,dc}: R=1/2, F1=2/3; keep: nothing; delete out {ab,bc},
    #      ref {ab,bc}: P=1 (F1 1).
    # n=3: add: output has no trigram, F1 0; keep 0; delete {abc} by both: P=1 (F1 1).
    # n=4: nothing at all: 0 everywhere.
    # add = (1 + 2/3)/4 = 5/12, keep = (2/3)/4 = 1/6,
    # delete precision = (1/2 + 1 + 1)/4 = 5/8, delete F1 = (2/3 + 1 + 1)/4 = 2/3.
    args = (["a b c"], ["a d"], [["a d c"]])
    precision = Sari(deletion="precision", **PLAIN).sentence_scores(*args)
    assert precision["sari-add"] == [pytest.approx(100 * 5 / 12)]
    assert precision["sari-keep"] == [pytest.approx(100 / 6)]
    assert precision["sari-del"] == [pytest.approx(62.5)]
    assert precision["sari"] == [pytest.approx(100 * 29 / 72)]
    f1 = Sari(deletion="f1", **PLAIN).sentence_scores(*args)
    assert f1["sari-del"] == [pytest.approx(100 * 2 / 3)]
    assert f1["sari"] == [pytest.approx(100 * 5 / 12)]


def test_reference_counts_are_weighted_by_their_number() -> None:
    # source "a b", output "a", references "a" and "a b" (r = 2; counts x2 for source/output).
    # n=1: add nothing (0); keep: a out 2, ref min(2, 2)=2, correct 2; b out 0, ref min(2, 1)=1:
    #      P=1, R=2/3, F1=0.8; delete: b out 2, ref 2-1=1, correct 1: P=1/2.
    # n=2: keep: output has no bigram: 0; delete {ab}: out 2, ref 2-1=1, correct 1: P=1/2.
    # add 0, keep 0.8/4 = 20, delete (1/2 + 1/2)/4 = 25, SARI = 15.
    scores = Sari(deletion="precision", **PLAIN).sentence_scores(["a b"], ["a"], [["a", "a b"]])
    assert scores == {
        "sari": [pytest.approx(15.0)],
        "sari-add": [0.0],
        "sari-keep": [pytest.approx(20.0)],
        "sari-del": [pytest.approx(25.0)],
    }


def test_paper_version_averages_before_f1() -> None:
    # Same item as the first test: add P = (1+1+0+0)/4 = 1/2, R = (1 + 1/2)/4 = 3/8 -> F1 3/7;
    # keep P = 1/4, R = 1/8 -> F1 1/6; delete P = 5/8.
    scores = Sari(deletion="precision", paper_version=True, **PLAIN).sentence_scores(
        ["a b c"], ["a d"], [["a d c"]]
    )
    assert scores["sari-add"] == [pytest.approx(100 * 3 / 7)]
    assert scores["sari-keep"] == [pytest.approx(100 / 6)]
    assert scores["sari-del"] == [pytest.approx(62.5)]


def test_empty_output_and_identical_output() -> None:
    metric = Sari(**PLAIN)
    empty = metric.sentence_scores(["a b"], [""], [["a"]])
    # Nothing added or kept; deleting "b" is right (P=1/1 at n=1), "a" wrongly deleted:
    # n=1 delete out {a,b}=2, ref {b}=1, correct 1 -> P=1/2, R=1, F1=2/3; n=2 {ab}: P=R=1.
    assert empty["sari-add"] == [0.0] and empty["sari-keep"] == [0.0]
    assert empty["sari-del"] == [pytest.approx(100 * (2 / 3 + 1) / 4)]
    assert metric.sentence_scores([""], [""], [[""]])["sari"] == [0.0]


def test_corpus_pools_counts() -> None:
    metric = Sari(**PLAIN)
    args = (["a b c", "a b"], ["a d", "a"], [["a d c"], ["a", "a b"]])
    per_item = metric.sentence_scores(*args)["sari"]
    corpus = metric.corpus_score(*args)["sari"]
    assert corpus != pytest.approx(sum(per_item) / 2)
    assert 0.0 < corpus < 100.0


def test_default_lowercases_and_tokenizes_with_13a() -> None:
    metric = Sari()
    assert metric.signature().startswith("sari|formula:1|lang:en|tok:13a|lc:yes|del:f1|paper:no")
    upper = metric.sentence_scores(["The cat, sat."], ["THE CAT."], [["the cat ."]])
    lower = Sari(**PLAIN).sentence_scores(["the cat , sat ."], ["the cat ."], [["the cat ."]])
    assert upper == lower
