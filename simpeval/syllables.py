"""English syllable counting by the rules of Greg Fast's Lingua::EN::Syllable (public API).

A word's syllables are its vowel groups, plus one for each "add" pattern it
matches and minus one for each "subtract" pattern, except for the words of an
exception list. Metrics differ in how they strip a final "e" and in what they do
with a stem of no vowel group, so this module offers the shared rules
(:data:`LINGUA_EXCEPTIONS`, :func:`adjusted_vowel_groups`) and EASSE's variant,
:func:`count_syllables`, which FKGL (and the published metaeval-2021 FKGL and
FKBLEU values) uses. Plugins build their own variant on the shared rules.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["EASSE_EXCEPTIONS", "LINGUA_EXCEPTIONS", "adjusted_vowel_groups", "count_syllables"]

# Lingua::EN::Syllable's exception list.
LINGUA_EXCEPTIONS: dict[str, int] = {
    "tottered": 2, "chummed": 1, "peeped": 1, "moustaches": 2, "shamefully": 3,
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
# EASSE adds "the", which the vowel-group rules would count as 0 once its "e" is stripped.
EASSE_EXCEPTIONS: dict[str, int] = {"the": 1, **LINGUA_EXCEPTIONS}

# Vowel groups that are one syllable too many (e.g. "-cial", "-tion").
_SUBTRACT = tuple(
    re.compile(p) for p in ("cial", "tia", "cius", "cious", "gui", "ion", "iou", "sia$", ".ely$")
)
# Spellings where the vowel groups miss a syllable (e.g. "-ia", "-ism", "coa-").
_ADD = tuple(
    re.compile(p)
    for p in (
        "ia", "riet", "dien", "iu", "io", "ii", r"[aeiouy]bl$", "mbl$", "[aeiou]{3}", "^mc",
        "ism$", r"(.)(?!\1)([aeiouy])\2l$", "[^l]llien", "^coad.", "^coag.", "^coal.",
        "^coax.", r"(.)(?!\1)[gq]ua(.)(?!\2)[aeiou]", "dnt$",
    )
)
_VOWEL_GROUP = re.compile("[aeiouy]+")


def adjusted_vowel_groups(stem: str) -> int:
    """Vowel groups of a lowercased ``stem``, plus the "add" and minus the "subtract" patterns it matches."""
    count = len(_VOWEL_GROUP.findall(stem))
    count += sum(1 for pattern in _ADD if pattern.search(stem))
    count -= sum(1 for pattern in _SUBTRACT if pattern.search(stem))
    return count


# Per word, not per text: bounded by the vocabulary, so a small process-wide cache stays small.
@lru_cache(maxsize=1 << 16)
def count_syllables(word: str) -> int:
    """Syllables of one word as EASSE counts them: every trailing "e" stripped (punctuation counts 0)."""
    word = word.lower().strip()
    if word in EASSE_EXCEPTIONS:
        return EASSE_EXCEPTIONS[word]
    return adjusted_vowel_groups(word.rstrip("e"))
