"""``simpeval report``: several systems' scores, features, plots and samples in one self-contained file.

:mod:`~simpeval.report.model` scores the systems and picks the samples, :mod:`~simpeval.report.worddiff`
marks the words an output changed, :mod:`~simpeval.report.plots` draws the figures (inline SVG), and
:mod:`~simpeval.report.html` and :mod:`~simpeval.report.markdown` write the two formats.
"""
