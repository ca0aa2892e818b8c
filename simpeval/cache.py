"""An on-disk score cache keyed by metric signature and input hash: the one module that says what
an entry is (its key, :class:`EntryInputs` and :class:`MetricEntries`, and for entries derived from
scores, :func:`derived_key`; its file and checksum, :class:`ScoreCache`; the shape of each kind of
value, the ``check_*`` functions).

Each entry is one JSON file written atomically (a temporary file in the same
directory, then ``os.replace``), so an interrupted run never leaves a
half-written entry and the next run resumes from every batch already scored.
Each entry carries a checksum of its scores and is checked on reading, so a
cached score is always one the code computed (see :class:`ScoreCache`).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from simpeval.fileio import new_file_mode
from simpeval.regularfiles import NotRegularFile, TooLarge, read_bounded

CACHE_DIR_ENV = "SIMPEVAL_CACHE_DIR"


def default_cache_dir() -> Path:
    """``$SIMPEVAL_CACHE_DIR``, else ``$XDG_CACHE_HOME/simpeval``, else ``~/.cache/simpeval``."""
    if os.environ.get(CACHE_DIR_ENV):
        return Path(os.environ[CACHE_DIR_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "simpeval"


SENTENCE, STATISTICS, CORPUS, ITEM_STATISTICS = "sentence", "statistics", "corpus", "item-statistics"
"""The engine's four kinds of entry: a batch's per-item scores, a batch's summed corpus
statistics (BLEU's n-gram counts, say), a whole input's corpus scores, and a batch's per-item
corpus statistics (what paired tests resample)."""


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


class EntryInputs:
    """The texts an entry is keyed by (sources, outputs, references), encoded once, however many
    metrics and kinds of entry look them up or store under them.

    A key is the sha256 of the JSON ``[metric key, kind, sources, outputs, references(, fields)]``;
    the texts are by far its largest part, so they are serialised once, on the first key asked
    (never when there is no cache), and each key hashes a short prefix and these bytes.
    """

    def __init__(self, sources: Sequence[str], outputs: Sequence[str],
                 references: Sequence[Sequence[str]] | None) -> None:
        self._texts = (sources, outputs, references)
        self._encoded: bytes | None = None

    @property
    def encoded(self) -> bytes:
        if self._encoded is None:
            sources, outputs, references = self._texts
            self._encoded = ", ".join((_dump(list(sources)), _dump(list(outputs)), _dump(
                None if references is None else [list(r) for r in references]))).encode("utf-8")
            self._texts = None  # the bytes are all a key needs
        return self._encoded

    def key(self, metric_key: str, kind: str, fields: dict[str, list] | None = None) -> str:
        """The entry key of ``kind`` under ``metric_key`` for these texts and the per-item ``fields``
        a metric reads (left out when there are none, so keys from before fields stay valid)."""
        digest = hashlib.sha256(f"[{_dump(metric_key)}, {_dump(kind)}, ".encode("utf-8"))
        digest.update(self.encoded)
        if fields:
            digest.update(f", {_dump(fields)}".encode("utf-8"))
        digest.update(b"]")
        return digest.hexdigest()


def input_key(
    signature: str,
    kind: str,
    sources: Sequence[str],
    outputs: Sequence[str],
    references: Sequence[Sequence[str]] | None,
    fields: dict[str, list] | None = None,
) -> str:
    """A sha256 over the signature, the kind of score (sentence/corpus), every input text and
    the per-item fields a metric reads (:meth:`EntryInputs.key`, for one key of one input)."""
    return EntryInputs(sources, outputs, references).key(signature, kind, fields)


def metric_key(metric: Any, signature: str) -> str:
    """What the cache keys ``metric``'s scores by: its printed ``signature`` (settings, models by
    content, references) plus its ``formula_version`` and the fingerprint of the installed code
    of its packages (:func:`simpeval.codehash.code_fingerprint`), so that scores never outlive
    the code that computed them. The printed signature stays short; this never shows."""
    from simpeval.codehash import code_fingerprint

    version = getattr(metric, "formula_version", "1")
    return f"{signature}|formula:{version}|code:{code_fingerprint(type(metric))}"


LEADERBOARD_CELL, SCORING_RECORD = "leaderboard-cell", "leaderboard-scoring"
"""The entries derived from scores rather than scored on texts: a leaderboard cell (a dataset and aspect's
correlations), and the time and load of one metric's scoring of a dataset (shown when a later run reads it)."""


def derived_key(payload: Any) -> str:
    """The key of an entry derived from scores: the sha256 of the JSON of ``payload`` (object keys sorted),
    which must name everything the entry depends on (the metrics' keys, :func:`metric_key`, among them,
    so that it goes when their scores do)."""
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode("utf-8")).hexdigest()


def cell_key(**parts: Any) -> str:
    """A leaderboard cell's key: ``parts`` name the metrics' keys, the ratings, the code and the settings."""
    return derived_key({"kind": LEADERBOARD_CELL, **parts})


def scoring_record_key(metric_key: str, dataset: str, data_dir: str) -> str:
    """Where the time and load of the metric (by its key)'s scoring of ``dataset`` in ``data_dir`` are kept."""
    return derived_key([SCORING_RECORD, metric_key, dataset, data_dir])


def check_cell(value: Any) -> str | None:
    """A leaderboard cell as stored (:func:`dataclasses.asdict` of one): an object with a list of entries."""
    if not isinstance(value, dict) or not isinstance(value.get("entries"), list):
        return "not a leaderboard cell"
    if not all(isinstance(e, dict) for e in value["entries"]):
        return "a leaderboard cell with an entry that is not an object"
    return None


def check_scoring_record(value: Any) -> str | None:
    """A scoring's record: ``{"seconds", "load", "date", "partial"}``."""
    if not isinstance(value, dict) or not isinstance(value.get("seconds"), (int, float)) \
            or not isinstance(value.get("date"), str) or not isinstance(value.get("load"), (int, float)):
        return "not a scoring record"
    return None


class ScoredMetric(Protocol):
    """What the cache needs of a metric (:class:`simpeval.metrics.base.Metric`): its sub-score
    names, to check an entry's shape; its class and ``formula_version`` go into its key."""

    def score_names(self) -> list[str]: ...


class MetricEntries:
    """One metric's entries in one cache (or in none: every lookup misses, nothing is stored):
    the key composed once per run, and the check each kind of value passes, read or written,
    so that every entry on disk is one the code can read back.

    :param signature: the signature the metric's scores are reported under (with ``nrefs``).
    """

    def __init__(self, cache: ScoreCache | None, metric: ScoredMetric, signature: str) -> None:
        self.cache, self.metric = cache, metric
        self.key = None if cache is None else metric_key(metric, signature)

    def get(self, kind: str, inputs: EntryInputs, fields: dict[str, list] | None = None, n_items: int = 0
            ) -> Any | None:
        """The stored ``kind`` value for ``inputs`` if there is one and it passes its check, else None."""
        if self.cache is None:
            return None
        return self.cache.get(inputs.key(self.key, kind, fields), self._check(kind, n_items))

    def put(self, kind: str, inputs: EntryInputs, value: Any, fields: dict[str, list] | None = None,
            n_items: int = 0) -> None:
        """Store ``value`` if it passes its check."""
        if self.cache is not None and self._check(kind, n_items)(value) is None:
            self.cache.put(inputs.key(self.key, kind, fields), value)

    def _check(self, kind: str, n_items: int) -> Check:
        if kind == SENTENCE:
            return lambda value: check_sentence_scores(value, self.metric.score_names(), n_items)
        if kind == CORPUS:
            return lambda value: check_corpus_scores(value, self.metric.score_names())
        if kind == ITEM_STATISTICS:
            return lambda value: check_item_statistics(value, n_items)
        return check_statistics


def write_atomic(path: Path, text: str, mode: int | None = None) -> None:
    """Write ``text`` to ``path`` so that readers see either the old file or the whole new one.

    :param mode: the new file's permission bits (default: 0666 less the umask).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, new_file_mode() if mode is None else mode)  # mkstemp's 0600 would make results private
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


ENTRY_LIMIT = 1 << 30
"""The most bytes read from one cache entry (a batch's scores take kilobytes to a few megabytes)."""

STALE_TEMPORARY_SECONDS = 3600
"""A ``.tmp`` file older than this is an orphan of a killed run (a live writer renames its own within seconds)."""

Check = Callable[[Any], "str | None"]
"""Validates a value read back: None when it is acceptable, else what is wrong with it."""


def checksum(value: Any, key: str | None = None) -> str:
    """sha256 of the canonical JSON of ``[key, value]`` (of ``value`` alone without a key): what an
    entry stores beside its value, to detect any edit, and to bind the entry to its key."""
    payload = value if key is None else [key, value]
    return hashlib.sha256(json.dumps(payload, sort_keys=True, separators=(",", ":")).encode("utf-8")).hexdigest()


def _is_score(value: Any) -> bool:
    """A real number that is finite or NaN (an undefined score); never a bool, a string, an infinity
    or an integer too large for a float."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return False
    try:
        return not math.isinf(value)
    except OverflowError:
        return False


def check_sentence_scores(value: Any, names: Sequence[str], n: int) -> str | None:
    """What is wrong with ``value`` as ``{sub-score: [score per item]}`` for ``n`` items, or None."""
    if not isinstance(value, dict):
        return f"a {type(value).__name__} instead of sub-scores"
    for name in names:
        scores = value.get(name)
        if not isinstance(scores, list):
            return f"no list of {name} scores"
        if len(scores) != n:
            return f"{len(scores)} {name} scores for {n} items"
        if not all(_is_score(v) for v in scores):
            return f"a {name} score that is not a finite number"
    return None


def check_corpus_scores(value: Any, names: Sequence[str]) -> str | None:
    """What is wrong with ``value`` as ``{sub-score: corpus score}``, or None."""
    if not isinstance(value, dict):
        return f"a {type(value).__name__} instead of sub-scores"
    for name in names:
        if not _is_score(value.get(name)):
            return f"no finite {name} score"
    return None


def check_statistics(value: Any) -> str | None:
    """What is wrong with ``value`` as one batch's summed corpus statistics (a list of numbers), or None."""
    if not isinstance(value, list):
        return f"a {type(value).__name__} instead of a list of statistics"
    if not all(_is_score(v) for v in value):
        return "a statistic that is not a finite number"
    return None


def check_item_statistics(value: Any, n: int) -> str | None:
    """What is wrong with ``value`` as the per-item corpus statistics of ``n`` items (a list of
    equally long lists of numbers), or None."""
    if not isinstance(value, list) or len(value) != n:
        return f"not a list of the statistics of {n} items"
    for row in value:
        problem = check_statistics(row)
        if problem is not None:
            return problem
    if len({len(row) for row in value}) > 1:
        return "items with different numbers of statistics"
    return None


def _stderr_warning(message: str) -> None:
    print(f"Warning: {message}", file=sys.stderr, flush=True)


class ScoreCache:
    """Scores stored as ``<directory>/scores-v3/<key[:2]>/<key>.json``, each ``{"key", "checksum", "value"}``
    (the checksum covers key and value, so an entry moved to another key's file, or edited with
    its checksum recomputed over the value alone, is refused).

    Nothing the cache does can fail a run or change its scores:

    - an entry whose checksum, shape or values are wrong (edited, truncated, written
      by another version) is reported in one warning line and recomputed;
    - a cache that cannot be written (read-only, full, not a directory) is reported
      once, and the run goes on without it, keeping what it computed;
    - temporary files that killed runs left behind are removed once they are
      :data:`STALE_TEMPORARY_SECONDS` old (younger ones may belong to a live writer).

    :param warn: receives each warning line (default: ``Warning: ...`` on stderr).
    """

    def __init__(self, directory: Path | str | None = None, warn: Callable[[str], None] | None = None) -> None:
        self.directory = Path(directory) if directory is not None else default_cache_dir()
        self.warn = warn or _stderr_warning
        self.usable = True
        self._swept: set[Path] = set()
        self._refused: set[Path] = set()

    def _path(self, key: str) -> Path:
        return self.directory / "scores-v3" / key[:2] / f"{key}.json"

    def get(self, key: str, check: Check | None = None) -> Any | None:
        """The stored value, or None when absent or invalid (a warning says which; it is then recomputed).

        :param check: validates the value's shape (see :func:`check_sentence_scores`).
        """
        if not self.usable:
            return None
        path = self._path(key)
        if not self._own_directory(path.parent):
            return None
        try:
            text = read_bounded(path, ENTRY_LIMIT).decode("utf-8")
        except (FileNotFoundError, NotADirectoryError):
            return None
        except (NotRegularFile, TooLarge) as exc:  # a FIFO would hang the run, /dev/zero fill its memory
            return self._invalid(path, exc.strerror)
        except OSError as exc:
            self._give_up(exc)
            return None
        except UnicodeDecodeError:
            return self._invalid(path, "not UTF-8 text")
        try:
            entry = json.loads(text)
        except (ValueError, RecursionError):  # also a number over 4,300 digits, nesting too deep
            return self._invalid(path, "not JSON")
        if not isinstance(entry, dict) or set(entry) != {"key", "checksum", "value"}:
            return self._invalid(path, "not a checksummed entry")
        if entry["key"] != key:
            return self._invalid(path, "it is the entry of another key")
        try:
            intact = entry["checksum"] == checksum(entry["value"], key)
        except (ValueError, TypeError, RecursionError):  # a value json cannot write back
            intact = False
        if not intact:
            return self._invalid(path, "its checksum does not match its scores")
        try:
            problem = check(entry["value"]) if check is not None else None
        except (ValueError, TypeError, OverflowError, RecursionError) as exc:
            problem = f"a value that cannot be checked ({type(exc).__name__})"
        if problem:
            return self._invalid(path, problem)
        return entry["value"]

    def put(self, key: str, value: Any) -> None:
        """Store ``value``; after the first failure to write, warn once and store nothing more."""
        if not self.usable:
            return
        path = self._path(key)
        if not self._own_directory(path.parent):
            return
        try:
            self._sweep(path.parent)
            write_atomic(path, json.dumps({"key": key, "checksum": checksum(value, key), "value": value}))
        except OSError as exc:
            self._give_up(exc)

    def _invalid(self, path: Path, problem: str) -> None:
        self.warn(f"ignoring a bad score cache entry ({path}: {problem}); recomputing it")
        return None

    def _give_up(self, exc: OSError) -> None:
        self.usable = False
        self.warn(
            f"cannot use the score cache in {self.directory} ({exc.strerror or exc}); going on without it "
            f"(set {CACHE_DIR_ENV} to a writable directory, or pass --no-cache)"
        )

    def _own_directory(self, shard: Path) -> bool:
        """Whether ``scores-v3`` and ``shard``, the directories the cache makes below its directory,
        are real directories or not there yet. A symbolic link there (made by someone else) is not
        followed: the cache would write into, and sweep the temporary files of, a directory it does
        not own. The first refusal of each directory is one warning."""
        for directory in (shard.parent, shard):
            try:
                if not stat.S_ISLNK(os.lstat(directory).st_mode):
                    continue
            except OSError:  # not there yet (made when first written), or unreadable (reported on use)
                return True
            if directory not in self._refused:
                self._refused.add(directory)
                self.warn(f"not using the score cache directory {directory}: it is a symbolic link, which simpeval "
                          "does not follow (remove it)")
            return False
        return True

    def _sweep(self, shard: Path) -> None:
        """Delete the stale temporary files of one shard directory, once per process."""
        if shard in self._swept:
            return
        self._swept.add(shard)
        cutoff = time.time() - STALE_TEMPORARY_SECONDS
        for tmp in shard.glob(".*.tmp") if shard.is_dir() else ():
            try:
                if tmp.stat().st_mtime < cutoff:
                    tmp.unlink()
            except FileNotFoundError:  # another process swept it first
                pass


# what plugins may import (tests/test_public_helpers.py)
__all__ = [
    "CACHE_DIR_ENV",
    "default_cache_dir",
    "input_key",
    "metric_key",
    "write_atomic",
    "ScoreCache",
]
