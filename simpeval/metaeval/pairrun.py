"""Meta-evaluation on pairwise datasets and perturbation sets: score both outputs of every pair, count agreement.

``simpeval meta-evaluate --dataset cochrane-pairs`` (a :class:`~simpeval.datasets.pairwise.PairwiseDataset`)
and ``simpeval meta-evaluate --perturbations`` end here instead of in the correlation engine: each
metric scores the outputs through the runner and its cache (:func:`simpeval.metaeval.compute.compute_scores`),
and :func:`simpeval.metaeval.pairwise.pair_agreement` says how often it prefers the preferred output
(for a perturbation set: the unperturbed one), how often it ties, with a bootstrap interval.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from simpeval.jsontext import dumps
from simpeval.metaeval.pairwise import pair_agreement

if TYPE_CHECKING:
    from simpeval.cache import ScoreCache
    from simpeval.datasets.pairwise import PairwiseDataset
    from simpeval.engine.parallel import BatchExecutor
    from simpeval.registry import Registry

DEFAULT_BOOTSTRAP = 1000


@dataclass
class PairRecord:
    """One metric on one pairwise dataset or perturbation set."""

    dataset: str
    metric: str
    agree: float  # share of pairs where the metric strictly prefers the preferred output
    ties: float  # share of pairs it scores equally
    n: int
    ci_low: float | None
    ci_high: float | None
    signature: str = ""


def run_pairs(registry: Registry, datasets: list[PairwiseDataset], specs: list[str] | None, *, bootstrap: int,
              seed: int = 0, cache: ScoreCache | None = None, progress: bool = False,
              executor: BatchExecutor | None = None) -> list[PairRecord]:
    """Every metric of ``specs`` (default: the meta-evaluation defaults) on every dataset of ``datasets``."""
    from simpeval.metaeval.compute import compute_scores, default_metric_specs

    specs = specs or default_metric_specs(registry, True)
    records = []
    for dataset in datasets:
        computed = compute_scores(registry, dataset, specs, references=dataset.default_references, cache=cache,
                                  progress=progress, executor=executor)
        pairs = dataset.pairs
        for name, scores in computed.scores.items():
            outcome = pair_agreement(scores[pairs.first], scores[pairs.second], pairs.second_preferred,
                                     higher_is_better=registry.metric_class(name).is_higher_better(name),
                                     bootstrap=bootstrap, rng=np.random.default_rng(seed))
            records.append(PairRecord(dataset.name, name, outcome.agree, outcome.ties, outcome.n, outcome.ci_low,
                                      outcome.ci_high, computed.signatures.get(name, "")))
    return records


def pair_json(records: list[PairRecord], perturbations: bool) -> list[dict]:
    """JSON records: ``{"perturbation", "metric", "prefers_unperturbed", "ties", "n", ...}`` for perturbation
    sets, ``{"dataset", "metric", "accuracy", "ties", "n", ...}`` for a pairwise dataset."""
    first, share = ("perturbation", "prefers_unperturbed") if perturbations else ("dataset", "accuracy")
    return [{first: r.dataset, "metric": r.metric, share: r.agree, "ties": r.ties, "n": r.n, "ci_low": r.ci_low,
             "ci_high": r.ci_high, "signature": r.signature} for r in records]


def format_pairs(records: list[PairRecord], fmt: str, perturbations: bool, level: float = 0.95) -> str:
    """``records`` as JSON or as a table (``table``, ``markdown``, ``latex``, ``csv``), one row per record."""
    if fmt == "json":
        return dumps(pair_json(records, perturbations), indent=2) + "\n"
    from simpeval.tables import render

    share = "prefers unperturbed" if perturbations else "accuracy"
    columns = ["perturbation" if perturbations else "dataset", "metric", share,
               f"{level:.0%} CI low", f"{level:.0%} CI high", "ties", "n"]
    rows = [[r.dataset, r.metric, r.agree, r.ci_low, r.ci_high, r.ties, r.n] for r in records]
    text = render(columns, rows, fmt, digits=3)
    if fmt == "csv":
        return text
    what = ("share of pairs where the metric scores the unperturbed output better" if perturbations else
            "share of pairs where the metric scores the output humans preferred better")
    note = (f"{share}: {what}, in the metric's direction; ties: equal scores (counted apart); "
            "interval: bootstrap over pairs.")
    marker = {"table": "# ", "latex": "% "}.get(fmt, "")
    return text + marker + note + "\n"
