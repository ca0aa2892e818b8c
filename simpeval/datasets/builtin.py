"""The built-in datasets, registered through the same hook as third-party ones."""

from __future__ import annotations

import simpeval
from simpeval.datasets.lens import SimpDA2022, SimpEval2022, SimpEvalPast, SimpLikert2022, WikiDA
from simpeval.datasets.deplain import DEplainRatings
from simpeval.datasets.dwiki import CochranePairs, DWiki2025
from simpeval.datasets.metaeval import SimplicityDA, StructuralSimplicity
from simpeval.datasets.readability import TextComplexityDE, TextComplexityDEPairs, readmepp_datasets
from simpeval.datasets.wuarase import WuArase2025


@simpeval.hookimpl
def simpeval_register_datasets() -> list[type]:
    return [SimplicityDA, StructuralSimplicity, SimpEvalPast, SimpEval2022, SimpDA2022, SimpLikert2022, WikiDA,
            DWiki2025, CochranePairs, WuArase2025, DEplainRatings, TextComplexityDE, TextComplexityDEPairs,
            *readmepp_datasets()]
