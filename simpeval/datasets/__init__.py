"""Human-rated simplification data for meta-evaluation, and the reference sets that go with it."""

from simpeval.datasets.base import AVERAGE, Dataset, Item, Judgements, Ratings
from simpeval.datasets.csvio import numbers, read_rows

__all__ = ["AVERAGE", "Dataset", "Item", "Judgements", "Ratings", "numbers", "read_rows"]
