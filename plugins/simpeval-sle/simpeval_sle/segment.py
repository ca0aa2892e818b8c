"""A text's sentences, as SLE sees them in training and in scoring.

Every non-empty line is split with the core's shared Punkt splitter
(:func:`simpeval.text.split_sentences`). Splitting line by line keeps a title or
a heading without final punctuation from merging into the next sentence, which
matters for OneStopEnglish files (one paragraph a line, a title first).
"""

from __future__ import annotations

from simpeval.text import split_sentences


def sentences_of(text: str) -> list[str]:
    """The sentences of ``text``; ``[]`` for an empty or whitespace-only text."""
    return [s.strip() for line in text.splitlines() if line.strip() for s in split_sentences(line.strip())]
