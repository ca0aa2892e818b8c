"""Published tables that simpeval reproduces, each with the exact ``meta-evaluate`` run behind it.

A paper module declares its tables as :class:`~simpeval.reproduce.tables.PublishedTable` values
in ``TABLES``; :data:`PAPERS` maps the name ``simpeval reproduce`` takes to that module, so the
command, the pointer ``meta-evaluate`` prints and ``benchmarks/`` all read one copy of the
published numbers.
"""

from __future__ import annotations

import importlib

from simpeval.reproduce.tables import Comparison, PublishedTable, compare, reproduce

__all__ = ["PAPERS", "Comparison", "PublishedTable", "compare", "find_table", "paper_tables", "reproduce"]

PAPERS = {"alva-manchego-2021": "simpeval.reproduce.alva_manchego_2021"}


def paper_tables(paper: str) -> dict[str, PublishedTable]:
    """The tables of ``paper`` (a key of :data:`PAPERS`), keyed by :attr:`PublishedTable.key`."""
    return importlib.import_module(PAPERS[paper]).TABLES


def find_table(dataset: str, references: str | None, split: str) -> PublishedTable | None:
    """A published table computed on this dataset, reference set and split, if any paper has one."""
    for paper in PAPERS:
        for table in paper_tables(paper).values():
            if (table.dataset, table.references, table.split) == (dataset, references, split):
                return table
    return None
