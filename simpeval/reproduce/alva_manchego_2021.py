"""Alva-Manchego, Scarton and Specia (2021), *The (un)suitability of automatic evaluation metrics
for text simplification*: Tables 3, 7, 9, 10 and 11, with the runs that reproduce them.

BLEU, iBLEU, SARI, BLEU-SARI (AM/GM), FKBLEU and FKGL are computed under ``--preset
metaeval-2021``; BERTScore (roberta-large), SAMSA and SARI-SAMSA come from the per-item values
EASSE published with the paper (``metaeval/metrics_simplicity_DA.csv``), which exist for
Simplicity-DA with the ASSET and the union (``all``) reference sets only. Every value is the
paper's absolute Pearson r, row by row, in the paper's column order.

A built-in plugin module: it registers the paper and the ``metaeval-2021`` preset with its metric
settings (:data:`SETTINGS`; no metric carries them) through the same hooks as any plugin.
"""

from __future__ import annotations

import simpeval
from simpeval.metrics.composite import prefixed_settings
from simpeval.presets import Preset
from simpeval.reproduce.tables import CorrelationPaper, PublishedTable

PAPER = "alva-manchego-2021"
PRESET = "metaeval-2021"
PUBLISHED_CSV = "metaeval/metrics_simplicity_DA.csv"
COMPUTED = ("bleu", "ibleu", "sari", "bleu-sari-amean", "bleu-sari-gmean", "fkbleu", "fkgl")
PUBLISHED = ("bertscore-p", "bertscore-r", "bertscore-f1", "sari-samsa-amean", "sari-samsa-gmean", "samsa")
LABELS = {
    "bertscore-p": "BERTScore_P", "bertscore-r": "BERTScore_R", "bertscore-f1": "BERTScore_F1",
    "bleu": "BLEU", "ibleu": "iBLEU", "sari": "SARI", "bleu-sari-amean": "BLEU-SARI (AM)",
    "bleu-sari-gmean": "BLEU-SARI (GM)", "sari-samsa-amean": "SARI-SAMSA (AM)",
    "sari-samsa-gmean": "SARI-SAMSA (GM)", "bleu-samsa-amean": "BLEU-SAMSA (AM)",
    "bleu-samsa-gmean": "BLEU-SAMSA (GM)", "fkbleu": "FKBLEU", "fkgl": "FKGL", "samsa": "SAMSA",
}
QUALITY = ("Low", "High", "All")

TABLE3 = {  # Simplicity-DA, ASSET: Low, High, All
    "bertscore-p": (0.512, 0.287, 0.617), "bertscore-r": (0.471, 0.172, 0.500),
    "bertscore-f1": (0.518, 0.224, 0.573), "bleu": (0.405, 0.235, 0.496), "ibleu": (0.398, 0.253, 0.504),
    "sari": (0.336, 0.139, 0.359), "bleu-sari-amean": (0.417, 0.239, 0.503),
    "bleu-sari-gmean": (0.408, 0.215, 0.476), "sari-samsa-amean": (0.203, 0.050, 0.166),
    "sari-samsa-gmean": (0.222, 0.024, 0.156), "fkbleu": (0.131, 0.006, 0.098),
    "fkgl": (0.272, 0.093, 0.117), "samsa": (0.103, 0.010, 0.058),
}
TABLE7 = {  # Structural Simplicity, HSplit: Low, High, All
    "bertscore-p": (0.552, 0.310, 0.090), "bertscore-r": (0.411, 0.601, 0.430),
    "bertscore-f1": (0.483, 0.529, 0.325), "bleu": (0.421, 0.643, 0.443), "ibleu": (0.408, 0.635, 0.436),
    "sari": (0.137, 0.418, 0.313), "bleu-sari-amean": (0.346, 0.599, 0.431),
    "bleu-sari-gmean": (0.329, 0.589, 0.438), "bleu-samsa-amean": (0.289, 0.608, 0.420),
    "bleu-samsa-gmean": (0.293, 0.569, 0.370), "fkbleu": (0.395, 0.608, 0.364),
    "fkgl": (0.070, 0.165, 0.228), "samsa": (0.103, 0.431, 0.284),
}
TABLE9_SPLITS = ("SBMT", "PBMT", "S2S", "Sem+PBMT")
TABLE9 = {  # Simplicity-DA, ASSET, by system type
    "bertscore-p": (0.537, 0.459, 0.650, 0.624), "bertscore-r": (0.527, 0.375, 0.484, 0.470),
    "bertscore-f1": (0.528, 0.400, 0.588, 0.568), "bleu": (0.295, 0.347, 0.546, 0.333),
    "ibleu": (0.315, 0.336, 0.536, 0.335), "sari": (0.228, 0.173, 0.310, 0.240),
    "bleu-sari-amean": (0.315, 0.336, 0.536, 0.335), "bleu-sari-gmean": (0.298, 0.320, 0.508, 0.308),
    "sari-samsa-amean": (0.243, 0.121, 0.209, 0.291), "sari-samsa-gmean": (0.250, 0.080, 0.190, 0.333),
    "fkbleu": (0.006, 0.058, 0.092, 0.138), "fkgl": (0.055, 0.063, 0.104, 0.062),
    "samsa": (0.184, 0.067, 0.126, 0.248),
}
# The paper prints BLEU-SARI (AM)'s numbers in its iBLEU row of Table 9 (the two rows are identical).
TABLE9_PRINTING_ERROR = frozenset({"ibleu"})
TABLE10_SPLITS = ("PBMT", "SBMT", "S2S", "Sem", "Sem+PBMT", "Sem+S2S")
TABLE10 = {  # Structural Simplicity, HSplit, by system type
    "bertscore-p": (0.501, 0.571, 0.292, 0.330, 0.096, 0.111),
    "bertscore-r": (0.339, 0.418, 0.635, 0.066, 0.134, 0.480),
    "bertscore-f1": (0.405, 0.497, 0.553, 0.180, 0.049, 0.362),
    "bleu": (0.284, 0.380, 0.661, 0.130, 0.147, 0.540), "ibleu": (0.252, 0.380, 0.642, 0.130, 0.145, 0.536),
    "sari": (0.015, 0.286, 0.330, 0.028, 0.166, 0.355),
    "bleu-sari-amean": (0.184, 0.364, 0.603, 0.100, 0.175, 0.507),
    "bleu-sari-gmean": (0.157, 0.341, 0.589, 0.097, 0.185, 0.515),
    "bleu-samsa-amean": (0.240, 0.334, 0.603, 0.095, 0.072, 0.573),
    "bleu-samsa-gmean": (0.216, 0.279, 0.563, 0.109, 0.075, 0.561),
    "fkbleu": (0.215, 0.344, 0.617, 0.009, 0.119, 0.539), "fkgl": (0.205, 0.016, 0.251, 0.083, 0.155, 0.242),
    "samsa": (0.141, 0.177, 0.368, 0.052, 0.009, 0.497),
}
TABLE11 = {  # Simplicity-DA: {references: {metric: (Low, High, All)}}
    "all": {
        "bertscore-p": (0.541, 0.280, 0.629), "bertscore-r": (0.476, 0.165, 0.506),
        "bertscore-f1": (0.530, 0.202, 0.576), "bleu": (0.404, 0.230, 0.526), "ibleu": (0.398, 0.250, 0.537),
        "sari": (0.366, 0.097, 0.353), "bleu-sari-amean": (0.418, 0.218, 0.519),
        "bleu-sari-gmean": (0.410, 0.195, 0.490),
    },
    "selected": {
        "bertscore-p": (0.543, 0.276, 0.635), "bertscore-r": (0.479, 0.165, 0.511),
        "bertscore-f1": (0.534, 0.202, 0.584), "bleu": (0.402, 0.223, 0.525), "ibleu": (0.396, 0.244, 0.536),
        "sari": (0.352, 0.115, 0.350), "bleu-sari-amean": (0.418, 0.221, 0.523),
        "bleu-sari-gmean": (0.410, 0.205, 0.496),
    },
}
RELIABILITY = {  # ICC, simulated-rater Spearman mean, std (§3)
    ("simplicity-da", "simplicity"): (0.386, 0.607, 0.026),
    ("structural-simplicity", "structural_simplicity"): (0.465, 0.508, 0.013),
}

_SIMPLICITY_DA = dict(paper=PAPER, dataset="simplicity-da", labels=LABELS, preset=PRESET)
_STRUCTURAL = dict(paper=PAPER, dataset="structural-simplicity", references="hsplit", labels=LABELS,
                   preset=PRESET, computed=COMPUTED)
_NO_SAMSA = ("For Structural Simplicity BERTScore, SAMSA and BLEU-SAMSA are n/a: EASSE published no per-item "
             "values for it, and roberta-large and SAMSA's UCCA parser are not available offline.")

TABLES: dict[str, PublishedTable] = {
    table.key: table
    for table in (
        PublishedTable(key="3", title="Table 3: Simplicity-DA, ASSET references, quality splits",
                       references="asset", split="quality", splits=QUALITY, values=TABLE3, computed=COMPUTED,
                       scores_file=PUBLISHED_CSV, score_columns=PUBLISHED, **_SIMPLICITY_DA),
        PublishedTable(key="7", title="Table 7: Structural Simplicity, HSplit references, quality splits",
                       split="quality", splits=QUALITY, values=TABLE7, note=_NO_SAMSA, **_STRUCTURAL),
        PublishedTable(key="9", title="Table 9: Simplicity-DA, ASSET references, system types",
                       references="asset", split="system-type", splits=TABLE9_SPLITS, values=TABLE9,
                       computed=COMPUTED, scores_file=PUBLISHED_CSV, score_columns=PUBLISHED,
                       note="The paper's iBLEU row repeats its BLEU-SARI (AM) row verbatim (a printing error); "
                            "iBLEU's own values are the ones here.", **_SIMPLICITY_DA),
        PublishedTable(key="10", title="Table 10: Structural Simplicity, HSplit references, system types",
                       split="system-type", splits=TABLE10_SPLITS, values=TABLE10, note=_NO_SAMSA, **_STRUCTURAL),
        PublishedTable(key="11-all", title="Table 11: Simplicity-DA, all references (ASSET + TurkCorpus + HSplit)",
                       references="all", split="quality", splits=QUALITY, values=TABLE11["all"],
                       computed=COMPUTED[:5], scores_file=PUBLISHED_CSV, score_columns=PUBLISHED[:3],
                       **_SIMPLICITY_DA),
        PublishedTable(key="11-selected", title="Table 11: Simplicity-DA, selected references",
                       references="selected", split="quality", splits=QUALITY, values=TABLE11["selected"],
                       computed=COMPUTED[:5],
                       note="BERTScore is n/a: EASSE published no per-item values for selected references.",
                       **_SIMPLICITY_DA),
    )
}


@simpeval.hookimpl
def simpeval_register_papers() -> list[CorrelationPaper]:
    return [CorrelationPaper(PAPER, "Alva-Manchego, Scarton and Specia (2021), The (un)suitability of automatic "
                                    "evaluation metrics for text simplification", TABLES)]


BLEU = {"tokenizer": "moses", "lowercase": False, "smooth": "floor", "smooth_value": 0.0, "effective_order": True,
        "zero_if_no_match": False}
"""sacrebleu 1.4's sentence BLEU as EASSE called it for the paper: Moses tokens, cased, floor smoothing at 0."""
SARI = {"tokenizer": "moses", "lowercase": False, "deletion": "precision", "paper_version": False}
FKGL = {"tokenizer": "moses", "lowercase": True, "clip": True}
IBLEU = {**BLEU, "source_smooth": "exp", "source_smooth_value": None, "source_effective_order": False,
         "source_zero_if_no_match": False}
SETTINGS = {
    "bleu": BLEU,
    "sent-bleu": BLEU,
    "bleu-source": BLEU,
    "sari": SARI,
    "fkgl": FKGL,
    "ibleu": IBLEU,
    "fkbleu": {**IBLEU, **prefixed_settings(FKGL, "fkgl_")},
    "bleu-sari-amean": {**prefixed_settings(BLEU, "bleu_"), **prefixed_settings(SARI, "sari_")},
    "bleu-sari-gmean": {**prefixed_settings(BLEU, "bleu_"), **prefixed_settings(SARI, "sari_")},
    "bertscore": {"rescale": False},
}
"""The ``metaeval-2021`` preset's settings per metric: EASSE's as the paper computed its scores."""


@simpeval.hookimpl
def simpeval_register_presets() -> list[Preset]:
    return [Preset(PRESET, "EASSE's settings of Alva-Manchego et al. (2021): sacrebleu 1.4 BLEU, Moses tokens, "
                           "lower-cased FKGL", settings=SETTINGS)]
