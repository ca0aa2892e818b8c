"""Intermediate sentences from subsets of span edits, and the BERTScore-F1 filter (paper section 5).

Applying a proper, non-empty subset of the N span edits between an original ``s``
and its simplification ``s'`` gives an intermediate sentence, simpler than ``s`` and
less simple than ``s'``; there are ``2^N - 2`` of them, so above ``cap`` a seeded
sample is drawn. Many are ungrammatical (a rewrite applied in half), so each
candidate gets the mean of its BERTScore F1 against ``s`` and against ``s'``, the
threshold is the mean of that score over *all* candidates of the corpus, and only
candidates scoring at least the threshold are kept; ``m`` of them per pair are
drawn at random.

The functions here are pure (token lists, numbers, an explicit ``random.Random``);
the token embeddings come from :mod:`.similarity`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from simpeval_siera.edits import apply_spans, edit_spans, token_edits

DEFAULT_CAP = 14


def span_subsets(n_spans: int, cap: int, rng: random.Random) -> list[tuple[int, ...]]:
    """Proper non-empty subsets of ``range(n_spans)``: all of them if ``2^N - 2 <= cap``, else ``cap`` distinct ones drawn with ``rng``."""
    total = 2**n_spans - 2
    if total <= cap:
        masks = list(range(1, total + 1))
    else:
        chosen: set[int] = set()
        while len(chosen) < cap:
            mask = rng.getrandbits(n_spans)
            if 0 < mask < 2**n_spans - 1:
                chosen.add(mask)
        masks = sorted(chosen)
    return [tuple(i for i in range(n_spans) if mask >> i & 1) for mask in masks]


def intermediates(
    source_tokens: Sequence[str], target_tokens: Sequence[str], cap: int, rng: random.Random
) -> list[str]:
    """Distinct intermediate sentences (space-joined tokens) between a source and its simplification.

    Sentences equal to either end of the pair are dropped (they add no new ranking).
    """
    edits = token_edits(source_tokens, target_tokens)
    spans = edit_spans(edits)
    ends = {" ".join(source_tokens), " ".join(target_tokens)}
    seen: dict[str, None] = {}
    for subset in span_subsets(len(spans), cap, rng):
        sentence = " ".join(apply_spans(edits, spans, subset))
        if sentence not in ends:
            seen.setdefault(sentence)
    return list(seen)


def filter_threshold(scores: Sequence[float]) -> float:
    """The paper's threshold: the mean filter score over every candidate of the corpus."""
    return sum(scores) / len(scores)


def passes_filter(score: float, threshold: float) -> bool:
    """Candidates scoring below the threshold are discarded; the others are kept."""
    return score >= threshold


@dataclass(frozen=True)
class Candidate:
    """An intermediate sentence of pair ``pair_index`` with its filter score (mean BERTScore F1)."""

    pair_index: int
    text: str
    score: float


@dataclass(frozen=True)
class AugmentationResult:
    """The chosen intermediates (at most ``m`` per pair), the threshold and the candidate count."""

    chosen: list[Candidate]
    threshold: float
    n_candidates: int


def augment(
    pairs: Sequence[tuple[str, str]],
    f1: Callable[[list[tuple[str, str]]], list[float]],
    m: int,
    cap: int,
    seed: int,
) -> AugmentationResult:
    """Make, filter and sample the intermediates of normalised (original, simplified) pairs.

    :param pairs: sentences already normalised (space-joined tokens).
    :param f1: BERTScore F1 of each (candidate, reference) pair it is given, in one batch.
    :param m: intermediates kept per pair (fewer where fewer pass the filter).
    :param cap: most candidates generated per pair.
    :param seed: seeds both the subset sampling and the choice of ``m``.
    """
    rng = random.Random(seed)
    candidates_text: list[tuple[int, str]] = []
    for index, (source, target) in enumerate(pairs):
        for text in intermediates(source.split(), target.split(), cap, rng):
            candidates_text.append((index, text))
    if not candidates_text:
        return AugmentationResult([], float("nan"), 0)
    queries = []
    for index, text in candidates_text:
        queries.append((text, pairs[index][0]))
        queries.append((text, pairs[index][1]))
    f1_values = f1(queries)
    candidates = [
        Candidate(index, text, (f1_values[2 * k] + f1_values[2 * k + 1]) / 2)
        for k, (index, text) in enumerate(candidates_text)
    ]
    threshold = filter_threshold([c.score for c in candidates])
    kept: dict[int, list[Candidate]] = {}
    for candidate in candidates:
        if passes_filter(candidate.score, threshold):
            kept.setdefault(candidate.pair_index, []).append(candidate)
    chosen = []
    for index in sorted(kept):
        options = kept[index]
        chosen.extend(rng.sample(options, min(m, len(options))))
    return AugmentationResult(chosen, threshold, len(candidates))
