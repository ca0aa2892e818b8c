"""Token F1 against the references, as EASSE's ``corpus_f1_token`` (sentence compression).

Per item, outputs and references are normalised (optional lowercasing, then the tokenizer),
the tokens the output shares with a reference are counted as multisets, and precision,
recall and F1 follow; the item's score is the best F1 over its references, times 100
(an F1 is 0 when precision or recall is). The corpus score is the mean of the items'.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import simpeval
from simpeval.metrics.base import Metric, Option
from simpeval.text import tokenize
from simpeval.tokenizers import TOKENIZER_NAMES


def token_f1(output: Sequence[str], reference: Sequence[str]) -> float:
    """F1 (0-1) of the tokens ``output`` shares with ``reference``, counted as multisets."""
    correct = sum((Counter(output) & Counter(reference)).values())
    if not correct:
        return 0.0
    precision, recall = correct / len(output), correct / len(reference)
    return 2 * precision * recall / (precision + recall)


class F1Token(Metric):
    """Best token F1 of the output over its references (EASSE's ``f1_token``)."""

    name = "f1-token"
    formula_version = "1"
    languages = None  # no language rules of its own: its tokenizer's (Metric.supported_languages)
    sub_scores = ("f1-token",)
    description = "token F1 against the closest reference (EASSE's f1_token, sentence compression)"
    requires_references = True
    options = {
        "tokenizer": Option(str, "13a", "word tokenizer", choices=TOKENIZER_NAMES, short="tok"),
        "lowercase": Option(bool, True, "lowercase before tokenizing (EASSE's default)", short="lc"),
    }

    def _score_items(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
    ) -> dict[str, list[float]]:
        scores = []
        for output, refs in zip(outputs, references):
            tokens = tokenize(output, self.text_tokenizer, self.lowercase, store=self.store)
            best = max((token_f1(tokens, tokenize(r, self.text_tokenizer, self.lowercase, store=self.store)) for r in refs), default=0.0)
            scores.append(100.0 * best)
        return {self.name: scores}


@simpeval.hookimpl
def simpeval_register_metrics() -> list[type[Metric]]:
    return [F1Token]
