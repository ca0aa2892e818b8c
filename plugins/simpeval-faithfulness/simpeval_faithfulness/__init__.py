"""Reference-free faithfulness metrics for simpeval (Cripwell et al. 2024, section 3.3).

``summac-zs`` and ``summac-conv`` score meaning preservation with an NLI model
(Laban et al. 2022), in a precision orientation (is every output sentence
supported by the source?) and a recall orientation (is every source sentence
supported by the output?); ``esa`` compares the named entities of source and output.
"""

__version__ = "0.1.0"
