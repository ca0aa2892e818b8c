"""The SLE checkpoint's cards show one FKGL baseline (issue 27): the FKGL regression on the test articles with
the registry's ``fkgl``, kept in sledoc's judged record; the model card's table, the sledoc card, the trainer's
page and the SLEdoc page all show that number, and it is what the registry's fkgl gives now."""

from __future__ import annotations

import json
import re
from pathlib import Path

from simpeval.learning.record import load_record
from simpeval.registry import load_registry

ROOT = Path(__file__).resolve().parents[3]


def _baseline() -> dict:
    cls = load_registry().metric_class("sledoc")
    return load_record(cls)["sections"]["heldout"]["data"]["test_articles_fkgl_baseline"]


def test_the_one_fkgl_baseline_is_the_registrys_now(data_dir):
    from simpeval_sle.pipeline import test_articles_fkgl_baseline
    from simpeval_sle.plugin import SleDoc

    training = json.loads((Path(SleDoc.model_card).parent / "sle_config.json").read_text(encoding="utf-8"))["training"]
    recorded = _baseline()
    now = test_articles_fkgl_baseline(data_dir, training["split"])
    assert now["signature"] == recorded["signature"] == load_registry().create_metric("fkgl").signature()
    assert {k: round(v, 9) for k, v in now["document_mae"].items()} == \
        {k: round(v, 9) for k, v in recorded["document_mae"].items()}, \
        "FKGL changed: nice -n 10 python benchmarks/learned_heldout.py --sledoc-only"


def test_every_sle_page_shows_the_same_fkgl_baseline():
    from simpeval_sle.pipeline import test_articles_section
    from simpeval_sle.plugin import SleDoc

    baseline = _baseline()
    card = Path(SleDoc.model_card).read_text(encoding="utf-8")
    training = json.loads((Path(SleDoc.model_card).parent / "sle_config.json").read_text(encoding="utf-8"))["training"]
    assert test_articles_section(training, baseline) in card  # the table, rendered from the record
    value = f"{baseline['document_mae']['all']:.3f}"
    pages = [card, *(ROOT.joinpath(p).read_text(encoding="utf-8") for p in
                     ("docs/plugins/cards/sledoc.md", "docs/reproduced/sle-loo.md", "docs/reproduced/sledoc.md"))]
    for text in pages:
        shown = re.findall(r"FKGL regression (\d\.\d{3})|against (\d\.\d{3}) for (?:an|the) FKGL[- ]regression|"
                           r"(\d\.\d{3}) for the FKGL-regression baseline|\| all \| \d\.\d{3} \| (\d\.\d{3}) \|", text)
        numbers = {n for groups in shown for n in groups if n}
        assert numbers == {value}, (numbers, value)
