"""simpq: simplicity, meaning and fluency of an output from interpretable features and a ridge model per aspect.

- :mod:`.features`: length and compression ratios, sentence splits, word frequency (wordfreq),
  readability, SARI and BLEU against the references and the source; per-text parts memoised in the run's store;
- :mod:`.model`: the checkpoint (JSON coefficients per aspect) and its predictions;
- :mod:`.training`: features of every rated dataset, ridge penalties chosen by leave-one-dataset-out;
- :mod:`.plugin` and :mod:`.cli`: the ``simpq`` metric and ``simpeval train simpq``.
"""

__version__ = "0.1.0"
