"""A small lexical word aligner between an original sentence and its simplification.

Alva-Manchego et al. (2021, §4.4.2) detect deletions and replacements from SimAlign word
alignments (multilingual BERT embeddings, Jalili Sabet et al. 2020). Those weights are not
available offline, so this aligner uses surface evidence only, in three passes:

1. identical words in the longest common subsequence of the two token sequences (monotone);
2. identical words left over anywhere (one-to-one, nearest position first), for reordering;
3. inside each "replace" gap between two anchors (a source span and an output span that
   differ), a source word is aligned to the output word of the same gap that is most similar
   by characters (ratio >= 0.5, e.g. inflections), or, when both spans are at most
   ``max_paraphrase_span`` words, position by position (a short span swapped for a short span
   is a lexical paraphrase).

What it cannot do that SimAlign does: align synonyms that moved away from their position, or
that sit in long rewritten spans; such words count as deleted here, so deletions are
over- and replacements under-detected relative to the paper.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher

_TOKEN = re.compile(r"\w+(?:[-'’]\w+)*|[^\w\s]")
_WORD = re.compile(r"\w")


def tokenize(text: str) -> list[str]:
    """Lowercased word and punctuation tokens."""
    return _TOKEN.findall(text.lower())


@dataclass(frozen=True)
class Alignment:
    """Source token index -> output token index, for the aligned source tokens."""

    source: tuple[str, ...]
    output: tuple[str, ...]
    links: dict[int, int]

    def deleted(self) -> list[str]:
        """Source words (not punctuation) aligned to nothing."""
        return [t for i, t in enumerate(self.source) if i not in self.links and _WORD.search(t)]

    def replaced(self) -> list[tuple[str, str]]:
        """(source word, output word) pairs aligned to a different word."""
        return [
            (self.source[i], self.output[j])
            for i, j in sorted(self.links.items())
            if self.source[i] != self.output[j] and _WORD.search(self.source[i])
        ]


def align(source: str, output: str, max_paraphrase_span: int = 3) -> Alignment:
    """Align the words of ``source`` to those of ``output`` (see the module docstring)."""
    src, out = tokenize(source), tokenize(output)
    links: dict[int, int] = {}
    matcher = SequenceMatcher(a=src, b=out, autojunk=False)
    opcodes = matcher.get_opcodes()
    for tag, i1, i2, j1, j2 in opcodes:
        if tag == "equal":
            links.update(zip(range(i1, i2), range(j1, j2)))
    _align_moved(src, out, links)
    for tag, i1, i2, j1, j2 in opcodes:
        if tag == "replace":
            _align_gap(src, out, links, range(i1, i2), range(j1, j2), max_paraphrase_span)
    return Alignment(tuple(src), tuple(out), links)


def _align_moved(src: list[str], out: list[str], links: dict[int, int]) -> None:
    used = set(links.values())
    for i, token in enumerate(src):
        if i in links:
            continue
        candidates = [j for j, t in enumerate(out) if t == token and j not in used]
        if candidates:
            j = min(candidates, key=lambda j: abs(j - i))
            links[i] = j
            used.add(j)


def _align_gap(
    src: list[str],
    out: list[str],
    links: dict[int, int],
    src_span: range,
    out_span: range,
    max_paraphrase_span: int,
) -> None:
    used = set(links.values())
    free_src = [i for i in src_span if i not in links]
    free_out = [j for j in out_span if j not in used]
    if not free_src or not free_out:
        return
    if len(free_src) <= max_paraphrase_span and len(free_out) <= max_paraphrase_span:
        links.update(zip(free_src, free_out))
        return
    for i in free_src:
        scored = [(SequenceMatcher(a=src[i], b=out[j]).ratio(), j) for j in free_out]
        best, j = max(scored, default=(0.0, -1))
        if best >= 0.5:
            links[i] = j
            free_out.remove(j)
