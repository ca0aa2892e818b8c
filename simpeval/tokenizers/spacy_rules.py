"""spaCy's rule-based German tokenizer (no trained pipeline needed).

Why: EASSE-de, with which DEplain (Stodden et al. 2023) scored its systems, tokenizes with spaCy's
``de_core_news_sm`` by default; that pipeline's tokenizer is spaCy's German language rules
(prefixes, suffixes, infixes, exceptions such as ``z.B.``), which ``spacy.blank("de")`` builds
without any model weights, so the same tokens come from an installable package alone.
"""

from __future__ import annotations

from simpeval.errors import UsageError
from simpeval.tokenizers.base import BaseTokenizer


class SpacyGermanTokenizer(BaseTokenizer):
    """Tokens of spaCy's German rules, separated by single spaces (whitespace tokens dropped)."""

    name = "spacy-de"

    @classmethod
    def supported_languages(cls) -> tuple[str, ...]:
        """German: spaCy's German rules."""
        return ("de",)

    def __init__(self, lang: str = "de") -> None:
        try:
            import spacy
        except ImportError as exc:
            raise UsageError("tokenizer spacy-de needs spaCy: pip install spacy") from exc
        self._nlp = spacy.blank("de")
        self.name = f"spacy-de-{spacy.__version__}"

    def __call__(self, text: str) -> str:
        return " ".join(token.text for token in self._nlp.make_doc(text) if not token.is_space)
