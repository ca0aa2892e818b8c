"""A shipped learned metric judged on the rated datasets outside its training data.

For each rated dataset (:data:`ASPECT_DATASETS`: the rated sets with their aspect labels, and
SimpEval_2022, test data nobody trains or selects on) and each (sub-score, aspect) the metric
declares, :func:`judge_metric` scores the items, computes every registry baseline on the same
items (:mod:`simpeval.learning.baselines`), and judges
(:func:`simpeval.learning.verdict.judge_scores`). A dataset the metric's ``trained_on`` names is
no held-out data and gets no row; a dataset that only shares items with its training data is
marked by the same item-key overlap the leaderboard uses (:func:`seen`), so its row over all items
is contaminated and a row over the unseen items carries the verdict.

A dataset of single rated texts (``kind`` ``"text"``: readability in any language, rated higher =
harder) is read by :func:`text_items`: its ratings point the other way from a simplification's
(:attr:`RatedItems.higher_is_better`), so a metric declared lower-is-better (a reading level) agrees
with them when its r is positive, and its baselines are the scores that read a text alone in its
language (:func:`simpeval.learning.baselines.baseline_specs`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simpeval.languages import ENGLISH
from simpeval.learning.verdict import Row, judge, judge_scores, pearson

__all__ = ["ASPECT_DATASETS", "RatedItems", "held_pairs", "judge_metric", "metric_scores", "rated_items",
           "rejudge_rows", "seen", "seen_by", "text_items"]

ASPECT_DATASETS = {
    "simplicity": ("simplicity-da", "structural-simplicity", "simpeval-past", "simpeval-2022"),
    "meaning": ("simplicity-da", "structural-simplicity"),
    "fluency": ("simplicity-da", "structural-simplicity"),
}
"""aspect -> the rated datasets with a label for it (:data:`simpeval.learning.rated.LABELS`, and SimpEval_2022's
simplicity)."""


@dataclass(frozen=True)
class RatedItems:
    """One rated dataset's items with every aspect's labels (SimpEval_past without its ASSET-reference systems)."""

    name: str
    sources: list[str]
    outputs: list[str]
    references: list[list[str]] | None
    labels: dict[str, np.ndarray]  # aspect -> labels
    lang: str = ENGLISH
    higher_is_better: bool = True  # higher ratings mean a better (simpler) output; False: a harder text


def rated_items(data_dir: Path, name: str) -> RatedItems:
    """``name``'s items and labels: :func:`simpeval.learning.rated.load_rated`'s, or SimpEval_2022's simplicity."""
    from simpeval.learning.rated import LABELS, load_rated

    if name == "simpeval-2022":
        from simpeval.datasets.lens import SimpEval2022

        dataset = SimpEval2022(data_dir)
        return RatedItems(name, [i.source for i in dataset.items], [i.output for i in dataset.items],
                          [list(r) for r in dataset.references()],
                          {"simplicity": np.asarray(dataset.human_scores("simplicity"), float)})
    (data,) = load_rated(data_dir, [name])
    labels = {aspect: data.labels[columns[name]] for aspect, columns in LABELS.items() if name in columns}
    return RatedItems(name, list(data.sources), list(data.outputs), [list(r) for r in data.references], labels)


def text_items(dataset) -> RatedItems:
    """A loaded dataset of single rated texts (``kind`` ``"text"``; a declared split already taken) as rated
    items: every aspect's ratings (higher = harder), its language, no references."""
    return RatedItems(dataset.name, list(dataset.sources), list(dataset.outputs), None,
                      {aspect: np.asarray(dataset.human_scores(aspect), float) for aspect in dataset.aspects},
                      dataset.lang, higher_is_better=False)


def held_pairs(registry, data_dir: Path, trained_on: Sequence[str]) -> tuple[set[bytes], list[str]]:
    """The (source, output) keys of the training data named by ``trained_on`` (the leaderboard's overlap,
    :mod:`simpeval.leaderboard.overlap`), and the training names that cannot be read."""
    from simpeval.leaderboard.overlap import training_items

    held, unknown = set(), []
    for name in trained_on:
        items = training_items(registry, data_dir, name)
        if items is None:
            unknown.append(name)
        else:
            held.update(items.pairs)
    return held, unknown


def seen_by(held: set[bytes], sources: Sequence[str], outputs: Sequence[str]) -> np.ndarray:
    """Per item, whether ``held`` (training keys, :func:`held_pairs` or a fold's) holds its (source, output) key."""
    from simpeval.itemkeys import pair_keys

    return np.fromiter((k in held for k in pair_keys(sources, outputs)), bool, count=len(outputs))


def seen(registry, data_dir: Path, trained_on: Sequence[str], sources: Sequence[str],
         outputs: Sequence[str]) -> tuple[np.ndarray, list[str]]:
    """Per item, whether the training data named by ``trained_on`` holds its (source, output) pair (the
    leaderboard's overlap, :mod:`simpeval.leaderboard.overlap`), and the training names that cannot be read."""
    held, unknown = held_pairs(registry, data_dir, trained_on)
    return seen_by(held, sources, outputs), unknown


def metric_scores(registry, name: str, data: RatedItems) -> dict[str, np.ndarray]:
    """Every sub-score of metric ``name`` on ``data``'s items (references given: simpq reads them when it has
    them), in the items' language, through the runner and the score cache."""
    from simpeval.cache import ScoreCache
    from simpeval.runner import evaluate, resolve_metrics

    result = evaluate(resolve_metrics(registry, [name], lang=data.lang), data.sources, data.outputs, data.references,
                      corpus_level=False, cache=ScoreCache())
    return {k: np.asarray(v, float) for k, v in result.sentence_scores.items()}


def judge_metric(cls: type, scores: Mapping[str, str], items: Sequence[RatedItems], registry, data_dir: Path,
                 baselines: Mapping[str, Mapping[str, np.ndarray]]) -> tuple[list[Row], list[str]]:
    """Every held-out row of the learned metric ``cls``: ``scores`` maps each of its sub-scores to the aspect it
    measures; ``baselines``: dataset -> the baseline scores of its items. The metric's r is taken in its declared
    direction against ratings read as higher = better: on ratings where higher is harder
    (:attr:`RatedItems.higher_is_better` False) a lower-is-better metric agrees when its r is positive. Returns
    the rows and the training names whose items could not be compared (none counted as shared)."""
    rows, unknown = [], []
    for data in items:
        if data.name in cls.trained_on:
            continue
        wanted = {s: a for s, a in scores.items() if a in data.labels}
        if not wanted:
            continue
        values = metric_scores(registry, cls.name, data)
        mask, missing = seen(registry, data_dir, cls.trained_on, data.sources, data.outputs)
        unknown += [m for m in missing if m not in unknown]
        for score, aspect in wanted.items():
            rows += judge_scores(values[score], data.labels[aspect], baselines[data.name], dataset=data.name,
                                 aspect=aspect, score=score, seen=mask,
                                 higher_is_better=cls.is_higher_better(score) == data.higher_is_better)
    return rows, unknown


def rejudge_rows(cls: type, rows: Sequence[Row], items: Sequence[RatedItems], registry, data_dir: Path,
                 baselines: Mapping[str, Mapping[str, np.ndarray]]) -> list[Row]:
    """``cls``'s stored held-out ``rows`` judged again beside ``baselines`` (dataset -> the baseline scores of
    its items, computed now), keeping each row's r as the run that scored the metric stored it: scoring the
    learned metric is what costs, and its r does not depend on the baselines.

    Each row's items are rebuilt as :func:`judge_metric` chose them: a defined label, not seen in training for
    an ``unseen`` row, and a defined score of the metric. Only an empty output can leave a score undefined
    (``sle-delta``: no sentence to read), so the metric scores just those items (none elsewhere); every row's
    item count must equal the stored ``n``, else :class:`ValueError` (the rows need a full run)."""
    by_name = {data.name: data for data in items}
    out = []
    for row in rows:
        data = by_name[row.dataset]
        labels = np.asarray(data.labels[row.aspect], float)
        defined = np.isfinite(labels)
        blank = [i for i, text in enumerate(data.outputs) if not text.strip()]
        if blank:
            subset = RatedItems(data.name, [data.sources[i] for i in blank], [data.outputs[i] for i in blank],
                                [data.references[i] for i in blank] if data.references is not None else None,
                                {}, data.lang, data.higher_is_better)
            defined[blank] &= np.isfinite(metric_scores(registry, cls.name, subset)[row.score])
        mask, _ = seen(registry, data_dir, cls.trained_on, data.sources, data.outputs)
        keep = defined & ~mask if row.items == "unseen" else defined
        if int(keep.sum()) != row.n or int((mask & keep).sum()) != row.shared:
            raise ValueError(f"{cls.name} on {row.dataset} ({row.items}): {int(keep.sum())} items "
                             f"({int((mask & keep).sum())} shared) now, {row.n} ({row.shared} shared) when it was "
                             "scored: judge it again by a full run")
        out.append(judge(row.r, row.n, {k: pearson(np.asarray(v, float)[keep], labels[keep])
                                        for k, v in baselines[row.dataset].items()},
                         dataset=row.dataset, aspect=row.aspect, score=row.score, items=row.items,
                         shared=row.shared, chosen=row.chosen, dropped=row.dropped))
    return out
