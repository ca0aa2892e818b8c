"""Every shipped learned metric judged on the rated datasets outside its training data.

    nice -n 10 python benchmarks/learned_heldout.py [--cards-only | --sledoc-only | --rejudge]

For each learned metric (:data:`JUDGED`: which sub-score measures which aspect) and each rated
dataset with that aspect's label outside its ``trained_on`` (SimpEval_2022 included: these models
were never selected on it), the judge (:mod:`simpeval.learning.heldout`,
:mod:`simpeval.learning.verdict`) correlates the metric with the labels beside every non-learned
registry metric and sub-score on the same items; a dataset sharing items with the training data
(the leaderboard's item key) is contaminated and judged again on its unseen items. Metric and
baseline scores go through the score cache (``$SIMPEVAL_CACHE_DIR``), so a rerun is cheap.

Writes each metric's record (``<model card folder>/NAME.judged.json``, section ``heldout``), its card
``docs/plugins/cards/NAME.md`` and ``docs/reproduced/learned-heldout.md``. ``--cards-only`` renders the
cards and the page from the records without scoring (after a trainer's benchmark wrote its section; the page
keeps the last full run's time); ``--rejudge`` judges the stored rows again beside every baseline computed now
(non-learned, minutes), each learned metric's r as the last full run stored it (its scoring is what costs;
:func:`simpeval.learning.heldout.rejudge_rows` checks that every row's items are the same); ``--sledoc-only``
judges sledoc alone first. sledoc's record holds the SLE checkpoint's one FKGL-regression baseline (the
registry's ``fkgl``, computed now), from which the SLE model card's test-article table is rendered.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "reproduced" / "learned-heldout.md"
COMMAND = "nice -n 10 python benchmarks/learned_heldout.py"
JUDGED = {
    "lens-mini": {"lens-mini": "simplicity"},
    "lens-cla-mini": {"lens-cla-mini": "simplicity"},
    "siera": {"siera": "simplicity"},
    "sle": {"sle": "simplicity"},
    "sle-delta": {"sle-delta": "simplicity"},
    "simpq": {"simpq-simplicity": "simplicity", "simpq-meaning": "meaning", "simpq-fluency": "fluency"},
}
"""learned metric -> {its sub-score: the aspect it measures}."""
UNJUDGED = {"sledoc": "no rated dataset gives the per-item target reading level sledoc scores against "
                      "(`simpeval leaderboard` leaves it out for the same reason)"}
PAPERS = {
    "lens-mini": "None for this checkpoint: simpeval trained it (frozen MiniLM). The authors' LENS is the metric "
                 "`lens`; simpeval's implementation against theirs: docs/reproduced/lens-authors-parity.md.",
    "lens-cla-mini": "None for this checkpoint: simpeval trained it. Kwak et al. (2024)'s figures beside simpeval's "
                     "runs: docs/reproduced/kwak-2024.md.",
    "siera": "None for this checkpoint: simpeval trained it. The SIERA paper's Tables 1 and 4 beside simpeval's "
             "runs: docs/reproduced/siera.md.",
    "sle": "None for this checkpoint: simpeval trained it. The SLE paper's tables beside simpeval's runs: "
           "docs/reproduced/sledoc.md.",
    "simpq": "None: simpq is simpeval's own metric.",
}
PAPERS["sle-delta"] = PAPERS["sledoc"] = PAPERS["sle"]


def card_path(name: str) -> Path:
    from simpeval.learning.record import CARD_DIR

    return ROOT / CARD_DIR / f"{name}.md"


def write_cards(registry) -> None:
    """Every judged metric's card, rendered from its record."""
    from simpeval.learning.record import card_markdown, load_record

    for name in [*JUDGED, *UNJUDGED]:
        cls = registry.metric_class(name)
        card_path(name).parent.mkdir(parents=True, exist_ok=True)
        card_path(name).write_text(card_markdown(cls, load_record(cls), PAPERS[name], limitations(cls)),
                                   encoding="utf-8")


def point_model_cards(registry) -> None:
    """Each model card's ``## Headline (NAME)`` section points at the card rendered from the judged record."""
    from simpeval.learning.report import write_card_section

    for name in [*JUDGED, *UNJUDGED]:
        cls = registry.metric_class(name)
        if name != "simpq" and cls.model_card:  # simpq's card is written whole by benchmarks/simpq_train.py
            write_card_section(Path(cls.model_card), f"Headline ({name})",
                               f"- Judged on rated data outside its training data: docs/plugins/cards/{name}.md "
                               f"(`simpeval metrics show {name}`), rendered from `{name}.judged.json` beside this card.")


def limitations(cls) -> list[str]:
    """What the judged rows cannot say about the metric."""
    out = []
    if cls.neural:
        out.append("Neural: scoring loads a model (CPU time: docs/leaderboard.md lists each metric's).")
    if cls.name in UNJUDGED:
        out.append(f"Not judged on rated data: {UNJUDGED[cls.name]}.")
    return out


SLE_TEST_ARTICLES = "Test articles (scored once, after selection)"
"""The SLE model card's section rendered from sledoc's record: the checkpoint's MAE beside the one FKGL baseline."""


def sle_training_record() -> dict:
    from simpeval_sle.plugin import SleDoc

    return json.loads((Path(SleDoc.model_card).parent / "sle_config.json").read_text(encoding="utf-8"))["training"]


def judge_sledoc(registry, data_dir: Path) -> None:
    """sledoc's own held-out figure: the shipped checkpoint's test-article document MAE (its training record)
    beside the FKGL-regression baseline computed now with the registry's ``fkgl`` (the one FKGL baseline its
    cards show), kept in sledoc's record."""
    from simpeval.learning.record import update_record
    from simpeval_sle.pipeline import test_articles_fkgl_baseline

    config = sle_training_record()
    baseline = test_articles_fkgl_baseline(data_dir, config["split"])
    mae, fkgl = config["test_document_mae"]["all"], baseline["document_mae"]["all"]
    notes = [f"{UNJUDGED['sledoc']}.", f"On OneStopEnglish's {baseline['test_articles']} test articles (never trained "
             f"or selected on), document MAE {mae:.3f} (the shipped checkpoint's training record) against {fkgl:.3f} "
             f"for an FKGL regression fitted on the {baseline['train_articles']} training articles with the "
             f"registry's `{baseline['signature']}` ({'lower' if mae < fkgl else 'not lower'} than the FKGL "
             "regression's)."]
    update_record(registry.metric_class("sledoc"), "heldout", [], COMMAND, notes,
                  data={"test_articles_fkgl_baseline": baseline})


def render_sle_card(registry) -> None:
    """The SLE model card's test-article table, from sledoc's record (the one FKGL baseline)."""
    from simpeval.learning.record import load_record
    from simpeval.learning.report import write_card_section
    from simpeval_sle.pipeline import test_articles_section

    cls = registry.metric_class("sledoc")
    baseline = load_record(cls)["sections"]["heldout"]["data"]["test_articles_fkgl_baseline"]
    write_card_section(Path(cls.model_card), SLE_TEST_ARTICLES, test_articles_section(sle_training_record(), baseline))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards-only", action="store_true", help="render the cards from the records, without scoring")
    parser.add_argument("--rejudge", action="store_true",
                        help="judge the stored rows again beside the baselines computed now (no learned scoring)")
    parser.add_argument("--sledoc-only", action="store_true",
                        help="judge only sledoc (its test-article FKGL baseline, seconds), then render the cards")
    from simpeval.datadir import resolve_data_dir
    from simpeval.learning.heldout import judge_metric
    from simpeval.learning.record import update_record
    from simpeval.registry import load_registry

    registry = load_registry()
    args = parser.parse_args()
    if args.sledoc_only:
        judge_sledoc(registry, resolve_data_dir(None))
    if args.cards_only or args.sledoc_only:
        write_cards(registry)
        point_model_cards(registry)
        render_sle_card(registry)
        rewrite_page(registry, resolve_data_dir(None))
        return
    start = time.perf_counter()
    data_dir = resolve_data_dir(None)
    items, baselines = rated_baselines(registry, data_dir)
    if args.rejudge:
        rejudge(registry, data_dir, items, baselines, start)
        return
    page_rows, unknown = [], set()
    for name, scores in JUDGED.items():
        cls = registry.metric_class(name)
        rows, missing = judge_metric(cls, scores, items, registry, data_dir, baselines)
        unknown.update(missing)
        notes = [f"The items of {', '.join(missing)} cannot be read here, so no item is counted as shared with "
                 "it."] if missing else []
        update_record(cls, "heldout", rows, COMMAND, notes)
        page_rows += [(name, row) for row in rows]
    judge_sledoc(registry, data_dir)
    write_cards(registry)
    point_model_cards(registry)
    render_sle_card(registry)
    table = write_page(registry, page_rows, unknown, f"Ran {time.perf_counter() - start:.0f} s (scores through the score "
               f"cache), load average {os.getloadavg()[0]:.1f} at the end (shared 2-core machine).")
    print("\n".join(table))


def rated_baselines(registry, data_dir: Path) -> tuple[list, dict]:
    """Every rated dataset's items (:data:`simpeval.learning.heldout.ASPECT_DATASETS`) and every baseline's
    scores on them (dataset -> baseline -> per item)."""
    from simpeval.learning.baselines import baseline_scores
    from simpeval.learning.heldout import ASPECT_DATASETS, rated_items

    names = sorted({d for datasets in ASPECT_DATASETS.values() for d in datasets},
                   key=ASPECT_DATASETS["simplicity"].index)
    items = [rated_items(data_dir, name) for name in names]
    return items, {data.name: baseline_scores(data.sources, data.outputs, data.references, registry) for data in items}


def rejudge(registry, data_dir: Path, items, baselines, start: float) -> None:
    """Every judged metric's stored held-out rows judged again beside ``baselines`` (computed now), each row's r
    as the last full run stored it; the records, cards and page rewritten (the page keeps that run's time)."""
    import re

    from simpeval.learning.heldout import rejudge_rows
    from simpeval.learning.record import load_record, rows_of, update_record

    page_rows = []
    for name in JUDGED:
        cls = registry.metric_class(name)
        record = load_record(cls)
        rows = rejudge_rows(cls, rows_of(record, "heldout"), items, registry, data_dir, baselines)
        update_record(cls, "heldout", rows, f"{COMMAND} --rejudge", record["sections"]["heldout"].get("notes", []))
        page_rows += [(name, row) for row in rows]
    write_cards(registry)
    point_model_cards(registry)
    render_sle_card(registry)
    old = PAGE.read_text(encoding="utf-8") if PAGE.exists() else ""
    found = re.search(r"^Ran \d+ s .*?\)\.", old, re.M)
    ran = (found.group(0) if found else "The last full run's time is not known.") + (
        f" Baselines judged again by `{COMMAND} --rejudge` on {time.strftime('%Y-%m-%d', time.gmtime())} in "
        f"{time.perf_counter() - start:.0f} s (load average {os.getloadavg()[0]:.1f} at the end): every baseline "
        "computed anew, each learned metric's r as that run stored it (the same items, checked).")
    print("\n".join(write_page(registry, page_rows, unreadable_training(registry, data_dir), ran)))


TITLE = "# Learned metrics on rated data outside their training data"
"""The page's title: the rows include contaminated cells (items shared with the training data), so it names the
data by the rule the rows follow (outside ``trained_on``), never as data the metrics never saw."""


def page_rows_from_records(registry) -> list:
    """(metric, row) of every judged metric's ``heldout`` section, in :data:`JUDGED` order, as the page shows them."""
    from simpeval.learning.record import load_record, rows_of

    return [(name, row) for name in JUDGED for row in rows_of(load_record(registry.metric_class(name)), "heldout")]


def unreadable_training(registry, data_dir: Path) -> set[str]:
    """The training data of the judged metrics whose items cannot be read (none of them counted as shared)."""
    from simpeval.learning.heldout import held_pairs

    return {name for metric in JUDGED for name in held_pairs(registry, data_dir, registry.metric_class(metric).trained_on)[1]}


def write_page(registry, page_rows, unknown, ran: str, compared: list[str] | None = None) -> list[str]:
    """docs/reproduced/learned-heldout.md from the judged rows (``compared``: the baseline metrics they were judged
    against, by default the registry's now); returns the table's lines."""
    from simpeval.learning.baselines import baseline_metrics
    from simpeval.learning.record import table_lines

    table = table_lines([row for _, row in page_rows])
    table = [table[0].replace("| dataset", "| metric | dataset", 1), table[1] + "---|",
             *(f"| {name} " + line for (name, _), line in zip(page_rows, table[2:]))]
    compared = sorted(baseline_metrics(registry)) if compared is None else compared
    unread = (f" The items of {', '.join(sorted(unknown))} cannot be read here, so no item is counted as shared "
              "with it." if unknown else "")
    PAGE.write_text("\n".join([
        TITLE, "",
        f"Written by `benchmarks/learned_heldout.py` (`{COMMAND}`); do not edit by hand.", "",
        "Each row: Pearson r of a shipped learned metric's sub-score with a rated dataset's label for the aspect "
        "it measures (z-scored per dataset; SimpEval_past: its overall rating, without the two ASSET-reference "
        "systems), on every rated dataset outside the metric's `trained_on`, in the metric's declared direction "
        "(a negative r points the wrong way and loses by its full size), beside the strongest of "
        f"{len(compared)} non-learned registry metrics ({', '.join(compared)}), every sub-score in its best "
        "orientation (`-name`: with its sign flipped), on the same items. A dataset sharing (source, output) "
        "items with the metric's training data (the leaderboard's item key) is *contaminated*: no win or loss "
        "there; the next row judges its unseen items. Items a metric leaves undefined (NaN: `sle-delta` of an "
        f"empty output) are left out of every r in that row.{unread} The per-metric cards: "
        "[../plugins/cards/](../plugins/cards/).", "",
        *table, "",
        ran, ""]), encoding="utf-8")
    return table


def rewrite_page(registry, data_dir: Path) -> None:
    """The page re-rendered from the stored records (no scoring), keeping the last full run's time line."""
    import re

    from simpeval.learning.baselines import baseline_metrics

    old = PAGE.read_text(encoding="utf-8") if PAGE.exists() else ""
    found = re.search(r"^Ran \d+ s .*?\)\.", old, re.M)
    listed = re.search(r"strongest of \d+ non-learned registry metrics \(([^)]*)\)", old)
    compared = listed.group(1).split(", ") if listed else sorted(baseline_metrics(registry))
    added = sorted(set(baseline_metrics(registry)) - set(compared))
    ran = (found.group(0) if found else "The last full run's time is not known.") + (
        " Rows re-rendered from the judged records by `--cards-only` (no scoring) on "
        f"{time.strftime('%Y-%m-%d', time.gmtime())}.") + (
        f" Non-learned metrics registered since the rows were judged, not among their baselines until `--rejudge`: "
        f"{', '.join(added)}." if added else "")
    write_page(registry, page_rows_from_records(registry), unreadable_training(registry, data_dir), ran, compared)

if __name__ == "__main__":
    sys.exit(main())
