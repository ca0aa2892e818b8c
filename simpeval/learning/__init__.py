"""Training learned metrics so that they are judged on data they never saw.

- :mod:`.rated`: every human-rated dataset with a label for an aspect, ratings normalised per dataset;
- :mod:`.loo`: leave-one-dataset-out folds, model selection by left-out correlation, baselines.
"""

__all__ = ["baselines", "loo", "rated"]
