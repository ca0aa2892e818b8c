"""The language of the texts a run scores: an ISO 639-1 code, checked, and what a metric supports.

Why a module of its own: the language is a setting of every language-dependent metric (its
tokenizer's rules, its sentence splitter, its syllables, its formula's constants, its word
frequencies), printed in its signature (``lang:de``) and so in its cache key. A metric that has no
rules for a language refuses it in one line naming the languages it has; nothing falls back to
English silently. Test sets and datasets declare their language, which is the default of ``--lang``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from simpeval.errors import UsageError

__all__ = ["ENGLISH", "check_code", "check_supported", "narrowed"]

ENGLISH = "en"

_TWO_LETTERS = re.compile("[a-z]{2}")


def check_code(code: str) -> str:
    """``code`` when it is an ISO 639-1 language code (two lower-case letters that name a language),
    else a :class:`UsageError` saying what to give."""
    if not isinstance(code, str) or not _TWO_LETTERS.fullmatch(code) or not _is_language(code):
        raise UsageError(f"language {code!r} is not an ISO 639-1 code: give two lower-case letters such as "
                         "en, de, fr, es")
    return code


@lru_cache(maxsize=None)
def _is_language(code: str) -> bool:
    import langcodes  # only when a language other than English is asked for (import: 80 ms)

    return langcodes.tag_is_valid(code)


def check_supported(what: str, code: str, supported: Iterable[str] | None,
                    remedy: str = "choose one of those languages") -> str:
    """``code`` if ``what`` (``metric "fkgl"``) supports it (``supported`` None: any language), else a
    one-line :class:`UsageError` naming the languages it does support, and ``remedy``."""
    if code != ENGLISH:
        check_code(code)
    if supported is not None and code not in supported:
        codes = sorted(supported)
        listed = ", ".join(codes) if len(codes) > 1 else f"{codes[0]} only" if codes else "no language"
        raise UsageError(f'{what} has no rules for language "{code}": it supports {listed}; {remedy}')
    return code


def narrowed(languages: Iterable[str] | None, also: Iterable[str] | None) -> tuple[str, ...] | None:
    """The languages in both ``languages`` and ``also`` (None stands for every language)."""
    if languages is None:
        return None if also is None else tuple(also)
    if also is None:
        return tuple(languages)
    allowed = set(also)
    return tuple(code for code in languages if code in allowed)
