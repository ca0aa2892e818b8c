"""The tokenizer interface, and the tokenizer that keeps text as it is."""

from __future__ import annotations

from collections.abc import Sequence


class BaseTokenizer:
    """A callable that returns ``text`` with its tokens separated by single spaces."""

    name: str = ""

    @classmethod
    def supported_languages(cls) -> tuple[str, ...] | None:
        """The languages whose rules the tokenizer applies (its constructor then takes ``lang``);
        None for a tokenizer without language rules (constructed without arguments)."""
        return None

    def signature(self) -> str:
        """What goes into a metric signature for this tokenizer (``tok:13a``)."""
        return self.name

    def __call__(self, text: str) -> str:
        raise NotImplementedError

    def tokens_many(self, texts: Sequence[str]) -> list[tuple[str, ...]]:
        """The tokens of each text: ``tuple(self(text).split())``, which a tokenizer may compute for
        all the texts at once (13a does, :mod:`simpeval.tokenizers.mteval`)."""
        return [tuple(self(text).split()) for text in texts]

    def joined_many(self, texts: Sequence[str]) -> list[str]:
        """The tokens of each text joined by single spaces: ``" ".join(self(text).split())`` (one string
        per text, which a run's store keeps more cheaply than a tuple of tokens)."""
        return [" ".join(self(text).split()) for text in texts]

    def joined_and_flat(self, texts: Sequence[str]) -> tuple[list[str], list[str]]:
        """:meth:`joined_many`, and every token of the texts in one list, each text's followed by a lone
        NUL (``"\x00"``): the strings split, which a tokenizer that splits its whole batch has at hand
        (13a does). A text's own NUL token stays in the list, so callers count the NULs."""
        joined = self.joined_many(texts)
        return joined, " \x00 ".join([*joined, ""]).split()


class WhitespaceTokenizer(BaseTokenizer):
    """For text that is already tokenized: tokens are the whitespace-separated words."""

    name = "none"

    def __call__(self, text: str) -> str:
        return " ".join(text.split())

    def tokens_many(self, texts: Sequence[str]) -> list[tuple[str, ...]]:
        return [tuple(text.split()) for text in texts]

    def joined_many(self, texts: Sequence[str]) -> list[str]:
        return [" ".join(text.split()) for text in texts]
