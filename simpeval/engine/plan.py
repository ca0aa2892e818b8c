"""A plan: what one evaluation scores and where its result goes, before anything runs.

Every way into the engine builds a :class:`Plan`: :func:`simpeval.runner.evaluate` (lists
in memory), :func:`simpeval.evaluate_files` and ``simpeval evaluate`` (line files, streamed,
or documents), several systems with paired tests (``--sys A --sys B --paired-bs``,
:func:`simpeval.runner.compare_systems`), ``simpeval report`` and ``meta-evaluate``.
:func:`simpeval.engine.execute.execute` runs it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Union

from simpeval.engine.compare import DEFAULT_SEED, PAIRED_TESTS
from simpeval.engine.batches import DEFAULT_BATCH_SIZE
from simpeval.errors import UsageError

if TYPE_CHECKING:
    from simpeval.allpairs import Settings as AllPairsSettings
    from simpeval.engine.metrics import MetricRequest, MetricSpecs
    from simpeval.engine.sources import LineFileSource, MemorySource

Source = Union["MemorySource", "LineFileSource"]


@dataclass
class System:
    """One system's items (its outputs with the shared sources and references) and its name."""

    name: str
    source: Source


@dataclass
class Output:
    """Where and how a plan's result is written.

    :param path: a file, written atomically; None: standard output.
    :param fmt: ``table``, ``markdown``, ``latex``, ``csv`` or ``json``. With one system,
        per-item scores and ``csv``, rows are written batch by batch as they are scored
        (memory stays flat); every other layout is rendered at the end.
    :param render: ``render(result, ids)`` -> the text to write: ``result`` is the
        :class:`~simpeval.engine.results.EvaluationResult` of one system (``ids``: document
        ids or None) or the :class:`~simpeval.engine.compare.Comparison` of several.
    :param option: how errors name the output (``-o``; ``output`` for the Python API).
    """

    path: str | None
    fmt: str
    render: Callable[[Any, list[str] | None], str]
    option: str = "-o"


@dataclass
class Plan:
    """What to score and what to report.

    :param metrics: resolved requests, or :class:`~simpeval.engine.metrics.MetricSpecs`
        resolved once the inputs are open (so an unreadable file is reported first).
    :param systems: one system, or several to compare; the first is the baseline.
    :param sentence_level: keep (or write) per-item scores.
    :param corpus_level: compute corpus scores.
    :param compare: return a :class:`~simpeval.engine.compare.Comparison` (default: with several
        systems or a paired test).
    :param test: ``"bs"`` (paired bootstrap, 1,000 resamples), ``"ar"`` (approximate
        randomization, 10,000 trials) or None: each system against the first. ``"bs"`` with one
        system gives its bootstrap intervals (sacrebleu's ``--confidence``).
    :param n_resamples: resamples or trials of the test instead of its default; the
        baseline's bootstrap interval uses the same number.
    :param seed: seeds a fresh generator per (system, metric), as sacrebleu does.
    :param all_pairs: also compare every pair of systems and rank them (:mod:`simpeval.allpairs`), on
        the statistics the run collects.
    :param output: where the result is written (None: only returned).
    """

    metrics: Sequence[MetricRequest] | MetricSpecs
    systems: Sequence[System]
    sentence_level: bool = False
    corpus_level: bool = True
    compare: bool | None = None
    test: str | None = None
    n_resamples: int | None = None
    seed: int = DEFAULT_SEED
    batch_size: int = DEFAULT_BATCH_SIZE
    progress: bool = False
    all_pairs: AllPairsSettings | None = None
    output: Output | None = None

    @property
    def compares(self) -> bool:
        if self.compare is not None:
            return self.compare
        return len(self.systems) > 1 or self.test is not None or self.all_pairs is not None

    def check(self) -> None:
        """Refuse a plan that cannot run, before any input is read."""
        if not self.systems:
            raise UsageError("no system outputs: pass --sys FILE (repeatable) or --sys-dir DIR")
        if self.test is not None and self.test not in PAIRED_TESTS:
            raise ValueError(f"unknown paired test {self.test!r}; choose from {', '.join(PAIRED_TESTS)}")
        if self.test == "ar" and len(self.systems) < 2:
            raise UsageError("--paired-ar needs a baseline and at least one more system: repeat --sys "
                             "(--paired-bs or --confidence with one system give its confidence interval)")
        self._check_interval_resamples()
        if self.all_pairs is not None and len(self.systems) < 2:
            raise UsageError("--all-pairs compares systems: give two or more (--sys A --sys B, or --sys-dir DIR)")
        if len(self.systems) > 1 and not self.compares:
            raise ValueError("a plan of several systems compares them: leave compare unset or True")

    def _check_interval_resamples(self) -> None:
        """Refuse bootstrap intervals of too few resamples (:data:`simpeval.significance.MIN_INTERVAL_RESAMPLES`)."""
        resamples = [self.all_pairs.n_bootstrap] if self.all_pairs is not None else []
        if self.test == "bs" and self.n_resamples is not None:
            resamples.append(self.n_resamples)
        if not resamples:
            return
        from simpeval.significance import MIN_INTERVAL_RESAMPLES  # numpy: only when there is an interval

        if min(resamples) < MIN_INTERVAL_RESAMPLES:
            raise UsageError(f"--paired-n {min(resamples)} is too few bootstrap resamples for a 95% interval "
                             f"(each 2.5% tail needs one): give --paired-n {MIN_INTERVAL_RESAMPLES} or more")
