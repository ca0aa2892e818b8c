"""German evaluation as a built-in plugin module: textstat's German FRE (``fre-textstat``), DEplain's
settings (the ``deplain-2023`` preset) and DEplain's published tables (``simpeval reproduce
stodden-2023``), registered through the plugin hooks beside the German test sets
(``deplain-web_test``, ``deplain-web-doc_test`` in :mod:`simpeval.datasets.testsets`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import simpeval
from simpeval.presets import Preset

if TYPE_CHECKING:
    from simpeval.metrics.base import Metric
    from simpeval.reproduce.paper import Paper

DEPLAIN_2023 = Preset(
    "deplain-2023", "DEplain's evaluation (Stodden et al. 2023, EASSE-de defaults): spaCy German tokens, "
                    "case-sensitive, textstat 0.7.3's German FRE",
    settings={"bleu": {"tokenizer": "spacy-de", "lowercase": False},
              "sari": {"tokenizer": "spacy-de", "lowercase": False},
              "fre-textstat": {"tokenizer": "spacy-de"}},
    metrics={"fre": "fre-textstat"})


@simpeval.hookimpl
def simpeval_register_metrics() -> list[type[Metric]]:
    from simpeval.german.metrics import FreTextstat

    return [FreTextstat]


@simpeval.hookimpl
def simpeval_register_presets() -> list[Preset]:
    return [DEPLAIN_2023]


@simpeval.hookimpl
def simpeval_register_papers() -> list[Paper]:
    from simpeval.german.stodden_2023 import STODDEN_2023

    return [STODDEN_2023]
