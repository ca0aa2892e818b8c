"""``simpeval report``: several systems' scores, features, plots and samples in one self-contained file.

:mod:`~simpeval.report.model` scores the systems and picks the samples;
:mod:`~simpeval.report.highlight` labels each word of a sample with its operation;
:mod:`~simpeval.report.plots` draws the figures (inline SVG); :mod:`~simpeval.report.html` and
:mod:`~simpeval.report.markdown` write the two formats; :mod:`~simpeval.report.browser` opens a
page in headless Chromium (for the tests and the docs' screenshot).
"""
