"""Which words an output changed: the spans to highlight when a sample is shown beside its source.

The texts are split on whitespace and aligned by difflib's longest matching blocks; a span is
``(changed, text)``. This is for display only: it says nothing about why a word changed.
"""

from __future__ import annotations

from difflib import SequenceMatcher

Span = tuple[bool, str]


def word_diff(source: str, output: str) -> tuple[list[Span], list[Span]]:
    """The source's words with the deleted or replaced ones marked, and the output's with the added ones marked.

    Adjacent words of the same kind are joined into one span, separated by single spaces.
    """
    src, out = source.split(), output.split()
    src_spans: list[Span] = []
    out_spans: list[Span] = []
    for op, i1, i2, j1, j2 in SequenceMatcher(None, src, out, autojunk=False).get_opcodes():
        changed = op != "equal"
        if i2 > i1:
            _append(src_spans, changed, src[i1:i2])
        if j2 > j1:
            _append(out_spans, changed, out[j1:j2])
    return src_spans, out_spans


def _append(spans: list[Span], changed: bool, words: list[str]) -> None:
    if spans and spans[-1][0] == changed:
        spans[-1] = (changed, spans[-1][1] + " " + " ".join(words))
    else:
        spans.append((changed, " ".join(words)))
