"""The operation of every word of a sample, for highlighting: :mod:`simpeval.analysis`'s alignment.

Both texts are split with the 13a tokenizer, as the ``ops`` metric splits them, so the colours
of a sample agree with the operation proportions in the report's table. A span is
``(operation, text)``: consecutive tokens with one operation, joined by spaces.
"""

from __future__ import annotations

from simpeval.analysis import align_words
from simpeval.text import tokenize

Span = tuple[str, str]


def operation_spans(source: str, output: str) -> tuple[list[Span], list[Span]]:
    """The source's tokens labelled kept/deleted/replaced/moved, the output's kept/replaced/moved/added."""
    src, out = tokenize(source, "13a"), tokenize(output, "13a")
    alignment = align_words(src, out)
    return _spans(src, alignment.source_labels), _spans(out, alignment.output_labels)


def _spans(tokens: list[str], labels: tuple[str, ...]) -> list[Span]:
    spans: list[Span] = []
    for token, label in zip(tokens, labels):
        if spans and spans[-1][0] == label:
            spans[-1] = (label, spans[-1][1] + " " + token)
        else:
            spans.append((label, token))
    return spans
