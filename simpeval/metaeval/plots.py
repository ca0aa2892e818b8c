"""PNG plots of a meta-evaluation: metric-vs-human scatter plots per split (the paper's Figure 4)
and a heatmap of pairwise significance per split. matplotlib is imported lazily, with the Agg
backend, so the command line never needs a display.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from simpeval.metaeval.run import Report


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name)


def _ranked(result, metric: str, split: str) -> str:
    """The metric's name, with its significance cluster under ``--rank``."""
    rank = result.record(metric, split).rank
    return metric if rank is None else f"{metric} [{rank}]"


def write_plots(report: Report, directory: Path) -> list[Path]:
    """Write ``scatter-<metric>.png`` and ``significance-<split>.png`` into ``directory``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    directory.mkdir(parents=True, exist_ok=True)
    written = []
    result, groups = report.result, report.split.groups
    for metric in result.metrics:
        fig, axes = plt.subplots(1, len(groups), figsize=(4 * len(groups), 3.6), squeeze=False)
        for ax, (split, idx) in zip(axes[0], groups.items()):
            ax.scatter(report.scores[metric][idx], report.human[idx], s=6, alpha=0.5)
            rec = result.record(metric, split)
            ax.set_title(f"{split}: r = {rec.r:.3f}" + ("" if rec.rank is None else f", rank {rec.rank}"))
            ax.set_xlabel(metric)
            ax.set_ylabel(report.aspect)
        fig.tight_layout()
        path = directory / f"scatter-{_safe(metric)}.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        written.append(path)
    for split, sig in result.significance.items():
        k = len(sig.metrics)
        side = max(4.0, 1.5 + 0.45 * k)
        fig, ax = plt.subplots(figsize=(side + 1, side))
        image = ax.imshow(np.where(np.isnan(sig.p), 1.0, sig.p), vmin=0, vmax=0.1, cmap="viridis_r")
        labels = [_ranked(result, m, split) for m in sig.metrics]
        ax.set_xticks(range(k), labels, rotation=90)
        ax.set_yticks(range(k), labels)
        ax.set_title(f"{split}: p(row beats column)")
        fig.colorbar(image, ax=ax, fraction=0.046)
        fig.tight_layout()
        path = directory / f"significance-{_safe(split)}.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        written.append(path)
    return written
