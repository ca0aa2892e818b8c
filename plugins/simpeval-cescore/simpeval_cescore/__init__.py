"""simpeval-cescore: the CEScore family of reference-free simplification metrics as a simpeval plugin.

CEScore (AlAjlouni et al.) scores an output's simplicity (SScore), meaning
preservation (MScore) and grammaticality (GScore) against its source alone, and
combines them into an overall quality (CEScore). See ``README.md`` for every
decision taken where the paper leaves a detail open.
"""

__version__ = "0.1.0"
