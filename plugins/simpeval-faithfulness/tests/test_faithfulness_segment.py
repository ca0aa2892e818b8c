"""Sentence splitting and premise chunking, offline."""

from __future__ import annotations

import pytest

from simpeval_faithfulness.segment import chunk, split_sentences


def test_punkt_splits_sentences_and_keeps_abbreviations():
    text = "Dr. Smith went home at 5 p.m. on Monday. He was tired after the long day."
    assert split_sentences(text) == ["Dr. Smith went home at 5 p.m. on Monday.", "He was tired after the long day."]


def test_short_fragments_are_dropped_but_short_texts_kept():
    assert split_sentences("Part one. The first real sentence is here.") == ["The first real sentence is here."]
    assert split_sentences("Yes.") == ["Yes."]
    assert split_sentences("   ") == []


def test_granularities():
    text = "The first paragraph has text.\nIt goes on here.\n\nThe second paragraph is here."
    paragraphs = ["The first paragraph has text. It goes on here.", "The second paragraph is here."]
    assert chunk(text, "paragraph") == paragraphs
    assert chunk(text, "document") == [" ".join(text.split())]
    assert len(chunk(text, "sentence")) == 3
    assert chunk("", "document") == []
    with pytest.raises(ValueError):
        chunk(text, "clause")


def test_short_paragraphs_fall_back_to_the_whole_text():
    assert chunk("Hi.\n\nOk.\n\n", "paragraph") == ["Hi. Ok."]
    assert chunk("a\nThe long paragraph here.\nb", "paragraph") == ["The long paragraph here."]
    assert chunk(" \n\n ", "paragraph") == []
