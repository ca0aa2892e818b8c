"""The Python API: :func:`evaluate`, :func:`evaluate_files` and :func:`meta_evaluate`, the command
line's jobs as calls.

They build a registry of the installed plugins (or take one), run the same library code as
``simpeval evaluate`` and ``simpeval meta-evaluate`` and return its result objects, so a score
from Python equals the CLI's and carries the same signature. Everything heavy is imported inside
the functions: ``import simpeval`` stays fast.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from simpeval.cache import ScoreCache
    from simpeval.metaeval.run import Report
    from simpeval.registry import Registry
    from simpeval.runner import EvaluationResult

from simpeval.engine.metrics import DEFAULT_METRICS_WITH_REFS, DEFAULT_METRICS_WITHOUT_REFS

__all__ = ["DEFAULT_METRICS_WITHOUT_REFS", "DEFAULT_METRICS_WITH_REFS", "evaluate", "evaluate_files", "meta_evaluate"]


def evaluate(
    orig: Iterable[str],
    sys: Iterable[str],
    refs: Iterable[Iterable[str]] | None = None,
    metrics: str | Iterable[str] | None = None,
    *,
    preset: str | None = None,
    lang: str = "en",
    sentence_level: bool = False,
    cache: bool | str | os.PathLike | ScoreCache = True,
    registry: Registry | None = None,
) -> EvaluationResult:
    """Score the system outputs ``sys`` of the sentences ``orig``, as ``simpeval evaluate`` does.

    :param orig: the original sentences (a list, or any iterable: a generator is read once).
    :param sys: one output per original.
    :param refs: reference *streams*, as ``--refs`` files are: ``refs[k][i]`` is the k-th reference of
        item i (each stream as long as ``sys``), like sacrebleu's and EASSE's ``refs_sents``.
    :param metrics: metric specs as ``-m`` takes them (``["bleu", "sari:tokenizer=moses"]`` or
        ``"bleu,sari"``); default ``bleu,sari,fkgl`` with references, ``fkgl`` without.
    :param preset: settings of a published setup, e.g. ``"metaeval-2021"``.
    :param lang: the language of the texts, an ISO 639-1 code (``--lang``): every language-dependent
        metric prints it in its signature (``lang:de``) and refuses a language it has no rules for.
    :param sentence_level: also return one score per item (``result.sentence_scores``).
    :param cache: True: the score cache (``$SIMPEVAL_CACHE_DIR`` or ``~/.cache/simpeval``); a
        directory; a :class:`~simpeval.cache.ScoreCache`; False: none.
    :param registry: the plugins to use (default: every installed one).
    :returns: :class:`~simpeval.runner.EvaluationResult`: ``corpus_scores`` and ``signatures``
        keyed by sub-score name (``result.corpus_scores["sari"]``, ``result.signatures["sari"]``).
    :raises simpeval.UsageError: on lists of different lengths, no item at all, or unknown metrics.
    """
    from simpeval.engine.metrics import default_specs
    from simpeval.errors import UsageError
    from simpeval.runner import evaluate as run_evaluation
    from simpeval.runner import resolve_metrics

    orig, sys = list(orig), list(sys)  # any iterable: a generator is read once, here
    refs = None if refs is None else [list(stream) for stream in refs]
    if not orig and not sys:
        raise UsageError("no items: give at least one original and one output")
    lengths = [("orig", len(orig)), ("sys", len(sys)), *((f"refs[{k}]", len(r)) for k, r in enumerate(refs or []))]
    if len({n for _, n in lengths}) > 1:
        raise UsageError("inputs differ in length (" + ", ".join(f"{name}: {n}" for name, n in lengths)
                         + "): give one output and one line of each reference stream per original")
    references = [list(item) for item in zip(*refs)] if refs else None
    requests = resolve_metrics(registry or _registry(), default_specs(_specs(metrics), bool(references), lang), preset,
                               lang)
    return run_evaluation(requests, orig, sys, references, sentence_level=sentence_level,
                          corpus_level=True, cache=_cache(cache))


def evaluate_files(
    orig: str | os.PathLike,
    sys: str | os.PathLike,
    refs: str | os.PathLike | Iterable[str | os.PathLike] = (),
    metrics: str | Iterable[str] | None = None,
    *,
    output: str | os.PathLike | None = None,
    fmt: str = "csv",
    sentence_level: bool = True,
    preset: str | None = None,
    lang: str = "en",
    cache: bool | str | os.PathLike | ScoreCache = True,
    batch_size: int = 512,
    jobs: int = 1,
    registry: Registry | None = None,
) -> EvaluationResult:
    """Score files as ``simpeval evaluate --orig ORIG --sys SYS --refs REF... -o OUTPUT`` does, streamed.

    Line files are read in lock-step a batch at a time and, with ``sentence_level`` and
    ``fmt="csv"``, each batch's rows are written to ``output`` as soon as it is scored:
    memory does not grow with the files. Finished batches go to the score cache, so a run
    that is interrupted resumes from them. ``output`` is published whole at the end (never
    half-written) and equals the command's file byte for byte. Documents (a directory of
    ``.txt`` files or a ``.jsonl`` file) are read whole, as the command reads them.

    :param orig: the original sentences, one per line.
    :param sys: the system outputs, one per line.
    :param refs: reference files, one reference per line each (one path: one reference file).
    :param metrics: as :func:`evaluate`'s.
    :param lang: as :func:`evaluate`'s.
    :param output: where to write the scores (``None``: nothing is written; per-item scores
        are then returned in ``result.sentence_scores``).
    :param fmt: ``csv``, ``json``, ``table``, ``markdown`` or ``latex``, as ``--format``.
    :param sentence_level: one row per item (``--sentence-level``); False: corpus scores.
    :param jobs: local worker processes (``--jobs``).
    :returns: :class:`~simpeval.runner.EvaluationResult` with the corpus scores and signatures
        (and the per-item scores when they are not streamed to ``output``).
    :raises simpeval.UsageError: on unreadable files, line counts that differ or unknown metrics.
    """
    from simpeval.engine.results import format_result
    from simpeval.fileio import check_writable
    from simpeval.engine.execute import run_plan
    from simpeval.engine.metrics import MetricSpecs
    from simpeval.engine.plan import Output, Plan, System
    from simpeval.engine.sources import open_source
    from simpeval.fileio import command_files

    ref_paths = [os.fspath(refs)] if isinstance(refs, (str, os.PathLike)) else [os.fspath(r) for r in refs]
    target = None if output is None else os.fspath(output)
    with command_files():  # ``output`` never replaces a file the call read
        check_writable(target, "output")
        written = None if target is None else Output(
            target, fmt, lambda result, ids: format_result(result, sentence_level, fmt, ids), "output")
        plan = Plan(MetricSpecs(registry or _registry(), _specs(metrics), preset, lang),
                    [System(os.fspath(sys), open_source(os.fspath(orig), os.fspath(sys), ref_paths))],
                    sentence_level=sentence_level, batch_size=batch_size, output=written)
        return run_plan(plan, cache=_cache(cache), jobs=jobs)


def _specs(metrics: str | Iterable[str] | None) -> list[str]:
    """``metrics`` as a list of ``-m`` specs (empty: the defaults)."""
    if metrics is None:
        return []
    return [metrics] if isinstance(metrics, str) else list(metrics)


def meta_evaluate(
    dataset: str,
    metrics: str | Iterable[str] | None = None,
    *,
    aspect: str | None = None,
    raw: bool = False,
    references: str | None = None,
    level: str = "sentence",
    split: str | None = None,
    ties: str = "order",
    correlation: str = "pearson",
    significance: str | None = None,
    alpha: float = 0.05,
    resamples: int = 1000,
    bootstrap: int = 0,
    seed: int = 0,
    scores: Iterable[str | os.PathLike] = (),
    score_columns: Iterable[str] | None = None,
    preset: str | None = None,
    lang: str | None = None,
    data_dir: str | os.PathLike | None = None,
    cache: bool | str | os.PathLike | ScoreCache = True,
    registry: Registry | None = None,
) -> Report:
    """Correlate metrics with a dataset's human judgements, as ``simpeval meta-evaluate`` does.

    Every keyword is the command's option of the same name (see ``docs/meta-evaluation.md``);
    ``significance`` defaults to ``williams`` for Pearson and ``permutation`` otherwise, and
    ``data_dir`` to ``$SIMPEVAL_DATA_DIR``, else the user data directory (``simpeval data`` shows it), and
    ``lang`` to the dataset's language.

    :returns: :class:`~simpeval.metaeval.run.Report`; ``report.result.record("bleu", "All").r`` is
        BLEU's signed correlation on the whole dataset, ``.winner`` whether no metric beats it
        significantly, and ``report.signatures`` each metric's signature.
    """
    from pathlib import Path

    from simpeval.datadir import PYTHON_ARGUMENT, resolve_data_dir
    from simpeval.metaeval.engine import Settings
    from simpeval.metaeval.run import Request, run_meta_evaluation

    if significance is None:
        significance = "williams" if correlation == "pearson" else "permutation"
    request = Request(
        dataset=dataset,
        data_dir=resolve_data_dir(data_dir, argument=PYTHON_ARGUMENT),
        metrics=None if metrics is None else ([metrics] if isinstance(metrics, str) else list(metrics)),
        aspect=aspect, raw=raw, references=references, level=level, split=split, ties=ties,
        settings=Settings(correlation=correlation, significance=significance, alpha=alpha, resamples=resamples,
                          bootstrap=bootstrap),
        scores=[Path(p) for p in scores],
        score_columns=None if score_columns is None else list(score_columns),
        preset=preset, lang=lang, seed=seed, cache=_cache(cache),
    )
    return run_meta_evaluation(registry or _registry(), request)


def _registry() -> Registry:
    from simpeval.registry import load_registry

    return load_registry()


def _cache(cache: bool | str | os.PathLike | ScoreCache) -> ScoreCache | None:
    """``cache`` as the runner takes it: True is the default cache directory, False none."""
    from simpeval.cache import ScoreCache

    if isinstance(cache, ScoreCache) or cache is None:
        return cache
    if cache is False:
        return None
    return ScoreCache(None if cache is True else cache)
