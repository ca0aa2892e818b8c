"""LENS (Maddela et al. 2023) and its context/literacy-aware variant (Kwak et al. 2024) as a simpeval plugin.

Modules, each with one job:

- :mod:`.encoder`: the frozen encoder, loaded offline; per-layer mean-pooled embeddings per text;
- :mod:`.losses`: top-k MSE, max over references, cosine-target loss, CS_t, reconstruction;
- :mod:`.model`: the layer mix, the projections and the estimator; checkpoints;
- :mod:`.data`: SimpEval_past examples with ASSET references; the grouped validation split;
- :mod:`.settings` and :mod:`.training`: training on cached embeddings, one epoch at a time;
- :mod:`.inference`: 0-100 scores, the best over the references;
- :mod:`.plugin` and :mod:`.trainer`: the ``lens`` and ``lens-cla`` metrics and their trainers (``simpeval train lens-mini``,
  ``simpeval train lens-cla-mini``, and ``simpeval train lens-split``: Kwak et al.'s validation split, several seeds, the
  best saved); :mod:`.loo`: the rated examples and the trainer on examples already read; :mod:`.report`: their records.
"""

__version__ = "0.1.0"
