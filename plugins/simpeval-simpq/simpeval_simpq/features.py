"""simpq's features: cheap, interpretable, and each one a reason a rater might give.

Three groups (:data:`GROUPS`): ``base`` (below; always), ``cescore`` (CEScore's SScore, MScore
and GScore from the ``simpeval-cescore`` plugin, used when it is installed) and ``embeddings``
(MiniLM cosine similarity to the source and the references, :mod:`.embeddings`; an option,
since encoding costs most of the time). Base features per text (memoised in the run's store,
:class:`~simpeval.store.StatsStore`, so a source shared by many outputs is analysed once): characters, words, sentences, the mean and minimum Zipf frequency of
its words (wordfreq, English), and its FKGL. Per item: the ratios and differences of those between
output and source, sentence BLEU and SARI against the references, BLEU against the source, and
the share of output words absent from the source.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from typing import TYPE_CHECKING

from simpeval.store import StatsStore, stored
from simpeval_simpq.embeddings import NAMES as EMBEDDING_NAMES

if TYPE_CHECKING:
    from simpeval.run import Run

NAMES = (
    "log_char_ratio", "log_word_ratio", "sentence_gain", "zipf_mean_out", "zipf_mean_gain", "zipf_min_out",
    "zipf_min_gain", "fkgl_out", "fkgl_gain", "sari", "bleu_refs", "bleu_source", "novel_words", "identical",
)
"""The base group's columns."""
CESCORE_NAMES = ("cescore_s", "cescore_m", "cescore_g")
GROUPS = {"base": NAMES, "cescore": CESCORE_NAMES, "embeddings": EMBEDDING_NAMES}
"""Feature group -> its columns, in the order a matrix of several groups holds them."""
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")
_SENTENCE_END = re.compile(r"[.!?]+(?:\s+|$)")


@lru_cache(maxsize=200_000)
def zipf(word: str) -> float:
    """wordfreq's English Zipf frequency of a lower-cased word (0 for unknown words)."""
    from wordfreq import zipf_frequency

    return zipf_frequency(word, "en")


@stored
def text_stats(text: str, *, store: StatsStore | None = None) -> tuple[float, ...]:
    """``(characters, words, sentences, mean zipf, min zipf)`` of one text."""
    words = _WORD.findall(text.lower())
    sentences = max(1, len(_SENTENCE_END.findall(text.strip())))
    freqs = [zipf(w) for w in words] or [0.0]
    return float(len(text)), float(len(words)), float(sentences), float(np.mean(freqs)), float(min(freqs))


def cescore_available() -> bool:
    """Whether the ``simpeval-cescore`` plugin is installed (its parts are then features)."""
    from importlib.util import find_spec

    return find_spec("simpeval_cescore") is not None


def columns(groups: Sequence[str]) -> tuple[str, ...]:
    """The column names of a matrix of ``groups`` (in :data:`GROUPS` order)."""
    return tuple(name for group in GROUPS if group in groups for name in GROUPS[group])


def matrix(sources: Sequence[str], outputs: Sequence[str], references: Sequence[Sequence[str]] | None,
           run: Run, groups: Sequence[str] = ("base",)) -> np.ndarray:
    """``items x len(columns(groups))``: the named groups side by side, each computed once per item."""
    blocks = [features(sources, outputs, references, run)]
    if "cescore" in groups:
        blocks.append(cescore_parts(sources, outputs, run))
    if "embeddings" in groups:
        from simpeval_simpq.embeddings import similarities

        has_refs = references is not None and all(references)
        blocks.append(similarities(sources, outputs, references if has_refs else None, run))
    return np.hstack(blocks)


def cescore_parts(sources: Sequence[str], outputs: Sequence[str], run: Run) -> np.ndarray:
    """``items x 3``: CEScore's SScore, MScore and GScore (the plugin's analyses kept in the run's store)."""
    from simpeval_cescore.metrics import CEScoreMetric

    metric = CEScoreMetric()
    run.bind([metric])
    scores = metric.sentence_scores(sources, outputs)
    return np.column_stack([scores[key] for key in ("cescore-s", "cescore-m", "cescore-g")]).astype(float)


def features(sources: Sequence[str], outputs: Sequence[str], references: Sequence[Sequence[str]] | None,
             run: Run) -> np.ndarray:
    """``items x len(NAMES)`` base feature matrix; per-text statistics are kept in ``run``'s store."""
    from simpeval.metrics.bleu import SentBleu
    from simpeval.metrics.fkgl import Fkgl
    from simpeval.metrics.sari import Sari

    n = len(outputs)
    metrics = [Fkgl(), Sari(), SentBleu()]
    run.bind(metrics)
    store = run.store
    fkgl_metric, sari_metric, bleu_metric = metrics
    fkgl = fkgl_metric.sentence_scores([*sources, *outputs], [*sources, *outputs])["fkgl"]
    has_refs = references is not None and all(references)
    refs = [list(r) for r in references] if has_refs else [[s] for s in sources]
    sari = sari_metric.sentence_scores(sources, outputs, refs)["sari"] if has_refs else [0.0] * n
    bleu_refs = bleu_metric.sentence_scores(sources, outputs, refs)["sent-bleu"] if has_refs else [0.0] * n
    bleu_source = bleu_metric.sentence_scores(sources, outputs, [[s] for s in sources])["sent-bleu"]
    rows = np.empty((n, len(NAMES)))
    for i, (source, output) in enumerate(zip(sources, outputs)):
        s, o = text_stats(source, store=store), text_stats(output, store=store)
        source_words = set(_WORD.findall(source.lower()))
        out_words = _WORD.findall(output.lower())
        novel = sum(w not in source_words for w in out_words) / max(1, len(out_words))
        rows[i] = (
            math.log((o[0] + 1) / (s[0] + 1)), math.log((o[1] + 1) / (s[1] + 1)), o[2] - s[2],
            o[3], o[3] - s[3], o[4], o[4] - s[4], fkgl[n + i], fkgl[n + i] - fkgl[i],
            sari[i] / 100, bleu_refs[i] / 100, bleu_source[i] / 100, novel, float(source.strip() == output.strip()),
        )
    return rows


BASELINES = {"fkgl": ("fkgl_out",), "compression": ("log_char_ratio",), "sari": ("sari",)}
"""Three feature columns read as scores (the model card's label table shows each label against the compression
ratio); the judge's baselines are the registry's (:mod:`simpeval.learning.baselines`)."""


def baseline_scores(matrix: np.ndarray) -> dict[str, np.ndarray]:
    """FKGL of the output, the compression ratio (characters, output over source) and SARI, per row."""
    scores = {name: matrix[:, NAMES.index(column)] for name, (column,) in BASELINES.items()}
    scores["compression"] = np.exp(scores["compression"])
    return scores


class _ItemRows:
    """Computes feature rows for a run's store: one instance per run and groups, so its identity keys the rows."""

    def __init__(self, run: Run, groups: tuple[str, ...]) -> None:
        self.run, self.groups = run, groups

    def __call__(self, args_list: list[tuple], *, store: StatsStore | None = None) -> list[np.ndarray]:
        rows: list[np.ndarray] = [np.empty(0)] * len(args_list)
        for with_refs in (True, False):
            picked = [i for i, (_, _, refs) in enumerate(args_list) if bool(refs) is with_refs]
            if not picked:
                continue
            block = matrix([args_list[i][0] for i in picked], [args_list[i][1] for i in picked],
                           [args_list[i][2] for i in picked] if with_refs else None, self.run, self.groups)
            for i, row in zip(picked, block):
                rows[i] = row
        return rows


def rows(sources: Sequence[str], outputs: Sequence[str], references: Sequence[Sequence[str]] | None,
         run: Run, groups: Sequence[str] = ("base",)) -> np.ndarray:
    """:func:`matrix`, with each item's row kept in ``run``'s store: scoring the same items again is a lookup.

    An item's row depends on its own source, output and references only (SARI and BLEU against
    references are 0 for an item without references).
    """
    groups = tuple(g for g in GROUPS if g in groups)
    compute = run.resource(("simpq-rows", groups), lambda: _ItemRows(run, groups))
    args = [(s, o, tuple(references[i]) if references is not None else ()) for i, (s, o) in enumerate(zip(sources, outputs))]
    return np.vstack(run.store.get_many(compute, args)) if args else np.zeros((0, len(columns(groups))))
