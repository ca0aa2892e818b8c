"""Aggregated sentence metrics (Maddela & Alva-Manchego, NAACL 2025): align, score, aggregate.

Why: a sentence metric given a whole document compares n-grams or embeddings across unrelated
sentences. Maddela & Alva-Manchego align the sentences of the input document with those of the
output (and of a reference), score each aligned group with the sentence metric, and average
over the document:

1. the three texts are split into sentences (English Punkt, :func:`simpeval.text.split_sentences`);
2. an input sentence and an output sentence are linked when their similarity is above a
   threshold, and so are an input sentence and a reference sentence (reference-based metrics);
3. each connected set of linked sentences that holds an input or an output sentence is a group
   (many-to-many: a split, a merge, a reordering); unlinked input sentences in a row form one
   group (deleted), as do unlinked output sentences in a row (added);
4. the sentence metric scores each group: its input sentences joined as the source, its output
   sentences as the output, its reference sentences as the one reference; the document's score
   is the mean over its groups, and with several references the best reference's mean.
   A document without any group (all texts empty) is scored whole.

The paper links sentences with a fine-tuned BERT sentence-alignment classifier (probability above
0.5), whose weights cannot be obtained here. simpeval links them with its own aligners instead
(``aligner`` option, in the signature): ``lexical`` (default, no model): the Dice share of the two
sentences' words that simpeval's word aligner (:mod:`simpeval.datasets.aligner`, same or similar words
only) aligns, above 0.5;
``minilm``: the cosine of the local MiniLM encoder's mean-pooled sentence embeddings
(:data:`simpeval.models.DEFAULT_ENCODER`, or ``encoder=PATH``), above 0.6. Scores therefore
differ from the paper's.

:func:`aggregated` builds the aggregated metric of any sentence metric class; ``agg-sari``,
``agg-bleu`` and ``agg-bertscore`` are registered. The grouping is the pure function
:func:`sentence_groups`, over similarity matrices.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

import simpeval
from simpeval.metrics.base import Metric, Option
from simpeval.metrics.bertscore import BertScore
from simpeval.metrics.bleu import Bleu
from simpeval.metrics.composite import component_settings, prefixed_options
from simpeval.metrics.sari import Sari
from simpeval.text import split_sentences

ALIGNERS = ("lexical", "minilm")
THRESHOLDS = {"lexical": 0.5, "minilm": 0.6}
_WORD = re.compile(r"\w")

__all__ = ["Group", "aggregated", "lexical_similarity", "sentence_groups"]


@dataclass(frozen=True)
class Group:
    """Indices of the input, output and reference sentences of one aligned group, each ascending."""

    sources: tuple[int, ...]
    outputs: tuple[int, ...]
    references: tuple[int, ...]


def sentence_groups(source_output: np.ndarray, source_reference: np.ndarray | None,
                    threshold: float) -> list[Group]:
    """The aligned groups of one document (steps 2 and 3 of the module docstring).

    :param source_output: similarity of input sentence i and output sentence j, shape (inputs, outputs);
    :param source_reference: of input sentence i and reference sentence k, or None (no reference links).
    """
    n_src, n_out = source_output.shape
    n_ref = 0 if source_reference is None else source_reference.shape[1]
    parent = list(range(n_src + n_out + n_ref))  # union-find over inputs, then outputs, then references

    def root(node: int) -> int:
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    links = [(i, n_src + j) for i, j in zip(*np.nonzero(source_output > threshold))]
    if source_reference is not None:
        links += [(i, n_src + n_out + k) for i, k in zip(*np.nonzero(source_reference > threshold))]
    for a, b in links:
        parent[root(int(a))] = root(int(b))
    members: dict[int, list[int]] = {}
    for node in range(n_src + n_out):  # a reference sentence only joins through an input sentence
        members.setdefault(root(node), []).append(node)
    for node in range(n_src + n_out, len(parent)):
        if root(node) in members:
            members[root(node)].append(node)
    groups, alone = [], {"source": [], "output": []}
    for nodes in members.values():
        if len(nodes) == 1:
            node = nodes[0]
            alone["source" if node < n_src else "output"].append(node if node < n_src else node - n_src)
            continue
        groups.append(Group(tuple(n for n in nodes if n < n_src),
                            tuple(n - n_src for n in nodes if n_src <= n < n_src + n_out),
                            tuple(n - n_src - n_out for n in nodes if n >= n_src + n_out)))
    for side, indices in alone.items():  # unlinked sentences in a row: one group
        for run in _runs(sorted(indices)):
            groups.append(Group(run, (), ()) if side == "source" else Group((), run, ()))
    return sorted(groups, key=lambda g: (min(g.sources, default=n_src), min(g.outputs, default=n_out)))


def _runs(indices: list[int]) -> list[tuple[int, ...]]:
    runs: list[list[int]] = []
    for i in indices:
        if runs and runs[-1][-1] == i - 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    return [tuple(run) for run in runs]


def lexical_similarity(first: str, second: str, above: float | None = None) -> float:
    """Dice share of the words (not punctuation) of two sentences that simpeval's word aligner aligns: the same
    word, or a similar one (an inflection) in the same stretch. Its rule that pairs short spans word by word is
    off (``max_paraphrase_span=0``): it would link any two short sentences.

    :param above: only tell whether the share exceeds this: the aligner's character comparisons (most of
        its time) run only when the bounds leave it open. The identical words it aligns (the smaller count of
        each word) bound the share from below; from above, those plus the words left on either side that have
        a partner left on the other whose Indel similarity is at least 0.5 (difflib's ratio, which the aligner
        requires to be 0.5, never exceeds it); a bound already on one side of ``above`` is returned instead.
    """
    from simpeval.datasets.aligner import align, tokenize

    words = [Counter(t for t in tokenize(text) if _WORD.search(t)) for text in (first, second)]
    total = sum(words[0].values()) + sum(words[1].values())
    if not total:
        return 0.0
    if above is not None:
        same = words[0] & words[1]
        lower = 2 * sum(same.values()) / total
        if lower > above:
            return lower
        upper = 2 * (sum(same.values()) + _similar_left(words[0] - same, words[1] - same)) / total
        if upper <= above:
            return upper
    alignment = align(first, second, max_paraphrase_span=0)
    linked = sum(1 for i in alignment.links if _WORD.search(alignment.source[i]))
    return 2 * linked / total


def _similar_left(left: Counter, right: Counter) -> int:
    """At most how many more word pairs the aligner's character pass could link between two leftover multisets."""
    if not left or not right:
        return 0
    from rapidfuzz.distance import Indel
    from rapidfuzz.process import cdist

    similar = cdist(list(left), list(right), scorer=Indel.normalized_similarity, score_cutoff=0.5) >= 0.5
    rows = sum(n for n, hit in zip(left.values(), similar.any(axis=1)) if hit)
    columns = sum(n for n, hit in zip(right.values(), similar.any(axis=0)) if hit)
    return min(rows, columns)


class Aggregated(Metric):
    """The aggregated form of the sentence metric ``inner`` (see the module docstring)."""

    inner: ClassVar[type[Metric]]
    prefix: ClassVar[str]
    level = "document"
    formula_version = "1"

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        if self.threshold is None:
            self.threshold = self.settings["threshold"] = THRESHOLDS[self.aligner]
        if self.aligner == "minilm":
            from simpeval import models

            self.encoder = self.settings["encoder"] = models.resolve_encoder(self.encoder or models.DEFAULT_ENCODER,
                                                                            self.name)
        elif self.encoder is not None:
            from simpeval.errors import UsageError

            raise UsageError(f"{self.name}: encoder=... is for aligner=minilm: drop it or add aligner=minilm")
        self._metric = self.inner(**component_settings(self.settings, self.prefix))

    def _similarities(self, rows: Sequence[str], columns: Sequence[str]) -> np.ndarray:
        if not rows or not columns:
            return np.zeros((len(rows), len(columns)))
        if self.aligner == "lexical":
            return np.array([[lexical_similarity(a, b, self.threshold) for b in columns] for a in rows])
        from simpeval.encoding import mean_pooled_encoder

        encoder = mean_pooled_encoder(self.run, self.encoder, max_length=256, batch_size=64,
                                      description=f"{self.name} alignment", unit_length=True)
        vectors = [np.stack([v.float().numpy() for v in encoder.encode(list(texts))]) for texts in (rows, columns)]
        return vectors[0] @ vectors[1].T

    def _score_items(self, sources, outputs, references=None):  # noqa: ANN001, ANN201
        """Every group of every document (and reference) scored in one call of the sentence metric."""
        uses_refs = self.inner.requires_references
        triples, owners = [], []  # (source, output, [reference]) per group; (document, reference) per group
        for d, (source, output) in enumerate(zip(sources, outputs)):
            src, out = split_sentences(source, store=self.store), split_sentences(output, store=self.store)
            source_output = self._similarities(src, out)
            for k, reference in enumerate(references[d] if uses_refs else [None]):
                ref = split_sentences(reference, store=self.store) if uses_refs else ()
                groups = sentence_groups(source_output, self._similarities(src, ref) if uses_refs else None,
                                         self.threshold)
                whole = [(source, output, [reference] if uses_refs else None)]
                triples += whole if not groups else [
                    (" ".join(src[i] for i in g.sources), " ".join(out[j] for j in g.outputs),
                     [" ".join(ref[i] for i in g.references)] if uses_refs else None) for g in groups]
                owners += [(d, k)] * max(1, len(groups))
        scores = self._metric._score_items([t[0] for t in triples], [t[1] for t in triples],
                                           [t[2] for t in triples] if uses_refs else None)[self._metric.name]
        means: dict[tuple[int, int], list[float]] = {}
        for owner, score in zip(owners, scores):
            means.setdefault(owner, []).append(score)
        best = [max(float(np.mean(v)) for (d, _), v in means.items() if d == doc) for doc in range(len(outputs))]
        return {self.name: best}


def aggregated(metric: type[Metric], name: str | None = None) -> type[Metric]:
    """The aggregated metric of sentence metric class ``metric``: ``agg-<its name>`` unless ``name``.

    Its options are the alignment's (``aligner``, ``threshold``, ``encoder``) and ``metric``'s under
    the prefix ``<its name>_`` (``agg-sari:sari_del=precision``), all in the signature.
    """
    prefix = metric.name.replace("-", "_") + "_"
    title = name or f"agg-{metric.name}"
    return type(f"Agg{metric.__name__}", (Aggregated,), {
        "__module__": __name__,
        "__doc__": f"{metric.__name__} per aligned sentence group, averaged over the document.",
        "name": title, "inner": metric, "prefix": prefix, "sub_scores": (title,),
        "description": f"{metric.name} aligned sentence by sentence and averaged over the document "
                       "(Maddela & Alva-Manchego 2025)",
        "requires_references": metric.requires_references, "higher_is_better": metric.higher_is_better,
        "neural": metric.neural,
        "documents_only": f"aggregates {metric.name} over a document's sentences (on one sentence it is {metric.name})",
        "options": {
            "aligner": Option(str, "lexical", "sentence aligner: lexical (word alignment) or minilm (embeddings)",
                              choices=ALIGNERS),
            "threshold": Option(float, None, "link sentences more similar than this (default 0.5 lexical, 0.6 minilm)",
                                short="thr"),
            "encoder": Option(str, None, "encoder of aligner=minilm (default: the MiniLM wheel)", path=True),
            **prefixed_options(metric.options, prefix),
        },
    })


AggSari = aggregated(Sari)
AggBleu = aggregated(Bleu)
AggBertScore = aggregated(BertScore)


@simpeval.hookimpl
def simpeval_register_metrics() -> list[type[Metric]]:
    return [AggSari, AggBleu, AggBertScore]
