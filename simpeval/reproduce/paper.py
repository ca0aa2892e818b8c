"""A published paper that ``simpeval reproduce`` runs: its tables, each beside simpeval's numbers.

Why an interface and not a list: papers come with the plugins that reproduce them (LENS's with the
``lens-2023`` preset, DEplain's with the German test sets), so the command lists whatever the
registry holds (:func:`~simpeval.hookspecs.simpeval_register_papers`). Two kinds exist today:
correlation tables recomputed by ``meta-evaluate`` (:class:`~simpeval.reproduce.tables.CorrelationPaper`)
and system scores recomputed by ``evaluate`` (:mod:`simpeval.reproduce.scores`); both give the same two
things, text (terminal, Markdown, CSV) and JSON cells.

The interface imports nothing of simpeval's: the registry checks what plugins register against it,
so it must sit below the registry and the meta-evaluation it drives (no import cycle, not even one
of type annotations; ``tests/test_import_graph.py``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from simpeval.cache import ScoreCache

TEXT_FORMATS = ("table", "markdown", "csv")


class Reproduction(Protocol):
    """One published table beside simpeval's numbers."""

    def render(self, fmt: str, data_dir: Path) -> str:
        """The table as ``table`` (terminal), ``markdown`` or ``csv``, with the command behind it."""

    def cells(self) -> list[dict[str, Any]]:
        """One JSON record per published number, with simpeval's beside it."""


class Paper(ABC):
    """A paper ``simpeval reproduce NAME`` runs; ``name``, ``title`` and :meth:`table_numbers` are
    cheap (``--list`` reads them without computing anything)."""

    name: str
    title: str

    @abstractmethod
    def table_numbers(self) -> list[str]:
        """The values ``--table`` accepts, in the paper's order."""

    @abstractmethod
    def reproduce(self, registry: Any, data_dir: Path, cache: ScoreCache | None = None,
                  numbers: tuple[str, ...] = ()) -> list[Reproduction]:
        """Recompute the tables ``numbers`` (all when empty) with the metrics of ``registry``
        (a :class:`simpeval.registry.Registry`)."""
