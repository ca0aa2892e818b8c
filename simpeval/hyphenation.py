"""pyphen's hyphenation points, found by walking a trie of its patterns.

Liang's algorithm (TeX's, and pyphen's ``HyphDict.positions``) gives every position of ``.word.`` the
highest value any matching pattern puts there, and a word may break where that value is odd. pyphen
finds the matching patterns by slicing every substring of ``.word.`` up to its longest pattern's length
and looking it up in a dict (56 substrings per word for the Russian words of
``benchmarks/readability_textstat.py``). A walk down a trie of the patterns from each position stops at
the first character no pattern continues with (31 steps per word there), and each step looks up one
character in a small dict rather than a new substring in a large one. In a fresh process, where pyphen's memo of
hyphenated words is empty, pyphen's search was most of what counting syllables cost (Russian: 0.25 s of
0.28 s for ReadMe++'s paragraphs); ``benchmarks/readability_textstat.py`` times both searches on the
same words (docs/benchmarks/readability.md).

The trie grows as the words need it: a node is made the first time a walk reaches it, from the sorted
patterns, so a dictionary of 66,000 patterns (German) costs only the nodes its texts reach, not the
0.7 s and 71 MB that all of it takes. It is bounded like simpeval's other per-word tables: past
:data:`MOST_NODES` nodes it starts again from the root. The points are pyphen's:
``tests/test_hyphenation.py`` compares them on every word of the data directory's German, French and
Russian texts and on random words of each dictionary's letters.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

__all__ = ["MOST_NODES", "PatternTrie"]

#: the nodes a trie makes before it starts again (German's texts here reach 16,534; all of German is 277,153)
MOST_NODES = 1 << 16


class PatternTrie:
    """The patterns of one pyphen dictionary (``pyphen.Pyphen(lang=...)``), with its ``left`` and
    ``right``: the fewest letters before the first and after the last break it keeps.

    A node is a pair ``(values, children)``: what the pattern of exactly its prefix puts at each position
    from the prefix's first character, ``((offset, value), ...)`` without zeros (None if no pattern is the
    prefix), and a dict of each character some pattern goes on with -> its node, or, until a walk first
    takes it, a list ``[prefix, start, end]``: the span of the sorted patterns that start with that
    longer prefix. A character no pattern goes on with is no key, so a walk ends there with one lookup."""

    def __init__(self, hyphenator) -> None:  # noqa: ANN001 - a pyphen.Pyphen; pyphen is imported by its user
        self.patterns, self.longest = hyphenator.hd.patterns, hyphenator.hd.maxlen
        self.left, self.right = hyphenator.left, hyphenator.right
        self.sorted = sorted(self.patterns)  # the patterns that start with a prefix stand together
        self.clear()

    def clear(self) -> None:
        """Forget every node made so far (benchmarks time counting from cold)."""
        self.made = 0
        self.root = self.node("", 0, len(self.sorted))

    def node(self, prefix: str, start: int, end: int) -> tuple:
        """The node of ``prefix``, which the sorted patterns from ``start`` to ``end`` (all of them) start with."""
        self.made += 1
        pattern = self.patterns.get(prefix)  # (offset of its first value, values), zeros cut at both ends
        values = pattern and tuple((pattern[0] + index, int(value)) for index, value in enumerate(pattern[1]) if value)
        # the characters that follow the prefix, each found by one bisection past the patterns before it
        children, depth, at = {}, len(prefix), start + (pattern is not None)
        while at < end:
            longer = prefix + self.sorted[at][depth]
            past = bisect_left(self.sorted, longer[:-1] + chr(ord(longer[-1]) + 1), at, end)
            children[longer[-1]], at = [longer, at, past], past
        return values, children

    def inside(self, words: Sequence[str]) -> list[int]:
        """The breaks pyphen keeps in each lower-cased word of ``words``: ``len(pyphen.Pyphen.positions(word))``,
        the odd positions between ``left`` and ``len(word) - right`` (each distinct word walked once)."""
        if self.made > MOST_NODES:
            self.clear()
        root, longest, left, right = self.root[1], self.longest, self.left, self.right
        found = {}
        for word in dict.fromkeys(words):
            pointed = f".{word}."
            highest = [0] * (len(pointed) + 1)  # at index i: the position before the i-th character of pointed
            for start in range(len(pointed) - 1):  # as pyphen: no pattern starts at the closing "."
                children = root
                for character in pointed[start:start + longest]:
                    child = children.get(character)
                    if child is None:
                        break
                    if child.__class__ is list:  # first taken: made now
                        child = children[character] = self.node(*child)
                    values, children = child
                    if values:
                        for offset, value in values:
                            if value > highest[start + offset]:
                                highest[start + offset] = value
            # pyphen's position p is index p + 1 here; it keeps left <= p <= len(word) - right
            found[word] = sum(map((1).__and__, highest[left + 1:len(word) - right + 2]))
        return list(map(found.__getitem__, words))
