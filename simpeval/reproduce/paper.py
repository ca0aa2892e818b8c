"""A published paper that ``simpeval reproduce`` runs: its tables, each beside simpeval's numbers.

Why an interface and not a list: papers come with the plugins that reproduce them (LENS's with the
``lens-2023`` preset, DEplain's with the German test sets), so the command lists whatever the
registry holds (:func:`~simpeval.hookspecs.simpeval_register_papers`). Two kinds exist today:
correlation tables recomputed by ``meta-evaluate`` (:class:`CorrelationPaper`) and system scores
recomputed by ``evaluate`` (:mod:`simpeval.reproduce.scores`); both give the same two things, text
(terminal, Markdown, CSV) and JSON cells.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from simpeval.cache import ScoreCache
    from simpeval.registry import Registry
    from simpeval.reproduce.tables import PublishedTable

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
    def reproduce(self, registry: Registry, data_dir: Path, cache: ScoreCache | None = None,
                  numbers: tuple[str, ...] = ()) -> list[Reproduction]:
        """Recompute the tables ``numbers`` (all when empty)."""


@dataclass(frozen=True)
class CorrelationPaper(Paper):
    """A paper whose tables are correlations with human ratings, each a :class:`PublishedTable`."""

    name: str
    title: str
    tables: Mapping[str, PublishedTable]  # keyed by PublishedTable.key

    def table_numbers(self) -> list[str]:
        return list(dict.fromkeys(table.number for table in self.tables.values()))

    def reproduce(self, registry: Registry, data_dir: Path, cache: ScoreCache | None = None,
                  numbers: tuple[str, ...] = ()) -> list[Reproduction]:
        from simpeval.reproduce.tables import reproduce

        return [reproduce(table, registry, data_dir, cache)[0] for table in self.tables.values()
                if not numbers or table.number in numbers]
