"""The meta-evaluation engine: how well do metrics agree with human judgements?

Modules: :mod:`~simpeval.metaeval.stats` (pure statistics), :mod:`~simpeval.metaeval.splits`,
:mod:`~simpeval.metaeval.engine` (correlations, significance, winners),
:mod:`~simpeval.metaeval.agreement`, :mod:`~simpeval.metaeval.scores` (``--scores`` files),
:mod:`~simpeval.metaeval.compute` (metrics through the runner), :mod:`~simpeval.metaeval.run`
(one meta-evaluation end to end), :mod:`~simpeval.metaeval.report` and
:mod:`~simpeval.metaeval.plots`. This module only names the choices, so the command line can
offer them without importing numpy or scipy.
"""

CORRELATIONS = ("pearson", "spearman", "kendall", "wmt-kendall", "lens-kendall", "kendall-23", "acc23", "acc23-opt",
                "pairwise-accuracy")
AVERAGING = ("none", "item", "system")
SIGNIFICANCE_TESTS = ("williams", "permutation", "none")
SPLITS = ("quality", "system-type", "sentence-type", "none")
TIE_POLICIES = ("order", "exclude")
LEVELS = ("sentence", "system")
FORMATS = ("table", "markdown", "latex", "csv", "json")
