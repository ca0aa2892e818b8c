"""SIERA (Yamanaka and Tokunaga, LREC-COLING 2024) as a simpeval plugin.

A pairwise ranking model says which of two sentences is simpler; it is trained on
(original, simplified) pairs only, multiplied by intermediate sentences made from
subsets of the edit operations between them. The modules, each with one job:

- :mod:`.normalize`: the tokenisation every sentence goes through, in training and scoring;
- :mod:`.edits`: token edits (EditNTS dynamic programme) and span edits (paper section 5);
- :mod:`.augmentation`: intermediate sentences and the BERTScore-F1 filter;
- :mod:`.similarity`: the BERTScore F1 the filter uses, with the SIERA encoder;
- :mod:`.model`: the encoder split into a frozen bottom and a trained top, the head, checkpoints;
- :mod:`.features`: a cache of the frozen bottom's states, computed once per text pair;
- :mod:`.training`: examples, the grouped validation split, the training loop;
- :mod:`.data` and :mod:`.pipeline`: parallel files in, a saved checkpoint out;
- :mod:`.inference`: length-batched scoring, one-way and two-way (paper eq. 9);
- :mod:`.plugin` and :mod:`.trainer`: the ``siera`` metric and its trainer (``simpeval train siera``).
"""

__version__ = "0.1.0"
