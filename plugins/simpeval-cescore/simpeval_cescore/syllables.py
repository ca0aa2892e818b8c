"""Syllable counting for ASF's denominator, by the rules the CEScore package uses.

The rules are those of Greg Fast's Perl module Lingua::EN::Syllable (an exception
list, then vowel groups adjusted by "add one" and "subtract one" patterns), in the
variant the CEScore package uses: only ONE final "e" is dropped before counting
(EASSE's FKGL drops all of them), a word whose stem has no vowel group counts as
one syllable, and a count the patterns push below zero is returned as it is (the
package does the same; it only matters for words outside the ASF lexicon).
"""

from __future__ import annotations

from functools import lru_cache

from simpeval.syllables import LINGUA_EXCEPTIONS, adjusted_vowel_groups


@lru_cache(maxsize=1 << 16)
def count_syllables(word: str) -> int:
    """The number of syllables of ``word`` (0 only for an empty stem)."""
    word = word.strip().lower()
    if not word:
        return 0
    if word in LINGUA_EXCEPTIONS:
        return LINGUA_EXCEPTIONS[word]
    stem = word.removesuffix("e")
    count = adjusted_vowel_groups(stem)
    if stem and count == 0:
        return 1
    return count
