"""Check that simpeval's readability counts and values on the throughput benchmark's texts are those it gave
before its counting was made faster (issue 25): a sha256 per language of every text's sentence spans,
counts (TextCounts; Osman's counts in Arabic), per-text formula values and corpus values.

The digests below were made at 148a590 (before the work); every later change to the counting must leave
them as they are (or say why they move).

    python benchmarks/readability_values.py    # prints each language's digest; exit 1 if one differs
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from readability_textstat import FORMULAS, german, readmepp, simpeval_scores  # noqa: E402

from simpeval.datadir import resolve_data_dir  # noqa: E402
from simpeval.metrics import readability  # noqa: E402
from simpeval.registry import load_registry  # noqa: E402
from simpeval.sentences import sentence_spans  # noqa: E402

EXPECTED = {
    "de": "d7c8be5fe52d3b1d2fea41bfdfa474472b6a3fd2e78c77b3fdc7bc0f40e6b5bf",
    "fr": "273c8f7e56c11e3ae402e75cf2919c08d9d83b043125d7705826bc6449c57b96",
    "ru": "74e292556408f6e776051015bcbf5f59c986b14592ad8da0c9f85b8a941d1f8e",
    "ar": "0f0e70c410ae0824f9de1515d2f0202255e5e901db9fd64f7a813c065e3f4672",
}


def digest(registry, lang: str, texts: list[str]) -> str:  # noqa: ANN001
    record = {"scores": {name: [repr(v) for v in values] for name, values in simpeval_scores(registry, lang, texts).items()},
              "spans": [sentence_spans(text, lang) for text in texts],
              "counts": [readability.text_counts(text, lang, readability.has_hyphenation(lang)).as_tuple()
                         for text in texts],
              "corpus": {metric: repr(registry.create_metric(metric, lang=lang)._score_corpus(texts, texts)[metric])
                         for metric, _ in FORMULAS[lang]}}
    if lang == "ar":
        record["osman"] = [readability.osman_counts(text).as_tuple() for text in texts]
    return hashlib.sha256(json.dumps(record, sort_keys=True).encode()).hexdigest()


def main() -> int:
    data_dir = resolve_data_dir(os.environ.get("SIMPEVAL_DATA_DIR"))
    data = {"de": german(data_dir), "fr": readmepp(data_dir, "fr"), "ru": readmepp(data_dir, "ru"),
            "ar": readmepp(data_dir, "ar")}
    registry = load_registry(autoload=False)
    differing = []
    for lang, texts in data.items():
        found = digest(registry, lang, texts)
        same = found == EXPECTED[lang]
        print(f"{lang}: {len(texts)} texts, {found} {'same' if same else 'DIFFERS'}")
        differing += [] if same else [lang]
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
