"""Syllable counting for ASF's denominator, by the rules the CEScore package uses.

The rules are those of Greg Fast's Perl module Lingua::EN::Syllable (an exception
list, then vowel groups adjusted by "add one" and "subtract one" patterns), in the
variant the CEScore package uses: only ONE final "e" is dropped before counting
(EASSE's FKGL drops all of them), a word whose stem has no vowel group counts as
one syllable, and a count the patterns push below zero is returned as it is (the
package does the same; it only matters for words outside the ASF lexicon).
"""

from __future__ import annotations

import re
from functools import lru_cache

# Words the vowel-group rules get wrong, with their syllable counts.
EXCEPTIONS: dict[str, int] = {
    "tottered": 2, "chummed": 1, "peeped": 1, "moustaches": 2, "shamefully": 3,
    "messieurs": 2, "satiated": 4, "sailmaker": 4, "sheered": 1, "disinterred": 3,
    "propitiatory": 6, "bepatched": 2, "particularized": 5, "caressed": 2,
    "trespassed": 2, "sepulchre": 3, "flapped": 1, "hemispheres": 3, "pencilled": 2,
    "motioned": 2, "poleman": 2, "slandered": 2, "sombre": 2, "etc": 4,
    "sidespring": 2, "mimes": 1, "effaces": 2, "mr": 2, "mrs": 2, "ms": 1, "dr": 2,
    "st": 1, "sr": 2, "jr": 2, "truckle": 2, "foamed": 1, "fringed": 2,
    "clattered": 2, "capered": 2, "mangroves": 2, "suavely": 2, "reclined": 2,
    "brutes": 1, "effaced": 2, "quivered": 2, "h'm": 1, "veriest": 3,
    "sententiously": 4, "deafened": 2, "manoeuvred": 3, "unstained": 2, "gaped": 1,
    "stammered": 2, "shivered": 2, "discoloured": 3, "gravesend": 2, "60": 2, "lb": 1,
    "unexpressed": 3, "greyish": 2, "unostentatious": 5,
}

# Vowel groups that are one syllable too many (e.g. "-cial", "-tion").
_SUBTRACT = tuple(re.compile(p) for p in (
    "cial", "tia", "cius", "cious", "gui", "ion", "iou", "sia$", ".ely$",
))
# Spellings where the vowel groups miss a syllable (e.g. "-ia", "-ism", "coa-").
_ADD = tuple(re.compile(p) for p in (
    "ia", "riet", "dien", "iu", "io", "ii", "[aeiouy]bl$", "mbl$", "[aeiou]{3}", "^mc",
    "ism$", r"(.)(?!\1)([aeiouy])\2l$", "[^l]llien", "^coad.", "^coag.", "^coal.",
    "^coax.", r"(.)(?!\1)[gq]ua(.)(?!\2)[aeiou]", "dnt$",
))
_VOWEL_GROUP = re.compile("[aeiouy]+")


@lru_cache(maxsize=1 << 16)
def count_syllables(word: str) -> int:
    """The number of syllables of ``word`` (0 only for an empty stem)."""
    word = word.strip().lower()
    if not word:
        return 0
    if EXCEPTIONS.get(word, 0) > 0:
        return EXCEPTIONS[word]
    stem = word.removesuffix("e")
    count = len(_VOWEL_GROUP.findall(stem))
    count += sum(1 for pattern in _ADD if pattern.search(stem))
    count -= sum(1 for pattern in _SUBTRACT if pattern.search(stem))
    if stem and count == 0:
        return 1
    return count
