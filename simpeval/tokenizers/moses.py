"""The Moses tokenizer (sacremoses) with the language's own rules, without XML escaping.

``escape=False`` keeps ``&``, ``'`` and ``"`` as they are: this is how the
per-sentence EASSE scores published by Alva-Manchego et al. (2021) were computed.
The language chooses Moses's non-breaking prefixes (``z.B.`` stays one token in German)
and its apostrophe rules (French and Italian split after it, English before it).
sacremoses falls back to the English prefixes for a language it has none for; here such a
language is refused instead.
"""

from __future__ import annotations

from functools import lru_cache

from simpeval.tokenizers.base import BaseTokenizer


class MosesTokenizer(BaseTokenizer):
    """Moses tokenization in ``lang`` with ``escape=False``."""

    name = "moses"

    @classmethod
    def supported_languages(cls) -> tuple[str, ...]:
        """The ISO 639-1 languages sacremoses has non-breaking prefixes for."""
        return _prefix_languages()

    def __init__(self, lang: str = "en") -> None:
        from sacremoses import MosesTokenizer as _Impl

        self._impl = _Impl(lang=lang)

    def __call__(self, text: str) -> str:
        return self._impl.tokenize(text, escape=False, return_str=True)


@lru_cache(maxsize=1)
def _prefix_languages() -> tuple[str, ...]:
    from sacremoses.corpus import NonbreakingPrefixes

    return tuple(sorted({code for code in NonbreakingPrefixes().available_langs.values() if len(code) == 2}))
