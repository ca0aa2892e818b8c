"""Training one epoch at a time with early stopping: what lens-mini's validation-split trainer, SIERA and SLE share.

A plugin's :class:`EpochLoop` says what one epoch is (:meth:`EpochLoop.run_epoch`: a pass over the training
data and the validation value after it) and how its weights are copied and loaded; this class does the rest:
the epoch count, the history, every epoch's weights, the best (lowest) validation value, stopping after
``patience`` epochs without a lower one or after ``max_epochs``, and loading the epoch kept (the best, or the
one a selection chose, :class:`simpeval.learning.trainer.EpochTrainer`). Imports nothing heavy.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["EpochLoop", "TrainReport"]


@dataclass
class TrainReport:
    """Per-epoch history, the epoch of the lowest validation value, the epoch kept, the wall-clock seconds."""

    best_epoch: int = 0
    best_value: float = float("inf")
    history: list[dict[str, float]] = field(default_factory=list)
    seconds: float = 0.0
    snapshots: dict[int, Any] = field(default_factory=dict)  # epoch -> the weights after it (0: before training)
    selected_epoch: int = 0  # the epoch kept: best_epoch, or the one chosen on rated data

    def at_best(self, key: str) -> float:
        """The history's ``key`` at the best epoch (NaN before any)."""
        return self.history[self.best_epoch - 1][key] if self.best_epoch else float("nan")


class EpochLoop(ABC):
    """One model trained one epoch per :meth:`step`, with early stopping (module docstring). ``settings`` has
    ``max_epochs`` and ``patience`` (:class:`simpeval.learning.settings.TrainSettings`)."""

    def __init__(self, settings, log: Callable[[str], None] = print) -> None:
        self.started = time.perf_counter()
        self.settings, self.log = settings, log
        self.report = TrainReport()
        self.epoch = 0

    @abstractmethod
    def run_epoch(self) -> tuple[float, dict[str, float]]:
        """One pass over the training data: ``(validation value, the history row after "epoch")``."""

    @abstractmethod
    def state(self) -> Any:
        """A copy of the weights training changes."""

    @abstractmethod
    def load_state(self, state: Any) -> None:
        """Load weights :meth:`state` copied and put the model in evaluation mode."""

    def step(self) -> bool:
        """One epoch; True when training stops (the last epoch, or ``patience`` without a lower validation value)."""
        report = self.report
        if not report.snapshots:
            report.snapshots[0] = self.state()
        self.epoch += 1
        value, row = self.run_epoch()
        report.history.append({"epoch": self.epoch, **row})
        report.snapshots[self.epoch] = self.state()
        if value < report.best_value:
            report.best_epoch, report.best_value = self.epoch, value
        elif self.epoch - report.best_epoch >= self.settings.patience:
            return True
        return self.epoch >= self.settings.max_epochs

    def run(self) -> TrainReport:
        """Every epoch until training stops; the best one kept."""
        while not self.step():
            pass
        return self.keep()

    def keep(self, epoch: int | None = None) -> TrainReport:
        """Load epoch ``epoch``'s weights (default: the lowest validation value; 0: as before training)."""
        report = self.report
        report.selected_epoch = report.best_epoch if epoch is None else epoch
        self.load_state(report.snapshots[report.selected_epoch])
        report.seconds = time.perf_counter() - self.started
        return report
