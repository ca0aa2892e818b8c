"""The :class:`Dataset` base class: human-rated simplification outputs for meta-evaluation.

A dataset is a list of :class:`Item` (source, output, system, system type, item key, and where
known the line of the 359-sentence TurkCorpus/ASSET/HSplit test set it came from), human scores
per aspect (raw and, where the dataset has them, per-rater z-scores) and, where released,
the individual ratings for inter-annotator agreement. Subclasses only parse their files
(:meth:`Dataset.read`); everything else (aspects, the ``average`` aspect, references) is here.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import numpy as np

from simpeval.datadir import require_file
from simpeval.datasets.references import REFERENCE_SETS, references_for_lines, sources_for_lines
from simpeval.errors import UsageError
from simpeval.languages import ENGLISH

AVERAGE = "average"


@dataclass(frozen=True)
class Item:
    """One rated output."""

    key: tuple[str, ...]
    source: str
    output: str
    system: str
    system_type: str = ""
    line: int | None = None  # 0-based line of the TurkCorpus/ASSET/HSplit test set
    sentence_type: str = ""  # SimpEval_2022's operation label (Deletions, Paraphrases, Splittings)


@dataclass
class Ratings:
    """Individual ratings of one aspect, one entry per rating (long form)."""

    item: np.ndarray  # index into Dataset.items
    rater: np.ndarray  # rater ids
    value: np.ndarray

    def matrix(self) -> np.ndarray:
        """Items x k matrix, column j = each item's j-th rating (items must have k ratings each)."""
        if not len(self.item):
            raise UsageError("the ratings file holds no ratings: replace it with the released one")
        order = np.argsort(self.item, kind="stable")
        counts = np.bincount(self.item)
        counts = counts[counts > 0]
        if counts.min() != counts.max():
            raise UsageError(
                f"items have between {counts.min()} and {counts.max()} ratings: "
                "agreement needs the same number of ratings per item"
            )
        return self.value[order].reshape(len(counts), counts[0])

    def standardized(self) -> Ratings:
        """The ratings z-scored per rater (population standard deviation, as scipy's ``zscore``)."""
        values = self.value.astype(float).copy()
        for rater in np.unique(self.rater):
            mask = self.rater == rater
            sd = values[mask].std()
            values[mask] = (values[mask] - values[mask].mean()) / sd if sd > 0 else 0.0
        return Ratings(self.item, self.rater, values)


@dataclass
class Judgements:
    """What :meth:`Dataset.read` returns: the items and their scores, aligned by position."""

    items: list[Item]
    raw: dict[str, np.ndarray]
    standardized: dict[str, np.ndarray] = field(default_factory=dict)
    ratings: dict[str, Ratings] = field(default_factory=dict)
    splits: list[str] | None = None  # each item's declared split (train, validation, test), if any


class Dataset:
    """Base class of every dataset; a plugin registers subclasses via ``simpeval_register_datasets``.

    Class attributes a subclass sets:

    - ``name``: the registry and ``--dataset`` name;
    - ``description``: one line for ``simpeval datasets list``;
    - ``files``: paths relative to the data directory that :meth:`read` receives;
    - ``source_url``: the public home of the files, named when one is missing;
    - ``licence``: the files' licence as their source states it ("" when unknown: ``simpeval data``
      then points at the source), shown by ``simpeval data`` beside a missing data set;
    - ``key_columns``: the column names that identify an item (``--scores`` files join on them);
    - ``aspects``: the human-score aspects, default first;
    - ``average_of``: the aspects the ``average`` aspect averages (empty: no ``average``);
    - ``default_references``: the reference set used when ``--references`` is not given;
    - ``output_artifacts``: outputs may carry tokenisation artefacts of the systems (``||``,
      ``<SEP>``, spaced punctuation) that ``--preset lens-2023`` removes, as LENS did;
    - ``level``: ``"document"`` when the items are multi-sentence texts (``simpeval leaderboard
      --level document`` shows them; the sentence-level board leaves them out);
    - ``kind``: ``"rated"`` (a human score per item), ``"pairwise"``
      (:class:`simpeval.datasets.pairwise.PairwiseDataset`: a preference per pair of items) or
      ``"text"`` (a human score of a single text, its readability: no source/output pair; each item's
      text is its output *and* its source, so only the scores that read the output alone,
      ``Metric.output_only``, are correlated with it);
    - ``default_split``: the declared split (:meth:`item_splits`) meta-evaluation uses when none is
      asked (ReadMe++: ``test``; its train and validation items are for training metrics);
    - ``lang``: the language of the texts (ISO 639-1), the default of ``--lang``.
    """

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    files: ClassVar[tuple[str, ...]] = ()
    source_url: ClassVar[str] = ""
    licence: ClassVar[str] = ""
    key_columns: ClassVar[tuple[str, ...]] = ("sent_id", "sys_name")
    aspects: ClassVar[tuple[str, ...]] = ("simplicity",)
    average_of: ClassVar[tuple[str, ...]] = ()
    default_references: ClassVar[str | None] = "asset"
    output_artifacts: ClassVar[bool] = False
    level: ClassVar[str] = "sentence"
    kind: ClassVar[str] = "rated"
    lang: ClassVar[str] = ENGLISH
    default_split: ClassVar[str | None] = None

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        paths = [require_file(data_dir, f, self.source_url) for f in self.files]
        judgements = self.read(*paths)
        if not judgements.items:
            raise UsageError(f"{', '.join(map(str, paths))}: no rated outputs in dataset \"{self.name}\": "
                             "replace the file(s) with the released ones")
        self.items = judgements.items
        self._raw = judgements.raw
        self._standardized = judgements.standardized
        self._ratings = judgements.ratings
        self._splits = judgements.splits

    def read(self, *paths: Path) -> Judgements:
        """Parse the dataset's ``files`` (in order) into :class:`Judgements`."""
        raise NotImplementedError

    def __len__(self) -> int:
        return len(self.items)

    def item_splits(self) -> list[str] | None:
        """Each item's split (``train``, ``validation`` or ``test``), or None when the dataset declares none.

        A dataset plugin that trains or tunes metrics on part of its items overrides this, so that
        ``simpeval leaderboard --split test`` (and ``meta-evaluate`` through
        :class:`simpeval.metaeval.run.Request`'s ``item_split``) correlates on held-out items only;
        a loader can instead return them in :attr:`Judgements.splits`.
        """
        return self._splits

    def only_split(self, split: str) -> Dataset:
        """A copy holding only the items of declared split ``split`` (their scores, ratings and splits);
        :class:`UsageError` when the dataset declares no splits or not this one. State a subclass keeps
        beside the base class's (its own references) is not subset: such a dataset declares no splits."""
        splits = self.item_splits()
        if splits is None:
            raise UsageError(f"{self.name} declares no train/validation/test splits: drop the split, "
                             "or use a dataset that declares them")
        if split not in splits:
            raise UsageError(f'{self.name} has no "{split}" split: choose one of {", ".join(sorted(set(splits)))}')
        keep = np.flatnonzero(np.asarray(splits) == split)
        part = copy.copy(self)
        part.items = [self.items[i] for i in keep]
        part._raw = {a: v[keep] for a, v in self._raw.items()}
        part._standardized = {a: v[keep] for a, v in self._standardized.items()}
        position = np.full(len(self.items), -1)
        position[keep] = np.arange(len(keep))
        part._ratings = {}
        for aspect, r in self._ratings.items():
            kept = position[r.item] >= 0
            part._ratings[aspect] = Ratings(position[r.item[kept]], r.rater[kept], r.value[kept])
        part._splits = [split] * len(keep)
        part.item_splits = lambda: part._splits  # a subclass's own item_splits described every item
        return part

    # ------------------------------------------------------------------
    # Human scores
    # ------------------------------------------------------------------

    @classmethod
    def aspect_names(cls) -> tuple[str, ...]:
        return (*cls.aspects, AVERAGE) if cls.average_of else cls.aspects

    def has_standardized(self, aspect: str) -> bool:
        parts = self.average_of if aspect == AVERAGE else (aspect,)
        return all(p in self._standardized for p in parts)

    def human_scores(self, aspect: str, raw: bool = False) -> np.ndarray:
        """Per-item human score of ``aspect``: the mean of per-rater z-scores where the dataset
        has them (as the paper's tables use), the raw rating mean otherwise or if ``raw``.

        ``average`` is the unweighted mean of the ``average_of`` aspects' per-item scores,
        rounded to 6 decimals: the files store thirds to 9 decimals, and without rounding
        equal averages differ in the 9th decimal and break the ties rank correlations need.
        """
        if aspect not in self.aspect_names():
            known = ", ".join(self.aspect_names())
            raise UsageError(f'dataset "{self.name}" has no aspect "{aspect}": choose one of {known}')
        if aspect == AVERAGE:
            return np.round(np.mean([self.human_scores(a, raw) for a in self.average_of], axis=0), 6)
        if not raw and aspect in self._standardized:
            return self._standardized[aspect]
        return self._raw[aspect]

    def ratings(self, aspect: str) -> Ratings:
        """The individual ratings of ``aspect``; :class:`UsageError` if the dataset has none."""
        if aspect not in self._ratings:
            remedy = f"use --aspect {' or '.join(self._ratings)}" if self._ratings else "it released none"
            raise UsageError(f'dataset "{self.name}" has no per-rater ratings of "{aspect}": {remedy}')
        return self._ratings[aspect]

    # ------------------------------------------------------------------
    # Items
    # ------------------------------------------------------------------

    @property
    def sources(self) -> list[str]:
        return [item.source for item in self.items]

    @property
    def outputs(self) -> list[str]:
        return [item.output for item in self.items]

    @property
    def keys(self) -> list[tuple[str, ...]]:
        return [item.key for item in self.items]

    def metric_sources(self, references: str | None = None) -> list[str]:
        """The originals metrics compare outputs with when using reference set ``references``.

        The items' own sources, except for HSplit, whose references pair with HSplit's
        lowercased, tokenised source file (as in EASSE and the paper's Tables 7 and 10).
        """
        lines = [item.line for item in self.items]
        if references is None or any(line is None for line in lines):
            return self.sources
        return sources_for_lines(self.data_dir, references, lines) or self.sources

    def has_references(self, name: str | None = None) -> bool:
        """Whether :meth:`references` can serve set ``name`` (default: ``default_references``)."""
        name = name or self.default_references
        return name is not None and all(item.line is not None for item in self.items)

    def references(self, name: str | None = None) -> list[list[str]]:
        """Item-major references from set ``name`` (default: ``default_references``)."""
        name = name or self.default_references
        lines = [item.line for item in self.items]
        if name is None or any(line is None for line in lines):
            raise UsageError(
                f'dataset "{self.name}" has no references: use metrics that need none '
                "or --scores with precomputed values"
            )
        if name == "selected":
            from simpeval.datasets.selection import selected_references

            return selected_references(self.data_dir, lines, self.sources, self.outputs)
        if name not in REFERENCE_SETS:
            raise UsageError(f'unknown reference set "{name}": choose one of {", ".join(REFERENCE_SETS)}')
        return references_for_lines(self.data_dir, name, lines)
