"""Human-rated simplification data for meta-evaluation, and the reference sets that go with it."""

from simpeval.datasets.base import AVERAGE, Dataset, Item, Judgements, Ratings

__all__ = ["AVERAGE", "Dataset", "Item", "Judgements", "Ratings"]
