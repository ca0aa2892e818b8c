"""NLTK's ``word_tokenize`` (Punkt English sentences, then NLTK's improved Treebank tokenizer).

LENS's released meta-evaluation code tokenises with ``nltk.word_tokenize`` for its "BLEU"
(GLEU) and SARI. NLTK's Punkt data cannot be downloaded here, so sentences come from
:func:`simpeval.sentences.sentence_spans` (the sentences of NLTK's English Punkt, without its data
files or its slow import); each sentence then goes through ``nltk.tokenize.NLTKWordTokenizer``,
which needs no data files.
"""

from __future__ import annotations

from simpeval.languages import ENGLISH
from simpeval.sentences import sentence_spans
from simpeval.tokenizers.base import BaseTokenizer


class NltkWordTokenizer(BaseTokenizer):
    """``nltk.word_tokenize(text)`` without NLTK's downloadable Punkt data."""

    name = "nltk"

    @classmethod
    def supported_languages(cls) -> tuple[str, ...]:
        """English: NLTK's Treebank rules and English Punkt sentences."""
        return ("en",)

    def __init__(self, lang: str = "en") -> None:
        from nltk.tokenize import NLTKWordTokenizer

        self._impl = NLTKWordTokenizer()

    def __call__(self, text: str) -> str:
        return " ".join(token for start, end in sentence_spans(text, ENGLISH)
                        for token in self._impl.tokenize(text[start:end]))
