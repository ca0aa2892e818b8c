"""The simple baselines every learned metric is judged against: FKGL, compression ratio, SARI.

A learned metric earns its cost only where it beats these on data it never saw, so every
leave-one-dataset-out table shows them on the same items (computed with simpeval's own metrics).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["NAMES", "baseline_scores"]

NAMES = ("fkgl", "compression", "sari")


def baseline_scores(sources: Sequence[str], outputs: Sequence[str],
                    references: Sequence[Sequence[str]] | None) -> dict[str, np.ndarray]:
    """Per item: FKGL of the output, characters of output over source, and SARI (NaN without references)."""
    from simpeval.metrics.fkgl import Fkgl
    from simpeval.metrics.sari import Sari

    fkgl = np.asarray(Fkgl().sentence_scores(sources, outputs)["fkgl"], float)
    compression = np.array([(len(o) + 1) / (len(s) + 1) for s, o in zip(sources, outputs)])
    if references is not None and all(references):
        sari = np.asarray(Sari().sentence_scores(sources, outputs, [list(r) for r in references])["sari"], float)
    else:
        sari = np.full(len(outputs), np.nan)
    return {"fkgl": fkgl, "compression": compression, "sari": sari}
