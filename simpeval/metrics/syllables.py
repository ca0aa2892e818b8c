"""English syllable counting with the rules of Lingua::EN::Syllable, as EASSE uses them.

A word's syllables are its vowel groups after every trailing "e" is stripped,
plus one for each "add" pattern it matches and minus one for each "subtract"
pattern, except for the words in the exception list. EASSE's FKGL (and so the
published metaeval-2021 FKGL and FKBLEU values) counts this way.
"""

from __future__ import annotations

import re
from functools import lru_cache

# Lingua::EN::Syllable's exception list, with EASSE's additions (titles, "the").
EXCEPTIONS: dict[str, int] = {
    "the": 1, "tottered": 2, "chummed": 1, "peeped": 1, "moustaches": 2, "shamefully": 3,
    "messieurs": 2, "satiated": 4, "sailmaker": 4, "sheered": 1, "disinterred": 3,
    "propitiatory": 6, "bepatched": 2, "particularized": 5, "caressed": 2, "trespassed": 2,
    "sepulchre": 3, "flapped": 1, "hemispheres": 3, "pencilled": 2, "motioned": 2,
    "poleman": 2, "slandered": 2, "sombre": 2, "etc": 4, "sidespring": 2, "mimes": 1,
    "effaces": 2, "mr": 2, "mrs": 2, "ms": 1, "dr": 2, "st": 1, "sr": 2, "jr": 2,
    "truckle": 2, "foamed": 1, "fringed": 2, "clattered": 2, "capered": 2, "mangroves": 2,
    "suavely": 2, "reclined": 2, "brutes": 1, "effaced": 2, "quivered": 2, "h'm": 1,
    "veriest": 3, "sententiously": 4, "deafened": 2, "manoeuvred": 3, "unstained": 2,
    "gaped": 1, "stammered": 2, "shivered": 2, "discoloured": 3, "gravesend": 2, "60": 2,
    "lb": 1, "unexpressed": 3, "greyish": 2, "unostentatious": 5,
}

_SUBTRACT = [
    re.compile(p) for p in ("cial", "tia", "cius", "cious", "gui", "ion", "iou", "sia$", ".ely$")
]
_ADD = [
    re.compile(p)
    for p in (
        "ia", "riet", "dien", "iu", "io", "ii", r"[aeiouy]bl$", "mbl$", "[aeiou]{3}", "^mc",
        "ism$", r"(.)(?!\1)([aeiouy])\2l$", "[^l]llien", "^coad.", "^coag.", "^coal.",
        "^coax.", r"(.)(?!\1)[gq]ua(.)(?!\2)[aeiou]", "dnt$",
    )
]
_VOWEL_GROUP = re.compile("[aeiouy]+")


@lru_cache(maxsize=1 << 16)
def count_syllables(word: str) -> int:
    """Syllables of one word (punctuation tokens count 0); case-insensitive."""
    word = word.lower().strip()
    if word in EXCEPTIONS:
        return EXCEPTIONS[word]
    word = word.rstrip("e")
    count = len(_VOWEL_GROUP.findall(word))
    count += sum(1 for pattern in _ADD if pattern.search(word))
    count -= sum(1 for pattern in _SUBTRACT if pattern.search(word))
    return count
