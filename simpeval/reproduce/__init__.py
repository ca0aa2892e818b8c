"""Published tables that simpeval reproduces, each with the exact command behind it.

Papers are registered by plugins (:func:`~simpeval.hookspecs.simpeval_register_papers`; the
built-in ones are plugin modules too: :mod:`simpeval.reproduce.alva_manchego_2021`,
:mod:`simpeval.lens2023`, :mod:`simpeval.german`), so ``simpeval reproduce``, the pointer
``meta-evaluate`` prints and ``benchmarks/`` all read one copy of each paper's numbers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from simpeval.reproduce.paper import Paper, Reproduction
from simpeval.reproduce.tables import Comparison, CorrelationPaper, PublishedTable, compare, reproduce

if TYPE_CHECKING:
    from simpeval.registry import Registry

__all__ = ["Comparison", "CorrelationPaper", "Paper", "PublishedTable", "Reproduction", "compare", "find_table",
           "reproduce"]


def find_table(registry: Registry, dataset: str, references: str | None, split: str) -> PublishedTable | None:
    """A published Pearson table computed on this dataset, reference set and split, if a registered paper has one."""
    for paper in registry.papers.values():
        if not isinstance(paper, CorrelationPaper):
            continue
        for table in paper.tables.values():
            if (table.dataset, table.references, table.split, table.correlation) == (dataset, references, split,
                                                                                    "pearson"):
                return table
    return None
