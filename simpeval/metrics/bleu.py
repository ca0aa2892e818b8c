"""BLEU (Papineni et al. 2002) as EASSE computes it, written for speed.

Sentence BLEU is computed per item from n-gram counts memoised in the run's store
(:mod:`simpeval.text`, :mod:`simpeval.store`) rather than by calling sacrebleu once per sentence, which
is what makes EASSE slow. The arithmetic follows sacrebleu 2's ``compute_bleu``
(smoothing methods of Chen and Cherry 2014, brevity penalty with the closest
reference length, shorter on ties), so the default preset equals
``sacrebleu.metrics.BLEU(tokenize="13a", smooth_method="floor", effective_order=True)``.

``bleu-source`` is BLEU of the output against its own input (``BLEU_C`` in
Cripwell et al. 2024): how much of the input an output copies.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

import simpeval
from simpeval.metrics.base import AdditiveMetric, Metric, Option
from simpeval.ngram_table import clipped_matches
from simpeval.store import StatsStore, stored_many
from simpeval.token_rows import shared_rows
from simpeval.tokenizers import TOKENIZER_NAMES

MAX_ORDER = 4
SMOOTH_METHODS = ("none", "floor", "add-k", "exp")
# sacrebleu 2's defaults for a smoothing value that is not given
SMOOTH_DEFAULTS: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1.0, "exp": None}


@dataclass(frozen=True)
class BleuStats:
    """BLEU's sufficient statistics: lengths and matched/total n-grams per order."""

    hyp_len: int
    ref_len: int
    correct: tuple[int, ...]
    total: tuple[int, ...]


@dataclass(frozen=True)
class Smoothing:
    """How BLEU turns statistics into a score.

    :param method: ``none``, ``floor``, ``add-k`` or ``exp`` (Chen and Cherry 2014).
    :param value: the floor or k; ``None`` for ``none`` and ``exp``.
    :param effective_order: ignore orders with no n-grams in the output (sentence BLEU).
    :param zero_if_no_match: sacrebleu >= 2's rule: no matching n-gram at all gives 0,
        whatever the smoothing (sacrebleu 1.4, and so the metaeval-2021 scores, lacks it).
    """

    method: str
    value: float | None
    effective_order: bool
    zero_if_no_match: bool


@stored_many
def bleu_stats(
    items: list[tuple[str, tuple[str, ...], str, bool]], *, store: StatsStore | None = None
) -> list[BleuStats]:
    """BLEU's statistics of each ``(output, references, tokenizer, lowercase)`` item: n-gram
    matches clipped to the highest count in any one reference, counted for all the items at
    once on arrays (:mod:`simpeval.ngram_table`), each item memoised in the run's store."""
    if len({item[2:] for item in items}) != 1:  # no item, or items tokenized differently (one at a time)
        return [bleu_stats.__wrapped__([item], store=store)[0] for item in items]  # type: ignore[attr-defined]
    tok, lc = items[0][2:]
    texts = [output for output, _, _, _ in items]
    references = [ref for _, refs, _, _ in items for ref in refs]
    rows = shared_rows(texts, references, store)  # SARI on the same batch shares it
    outputs = rows.rows(texts, tok, lc, store=store)
    ref_items = np.repeat(np.arange(len(items)), [len(refs) for _, refs, _, _ in items])
    ref_rows = rows.rows(references, tok, lc, store=store)
    table = rows.table(MAX_ORDER, lowered=lc)
    correct, total = clipped_matches(table, outputs, ref_items, ref_rows, MAX_ORDER)
    hyp_lens, ref_lens = table.lengths[outputs], table.lengths[ref_rows]
    # the closest reference length, the shorter on ties (0 without references): the least
    # (distance, length), one integer per reference
    span = int(ref_lens.max()) + 1 if len(ref_lens) else 1
    none = np.iinfo(np.int64).max
    closest = np.full(len(items), none, dtype=np.int64)
    np.minimum.at(closest, ref_items, np.abs(hyp_lens[ref_items] - ref_lens) * span + ref_lens)
    closest = np.where(closest == none, 0, closest % span)
    return [BleuStats(hyp_len, ref_len, tuple(item_correct), tuple(item_total)) for hyp_len, ref_len, item_correct, item_total
            in zip(hyp_lens.tolist(), closest.tolist(), correct.tolist(), total.tolist())]


def bleu_from_stats(stats: BleuStats, smoothing: Smoothing) -> float:
    """BLEU (0-100) from its statistics, as sacrebleu 2's ``BLEU.compute_bleu``."""
    hyp_len, ref_len = stats.hyp_len, stats.ref_len
    if hyp_len < ref_len:
        brevity = math.exp(1 - ref_len / hyp_len) if hyp_len > 0 else 0.0
    else:
        brevity = 1.0
    if smoothing.zero_if_no_match and not any(stats.correct):
        return 0.0
    precisions = [0.0] * MAX_ORDER
    exp_factor = 1.0
    order = MAX_ORDER
    for n in range(MAX_ORDER):
        correct, total = stats.correct[n], stats.total[n]
        if smoothing.method == "add-k" and n > 0:
            correct += smoothing.value
            total += smoothing.value
        if total == 0:
            break
        if smoothing.effective_order:
            order = n + 1
        if correct == 0:
            if smoothing.method == "exp":
                exp_factor *= 2
                precisions[n] = 100.0 / (exp_factor * total)
            elif smoothing.method == "floor":
                precisions[n] = 100.0 * smoothing.value / total
        else:
            precisions[n] = 100.0 * correct / total
    used = precisions[:order]
    if min(used) <= 0.0:
        return 0.0
    return brevity * math.exp(sum(math.log(p) for p in used) / order)


def resolve_smooth_value(metric: Metric, prefix: str = "") -> None:
    """Replace an unset ``{prefix}smooth_value`` by sacrebleu's default for the method.

    The resolved value then shows in the signature (``smooth_value:0.1``); ``none``
    and ``exp`` take no value, so it is dropped for them.
    """
    method = metric.settings[f"{prefix}smooth"]
    key = f"{prefix}smooth_value"
    value = metric.settings[key]
    if SMOOTH_DEFAULTS[method] is None:
        value = None
    elif value is None:
        value = SMOOTH_DEFAULTS[method]
    metric.settings[key] = value
    setattr(metric, key, value)


# Options that decide the text BLEU sees and its sentence-level smoothing; the
# composite metrics (ibleu, fkbleu, bleu-sari-*) reuse them.
SENTENCE_OPTIONS: dict[str, Option] = {
    "tokenizer": Option(str, "13a", "word tokenizer", choices=TOKENIZER_NAMES, short="tok"),
    "lowercase": Option(bool, False, "lowercase before tokenizing", short="lc"),
    "smooth": Option(str, "floor", "sentence smoothing method", choices=SMOOTH_METHODS),
    "smooth_value": Option(float, None, "floor or k; default: sacrebleu's (floor 0.1, add-k 1)", minimum=0),
    "effective_order": Option(bool, True, "sentence BLEU over the orders present", short="eff"),
    "zero_if_no_match": Option(
        bool, True, "0 when no n-gram matches (sacrebleu >= 2)", short="nomatch0"
    ),
}
CORPUS_OPTIONS: dict[str, Option] = {
    "corpus_smooth": Option(str, "exp", "corpus smoothing method", choices=SMOOTH_METHODS),
    "corpus_smooth_value": Option(float, None, "corpus floor or k", minimum=0),
    "corpus_effective_order": Option(
        bool, False, "corpus BLEU over the orders present", short="corpus_eff"
    ),
}
class Bleu(AdditiveMetric):
    """Sentence and corpus BLEU against the references, with EASSE's settings.

    Sentence scores use ``smooth``/``effective_order`` (EASSE's ``sentence_bleu``:
    floor smoothing, effective order); the corpus score sums the statistics of all
    items and uses the ``corpus_*`` settings (EASSE's ``corpus_bleu``: exp smoothing).
    """

    name = "bleu"
    formula_version = "1"
    languages = None  # no language rules of its own: its tokenizer's (Metric.supported_languages)
    sub_scores = ("bleu",)
    description = "BLEU against the references (sacrebleu-compatible, EASSE settings)"
    requires_references = True
    options = {**SENTENCE_OPTIONS, **CORPUS_OPTIONS}
    presets = {
        # `easse evaluate` lower-cases every metric (its -lc defaults to on), BLEU included;
        # simpeval's BLEU is cased like sacrebleu's. The other defaults are already EASSE's.
        "easse-cli": {"lowercase": True},
    }

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        resolve_smooth_value(self)
        resolve_smooth_value(self, "corpus_")

    @property
    def sentence_smoothing(self) -> Smoothing:
        return Smoothing(self.smooth, self.smooth_value, self.effective_order, self.zero_if_no_match)

    @property
    def corpus_smoothing(self) -> Smoothing:
        return Smoothing(
            self.corpus_smooth,
            self.corpus_smooth_value,
            self.corpus_effective_order,
            self.zero_if_no_match,
        )

    def _references(
        self, sources: Sequence[str], references: Sequence[Sequence[str]] | None
    ) -> list[tuple[str, ...]]:
        """What each output is compared with (``bleu-source`` compares with the source)."""
        return [tuple(refs) for refs in references or ()]

    def item_stats(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
    ) -> list[BleuStats]:
        """Per-item statistics, memoised in the run's store (composite metrics reuse them)."""
        targets = self._references(sources, references)
        tokenizer, lowercase = self.text_tokenizer, self.lowercase
        return bleu_stats([(output, refs, tokenizer, lowercase) for output, refs in zip(outputs, targets)],
                          store=self.store)

    def _item_statistics(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
    ) -> list[tuple[float, ...]]:
        return [(s.hyp_len, s.ref_len, *s.correct, *s.total) for s in self.item_stats(sources, outputs, references)]

    def _score_from_totals(self, totals: Sequence[float]) -> dict[str, float]:
        return {self.name: bleu_from_stats(_bleu_stats(totals), self.corpus_smoothing)}

    def _score_items(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
        **fields: Sequence[Any],
    ) -> dict[str, list[float]]:
        """Each item's :meth:`_score_from_item`, straight from its statistics."""
        smoothing = self.sentence_smoothing
        return {self.name: [bleu_from_stats(s, smoothing) for s in self.item_stats(sources, outputs, references)]}

    def _score_from_item(self, statistics: Sequence[float]) -> dict[str, float]:
        return {self.name: bleu_from_stats(_bleu_stats(statistics), self.sentence_smoothing)}


def _bleu_stats(values: Sequence[float]) -> BleuStats:
    """:class:`BleuStats` from the flat tuple of :meth:`Bleu._item_statistics` (or its sums)."""
    return BleuStats(values[0], values[1], tuple(values[2:2 + MAX_ORDER]), tuple(values[2 + MAX_ORDER:]))


class BleuSource(Bleu):
    """BLEU of the output against its own input ("BLEU_C" in SLEdoc): copying, not quality."""

    name = "bleu-source"
    formula_version = "1"
    sub_scores = ("bleu-source",)
    description = "BLEU of the output against its input (how much is copied)"
    requires_references = False

    def _references(
        self, sources: Sequence[str], references: Sequence[Sequence[str]] | None
    ) -> list[tuple[str, ...]]:
        return [(source,) for source in sources]


class SentBleu(Bleu):
    """The mean of sentence BLEU over the items (EASSE's ``sent_bleu``, ``corpus_averaged_sentence_bleu``).

    Each item's score is ``bleu``'s sentence score (floor smoothing, effective order); the
    corpus score is their mean instead of BLEU of the pooled statistics.
    """

    name = "sent-bleu"
    formula_version = "1"
    sub_scores = ("sent-bleu",)
    description = "mean of sentence BLEU against the references (EASSE's sent_bleu)"
    corpus_level = False
    options = SENTENCE_OPTIONS

    def __init__(self, **settings: Any) -> None:
        Metric.__init__(self, **settings)
        resolve_smooth_value(self)

    # the corpus score is the mean of the sentence scores: none of BLEU's pooled statistics
    _score_corpus = Metric._score_corpus
    _item_statistics = Metric._item_statistics

    def _score_items(
        self,
        sources: Sequence[str],
        outputs: Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
    ) -> dict[str, list[float]]:
        """``bleu``'s sentence scores, from the statistics it keeps to itself here."""
        per_item = Bleu._item_statistics(self, sources, outputs, references)
        return {self.name: [self._score_from_item(s)[self.name] for s in per_item]}


@simpeval.hookimpl
def simpeval_register_metrics() -> list[type[Metric]]:
    return [Bleu, BleuSource, SentBleu]


# what plugins may import (tests/test_public_helpers.py): the metric classes, to build one with settings
__all__ = ["Bleu", "BleuSource", "SentBleu"]
