"""The token ids of a batch's texts, shared by the metrics that count n-grams on arrays (BLEU, SARI).

Both metrics number the distinct texts of a batch and turn every token into an integer id
(:mod:`simpeval.ngram_table` counts on those ids). Each did it for itself, so a run scoring BLEU
and SARI looked up every token of every reference twice. :func:`shared_rows` keeps one
:class:`TextRows` per batch in the run's store, keyed by the batch's outputs and references, so the
second metric finds the first one's rows and adds only what it needs besides (SARI's sources, the
lower-cased tokens of texts whose 13a tokens do not simply lower-case). Rows are only ever appended,
so the row numbers a metric took stay valid.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress, count, filterfalse
from operator import not_
from typing import TYPE_CHECKING

import numpy as np

from simpeval.ngram_table import NgramTable, lowered_ids
from simpeval.store import stored
from simpeval.text import flat_tokens, lowercased_13a_are_cased_lowered, tokenized_many

if TYPE_CHECKING:
    from simpeval.store import StatsStore

__all__ = ["TextRows", "shared_rows"]


class TextRows:
    """The distinct (text, tokenizer, lowercase) of a batch, each tokenised once through the run's
    store and its tokens interned as ids, numbered in order of first use: the rows of an
    :class:`~simpeval.ngram_table.NgramTable`.

    A lower-cased 13a row is the cased row, lower-cased by the table
    (:meth:`table` with ``lowered``): BLEU (cased) and SARI (lower-cased) share its tokens.
    """

    def __init__(self) -> None:
        self._vocabulary: dict[str, int] = {}  # token -> id: the position where it first occurred
        self._positions = 0  # tokens interned so far (every id is below this)
        self._ids: list[np.ndarray] = []  # per call of _add: the token ids of its rows, concatenated
        self._lengths: list[np.ndarray] = []
        self._cased: list[np.ndarray] = []  # per call of _add: whether its rows hold cased 13a tokens
        self._numbers: dict[tuple[str, bool], dict[str, int]] = {}  # (tokenizer, lowercase) -> text -> row
        self._count = 0

    def rows(self, texts: Sequence[str], tokenizer: str, lowercase: bool, *, store: StatsStore | None) -> np.ndarray:
        """The row of each text, the texts not numbered yet tokenized in one batch
        (:func:`simpeval.text.tokenized_many`). A lower-cased 13a text whose lower-cased tokens are its
        cased ones lower-cased (:func:`~simpeval.text.lowercased_13a_is_cased_lowered`) gets its cased
        row, which the table lower-cases (:meth:`table` with ``lowered``)."""
        if not (lowercase and tokenizer == "13a"):
            return self._numbered(texts, tokenizer, lowercase, store)
        easy = lowercased_13a_are_cased_lowered(texts)
        if all(easy):
            return self._numbered(texts, tokenizer, False, store)
        found = np.empty(len(texts), dtype=np.int64)
        mask = np.array(easy, dtype=bool)
        found[mask] = self._numbered(list(compress(texts, easy)), tokenizer, False, store)
        found[~mask] = self._numbered(list(compress(texts, map(not_, easy))), tokenizer, True, store)
        return found

    def _numbered(self, texts: Sequence[str], tokenizer: str, lowercase: bool, store: StatsStore | None) -> np.ndarray:
        """The row of each text tokenized as asked, new rows for the texts not numbered yet."""
        numbers = self._numbers.setdefault((tokenizer, lowercase), {})
        new = list(filterfalse(numbers.__contains__, dict.fromkeys(texts)))
        if new:
            numbers.update(zip(new, count(self._count)))
            self._add(new, tokenizer, lowercase, store)
        return np.fromiter(map(numbers.__getitem__, texts), dtype=np.int64, count=len(texts))

    def _add(self, texts: list[str], tokenizer: str, lowercase: bool, store: StatsStore | None) -> None:
        """Rows for ``texts`` (distinct), tokenized as asked."""
        # every token, each text's followed by a lone NUL (simpeval.text.flat_tokens), interned at C speed;
        # the NULs then mark where each text ends (unless a text has a lone NUL of its own: then one text
        # at a time)
        flat = flat_tokens(texts, tokenizer, lowercase, store=store)
        ids = np.fromiter(map(self._vocabulary.setdefault, flat, count(self._positions)),
                          dtype=np.int64, count=len(flat))
        ends = np.flatnonzero(ids == self._vocabulary.get("\x00", -1))
        if len(ends) != len(texts):
            joined = tokenized_many(texts, tokenizer, lowercase, store=store)
            flat = [token for text in joined for token in text.split()]
            ids = np.fromiter(map(self._vocabulary.setdefault, flat, count(self._positions)),
                              dtype=np.int64, count=len(flat))
            self._lengths.append(np.array([len(text.split()) for text in joined], dtype=np.int64))
        else:
            self._lengths.append(np.diff(ends, prepend=-1) - 1)
            ids = np.delete(ids, ends)
        self._positions += len(flat) + len(texts) + 1  # every id is below this
        self._ids.append(ids)
        self._cased.append(np.full(len(texts), tokenizer == "13a" and not lowercase))
        self._count += len(texts)

    def table(self, max_order: int, lowered: bool = False) -> NgramTable:
        """The n-gram table of every row so far; ``lowered``: the cased 13a rows count lower-cased
        (for the rows of lower-cased texts, :meth:`rows` with ``lowercase``)."""
        if len(self._ids) > 1:  # one array each from now on
            for part in (self._ids, self._lengths, self._cased):
                part[:] = [np.concatenate(part)]
        ids, lengths, cased = (part[0] if part else np.zeros(0, dtype=np.int64)
                               for part in (self._ids, self._lengths, self._cased))
        base = self._positions + 1
        if lowered and cased.any():
            ids, base = lowered_ids(self._vocabulary, ids, np.repeat(cased, lengths), base)
        return NgramTable.of_ids(ids, lengths, base, max_order)


@stored
def _batch_rows(outputs: tuple[str, ...], references: tuple[str, ...], *, store: StatsStore | None) -> TextRows:
    return TextRows()


def shared_rows(outputs: Sequence[str], references: Sequence[str], store: StatsStore | None) -> TextRows:
    """The :class:`TextRows` of the batch with these outputs and (flattened) references, one per run's
    store: BLEU and SARI on the same batch share it (and so its tokens' ids)."""
    return _batch_rows(tuple(outputs), tuple(references), store=store)
