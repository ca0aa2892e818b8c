"""SLE and SLEdoc (Cripwell et al. 2023; 2024) as a simpeval plugin.

SLE estimates a sentence's reading level with a regression model trained on a
levelled corpus (here OneStopEnglish: Advanced 0, Intermediate 1, Elementary 2;
higher is simpler); a text's level is the mean over its sentences, and SLEdoc is
the absolute error between a document's level and the level it targets. The
modules, each with one job:

- :mod:`.segment`: a text's sentences (lines, then the core's Punkt splitter);
- :mod:`.encoder`: the frozen encoder and its mean-pooled sentence embeddings;
- :mod:`.model`: the regression head, its checkpoint files, and its levels of embeddings;
- :mod:`.inference`: texts' levels from a checkpoint, kept by a run (what the metrics read);
- :mod:`.corpus`: OneStopEnglish articles and the seeded article split;
- :mod:`.labels`: SLE's label softening by -FKGL within each level;
- :mod:`.training`: cached features, the training loop with document-MAE selection,
  the FKGL-regression baseline;
- :mod:`.plugin` and :mod:`.trainer`: the metrics and their trainer (``simpeval train sle``).
"""

__version__ = "0.1.0"
