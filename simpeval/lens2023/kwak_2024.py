"""Kwak et al. (2024), Table 1: the conventional metrics' rows, as LENS's released code computed them.

Columns: LENS's pairwise Kendall tau on SimpEval_2022 per sentence type and over all same-type
pairs (``--correlation lens-kendall --split sentence-type``), and Pearson r with fluency, meaning and
simplicity on WIKI-DA (one table per aspect, as ``meta-evaluate`` correlates one aspect a run).
The paper prints signed correlations. Its learned rows (LENS, LENS-CLA) need trained models:
``benchmarks/reproduce_kwak_2024.py`` writes them into ``docs/reproduced/kwak-2024.md``.
"""

from __future__ import annotations

from simpeval.reproduce.tables import PublishedTable

PAPER_NAME = "kwak-2024"
TITLE = "Kwak et al. (2024), context/literacy-aware learned metrics (LENS-CLA), Table 1"
PRESET = "lens-2023"
COLUMNS = ("tau_del", "tau_para", "tau_spl", "tau_all", "Fluency", "Meaning", "Simplicity")
SPLITS = ("Deletions", "Paraphrases", "Splittings", "All")
ASPECTS = ("fluency", "meaning", "simplicity")
# Table 1, every row, in COLUMNS order
PAPER = {
    "FKGL": (-0.25, -0.556, -0.31, -0.356, 0.054, 0.145, 0.001),
    "BLEU": (0.0, 0.048, -0.054, -0.033, 0.46, 0.622, 0.438),
    "SARI": (0.0, 0.206, 0.14, 0.149, 0.335, 0.534, 0.366),
    "BERTScore": (-0.25, 0.238, 0.093, 0.112, 0.636, 0.682, 0.614),
    "LENS": (-0.5, 0.429, 0.333, 0.331, 0.807, 0.668, 0.749),
    "LENS (Kwak et al.'s reimplementation)": (-0.5, 0.27, 0.24, 0.228, 0.781, 0.681, 0.723),
    "Ours E+R": (0.0, 0.206, 0.31, 0.283, 0.674, 0.48, 0.537),
    "Ours E+R+S": (0.0, 0.246, 0.359, 0.328, 0.693, 0.518, 0.581),
}
# the scores --preset lens-2023 computes for -m fkgl,bleu,sari -> the paper's row
ROWS = {"fkgl-textstat": "FKGL", "gleu-nltk": "BLEU", "sari-lens": "SARI"}
LABELS = {"fkgl-textstat": "FKGL (textstat 0.7.3)", "gleu-nltk": "BLEU (NLTK GLEU)", "sari-lens": "SARI (LENS)"}
COMPUTED = ("fkgl", "bleu", "sari")

_COMMON = dict(paper=PAPER_NAME, labels=LABELS, computed=COMPUTED, preset=PRESET, significance="none", signed=True)

TABLES: dict[str, PublishedTable] = {
    table.key: table
    for table in (
        PublishedTable(key="1-simpeval-2022", title="Table 1: SimpEval_2022, LENS's pairwise Kendall tau",
                       dataset="simpeval-2022", references="simpeval-2022", split="sentence-type", splits=SPLITS,
                       correlation="lens-kendall", values={m: PAPER[row][:4] for m, row in ROWS.items()}, **_COMMON),
        *(PublishedTable(key=f"1-wiki-da-{aspect}", title=f"Table 1: WIKI-DA, Pearson r with {aspect}",
                         dataset="wiki-da", references="asset", split="none", splits=("All",), aspect=aspect,
                         values={m: (PAPER[row][4 + k],) for m, row in ROWS.items()}, **_COMMON)
          for k, aspect in enumerate(ASPECTS)),
    )
}
