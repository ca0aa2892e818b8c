"""The one early-stopping epoch loop (lens-mini's validation split, SIERA, SLE): stopping, history, the epoch kept."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from simpeval.learning.epochs import EpochLoop


class Counting(EpochLoop):
    """A "model" whose weights are the epoch count; its validation values are given."""

    def __init__(self, values, patience=2, max_epochs=10) -> None:
        super().__init__(SimpleNamespace(patience=patience, max_epochs=max_epochs), log=lambda _: None)
        self.values, self.weights, self.loaded = list(values), 0, None

    def run_epoch(self):
        self.weights += 1
        return self.values[self.epoch - 1], {"valid": self.values[self.epoch - 1]}

    def state(self):
        return self.weights

    def load_state(self, state):
        self.loaded = state


@pytest.mark.parametrize(("values", "patience", "epochs", "best"), [
    ([3, 2, 2.5, 2.4, 1], 2, 4, 2),  # two epochs without a lower value: stop after epoch 4
    ([3, 2, 1, 0.5], 2, 4, 4),  # the last epoch (max_epochs 4)
    ([3, 3, 3], 1, 2, 1),  # equal is not lower
    ([float("nan")] * 3, 2, 2, 0),  # never a number: as before training
])
def test_it_stops_after_patience_epochs_without_a_lower_value_and_keeps_the_lowest(values, patience, epochs, best):
    loop = Counting(values, patience, max_epochs=4)
    report = loop.run()
    assert loop.epoch == epochs and report.best_epoch == best and report.selected_epoch == best
    assert loop.loaded == best and [h["epoch"] for h in report.history] == list(range(1, epochs + 1))
    assert report.at_best("valid") == (values[best - 1] if best else pytest.approx(float("nan"), nan_ok=True))


def test_a_chosen_epoch_is_loaded_instead_of_the_best():
    loop = Counting([3, 2, 2.5])
    while not loop.step():
        if loop.epoch == 3:
            break
    assert loop.keep(3).selected_epoch == 3 and loop.loaded == 3 and loop.report.best_epoch == 2


def test_a_loop_missing_a_step_of_the_protocol_is_refused_when_made():
    """The three methods a model supplies are abstract: a loop without one fails at construction, naming it,
    not at the first epoch of a long training run."""

    class NoLoad(EpochLoop):
        def run_epoch(self):
            return 0.0, {}

        def state(self):
            return None

    with pytest.raises(TypeError, match="load_state"):
        NoLoad(settings=None)
