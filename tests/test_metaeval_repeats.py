"""A ratings row pasted twice counts once in every correlation, with a warning (issue 28)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from simpeval.metaeval.run import _without_repeated_rows
from simpeval.metaeval.splits import make_split


def test_repeated_rows_are_left_out_of_every_split_with_a_warning():
    human = np.array([1.0, 2.0, 3.0, 2.0, 5.0, 6.0])
    dataset = SimpleNamespace(name="toy", keys=[("s1", "A"), ("s2", "A"), ("s3", "A"), ("s2", "A"), ("s5", "A"),
                                                ("s1", "A")])
    split = _without_repeated_rows(make_split("quality", human, []), dataset)
    assert split.groups["All"].tolist() == [0, 1, 2, 4]
    assert all(3 not in idx and 5 not in idx for idx in split.groups.values())
    assert split.warnings[-1] == ("2 rows of toy repeat an earlier row's item (s2, A first): "
                                  "each item is counted once (its first row)")


def test_unique_rows_are_untouched():
    human = np.arange(6.0)
    dataset = SimpleNamespace(name="toy", keys=[(str(i),) for i in range(6)])
    split = make_split("quality", human, [])
    assert _without_repeated_rows(split, dataset) is split
