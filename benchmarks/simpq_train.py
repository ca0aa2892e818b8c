"""Train the shipped simpq checkpoint, judged on the dataset each fold leaves out, and write its model card and page.

    nice -n 10 python benchmarks/simpq_train.py [--feature-cache /tmp/simpq-features.npz] [--heldout-section-only]
                                                [--rejudge]

Per feature variant (base; base+cescore; base+embeddings; base+cescore+embeddings) and aspect, the
candidate (a ridge per penalty, or one feature alone) is chosen by the mean leave-one-dataset-out
correlation, and the shipped model is fitted on every dataset. Writes
``plugins/simpeval-simpq/simpeval_simpq/checkpoint/{simpq.json,MODEL_CARD.md}`` and
``docs/reproduced/simpq.md``: which label defines each aspect, the labels' correlations with each other
and with the compression ratio per dataset, the left-out tables judged beside every non-learned
registry metric (:mod:`simpeval.learning.verdict`), the old definition of simplicity for comparison,
and every variant scored once on SimpEval_2022 (test data: never trained or selected on), after
selection; and the ``trainer`` section of simpq's judged record and its card. ``--heldout-section-only``
rewrites only the card's (and page's) last section, the pointer to the held-out rows, without training.
``--rejudge`` judges the record's trainer rows again beside every baseline computed now, each fold's r as the
last run stored it (:func:`rejudge`), and rewrites their rows of the card's and page's left-out table.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
CHECKPOINT = ROOT / "plugins" / "simpeval-simpq" / "simpeval_simpq" / "checkpoint"
PAGE = ROOT / "docs" / "reproduced" / "simpq.md"
COMMAND = "nice -n 10 python benchmarks/simpq_train.py"
DEFAULT_VARIANT = "base+cescore"
"""What ``-m simpq`` reads with the CEScore plugin installed (embeddings are an option: see the speed page)."""
ASPECTS = ("simplicity", "meaning", "fluency")


def shipped_folds(variant: str = DEFAULT_VARIANT) -> dict[str, dict]:
    """The shipped checkpoint's recorded left-out folds: aspect -> left-out dataset -> :class:`~simpeval.learning.loo.Fold`."""
    from simpeval.learning.report import folds_from_record

    record = json.loads((CHECKPOINT / "simpq.json").read_text(encoding="utf-8"))["training"][variant]
    return {aspect: {f.left_out: f for f in folds_from_record(r["leave_one_dataset_out"])}
            for aspect, r in record.items()}


def label_table(sets, matrices) -> list[str]:
    """Per dataset: every pair of its labels, each label with the compression ratio, and simpq's simplicity label."""
    from simpeval.learning.loo import pearson
    from simpeval_simpq.features import baseline_scores
    from simpeval_simpq.training import ASPECT_LABELS, aspect_labels

    header = ["vs simplicity", "vs meaning", "vs fluency/grammaticality", "vs compression ratio"]
    lines = ["| dataset | label | " + " | ".join(header) + " |", "|---|---|---|---|---|---|"]
    net = {rated.name: labels for rated, labels in aspect_labels(sets, "simplicity")}
    for rated in sets:
        compression = baseline_scores(matrices[rated.name])["compression"]
        columns = dict(rated.labels)
        if rated.name in net:
            columns[f"simpq simplicity ({' '.join(['net of', *ASPECT_LABELS['simplicity'][rated.name][1]])})"] = net[rated.name]
        for column, values in columns.items():
            cells = []
            for other in ("simplicity", "meaning", ("fluency", "grammaticality")):
                names = other if isinstance(other, tuple) else (other,)
                match = next((rated.labels[n] for n in names if n in rated.labels), None)
                cells.append("-" if match is None or column in names else f"{pearson(values, match):+.2f}")
            cells.append(f"{pearson(values, compression):+.2f}")
            lines.append(f"| {rated.name} | {column} | " + " | ".join(cells) + " |")
    return lines


def judged_rows(results) -> list:
    """Every aspect's folds judged (:meth:`simpeval.learning.loo.Fold.row`)."""
    return [fold.row(f"simpq-{aspect}", aspect) for aspect, result in results.items() for fold in result.folds]


def loo_lines(results) -> list[str]:
    from simpeval.learning.record import JUDGED_HEADER, row_cells
    from simpeval_simpq.training import label_text

    header = ["aspect", "left-out dataset (label)", "n", "shared rows not fitted on", "chosen on the other dataset",
              *JUDGED_HEADER]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in judged_rows(results):
        lines.append(f"| {row.aspect} | {row.dataset} ({label_text(row.aspect, row.dataset)}) | {row.n} | "
                     f"{row.dropped} | {row.chosen} | " + " | ".join(row_cells(row)) + " |")
    return lines


def verdict(fold) -> str:
    """The judge's cell for a fold: ``win (margin)`` or ``loss (margin)`` (signed r against the strongest |r|)."""
    from simpeval.learning.record import row_cells

    return row_cells(fold.row("simpq"))[3]


def variant_lines(results) -> list[str]:
    """Per aspect and left-out dataset: every variant's r (the candidate chosen on the other dataset) beside the
    best baseline, and each variant's kept candidates."""
    keys = list(results)
    lines = ["| aspect | left out | " + " | ".join(f"{k} r" for k in keys) + " | strongest baseline abs(r) |",
             "|---|---|" + "---|" * (len(keys) + 1)]
    first = results[keys[0]]
    for aspect in first:
        for i, fold in enumerate(first[aspect].folds):
            name, value = fold.best_baseline
            cells = [f"{results[k][aspect].folds[i].r:+.3f}" for k in keys]
            lines.append(f"| {aspect} | {fold.left_out} | " + " | ".join(cells) + f" | {name} {value:.3f} |")
    lines.append("| kept | | " + " | ".join("; ".join(f"{a}: {r.chosen}" for a, r in results[k].items())
                                             for k in keys) + " | |")
    return lines


def candidate_lines(results) -> list[str]:
    """Every candidate's mean left-out r per aspect (the selection; chosen in bold)."""
    from simpeval.learning.loo import mean_r

    candidates = list(next(iter(results.values())).tables)
    lines = ["| candidate | " + " | ".join(results) + " |", "|---|" + "---|" * len(results)]
    for candidate in candidates:
        cells = [(f"**{mean_r(r.tables[candidate]):+.3f}**" if candidate == r.chosen
                  else f"{mean_r(r.tables[candidate]):+.3f}") for r in results.values()]
        lines.append(f"| {candidate} | " + " | ".join(cells) + " |")
    return lines


def as_rated_lines(data_dir: Path, cache: Path | None) -> tuple[list[str], list[str]]:
    """For comparison: simplicity as rated (the raw label of all three datasets, SimpEval_past's overall
    rating included), the definition this checkpoint replaced, with the default variant's features."""
    from simpeval.learning import loo
    from simpeval.learning.rated import aspect_sets, load_rated
    from simpeval_simpq.features import columns
    from simpeval_simpq.training import ALPHAS, featurize, rated_baselines

    groups = tuple(DEFAULT_VARIANT.split("+"))
    sets = load_rated(data_dir, ["simplicity-da", "structural-simplicity", "simpeval-past"])
    matrices = featurize(sets, cache, groups)
    pairs = aspect_sets(sets, "simplicity")
    names = [s.name for s, _ in pairs]
    x = [matrices[n] for n in names]
    candidates = {**loo.ridge_candidates(ALPHAS), **loo.single_feature_candidates(columns(groups))}
    baselines = rated_baselines([s for s, _ in pairs])
    selection = loo.select(candidates, x, [y for _, y in pairs], names, [baselines[n] for n in names],
                           [s.keys for s, _ in pairs])
    lines = ["| left out (raw simplicity label) | n | chosen on the others | r | strongest baseline abs(r) | verdict |",
             "|---|---|---|---|---|---|"]
    for fold in selection.folds:
        name, value = fold.best_baseline
        lines.append(f"| {fold.left_out} | {fold.n} | {fold.chosen} | {fold.r:+.3f} | {name} {value:.3f} | "
                     f"{verdict(fold)} |")
    return lines, [selection.chosen]


def test_set_lines(data_dir: Path, variants) -> list[str]:
    """Every variant on SimpEval_2022, scored once after selection (no choice depends on it)."""
    from simpeval.datasets.lens import SimpEval2022
    from simpeval.learning.baselines import baseline_scores
    from simpeval.learning.loo import pearson
    from simpeval.learning.verdict import strongest
    from simpeval_simpq.plugin import Simpq

    dataset = SimpEval2022(data_dir)
    sources = [i.source for i in dataset.items]
    outputs = [i.output for i in dataset.items]
    references = dataset.references()
    human = np.asarray(dataset.human_scores("simplicity"), float)
    base = baseline_scores(sources, outputs, references)
    lines = ["| features | n | simpq-simplicity | simpq-meaning | simpq-fluency |", "|---|---|---|---|---|"]
    for key in variants:
        groups = key.split("+")
        scores = Simpq(cescore="yes" if "cescore" in groups else "no",
                       embeddings="embeddings" in groups).sentence_scores(sources, outputs, references)
        cells = [f"{pearson(scores[f'simpq-{a}'], human):+.3f}" for a in ASPECTS]
        lines.append(f"| {key} | {len(human)} | " + " | ".join(cells) + " |")
    name, value = strongest({k: pearson(v, human) for k, v in base.items()})
    lines += ["", f"The strongest of {len(base)} non-learned registry baselines on the same items: {name}, "
              f"abs(r) {value:.3f} (simpq's judged rows on SimpEval_2022: docs/plugins/cards/simpq.md)."]
    return lines


def why_simplicity(results, sets, matrices) -> list[str]:
    """The evidence for how simplicity fares: how each dataset's simplicity label relates to compression."""
    from simpeval.learning.loo import pearson
    from simpeval_simpq.features import baseline_scores
    from simpeval_simpq.training import aspect_labels

    folds = results["simplicity"].folds
    misses = [f.row("simpq-simplicity") for f in folds if not f.beats_baselines]
    parts = [f"{rated.name} {pearson(labels, baseline_scores(matrices[rated.name])['compression']):+.2f}"
             for rated, labels in aspect_labels(sets, "simplicity")]
    head = (f"Simplicity: the judge gives simpq {len(folds) - len(misses)} win(s) in {len(folds)} left-out datasets"
            + (" (losses: " + ", ".join(f"{r.dataset} by {-r.margin:.3f} to {r.baseline}" for r in misses) + ")"
               if misses else "") + ". ")
    return [head + "simpq's simplicity label (the raters' simplicity net of their meaning and fluency) correlates "
            "with the compression ratio " + ", ".join(parts) + ". Two datasets are all that rate simplicity beside "
            "meaning and fluency, so each fold trains on one protocol and tests on the other."]


def heldout_section() -> list[str]:
    """The card's last section: where the shipped checkpoint's held-out rows are. Its title is the record's
    (:data:`simpeval.learning.record.SECTIONS`): those rows include a contaminated cell, which no title may call
    data it never saw."""
    from simpeval.learning.record import SECTIONS

    return [f"## {SECTIONS['heldout']}",
            "Judged by `benchmarks/learned_heldout.py`: docs/plugins/cards/simpq.md (`simpeval metrics show simpq`); "
            "a dataset sharing items with the training data is marked contaminated there.", ""]


HELDOUT_HEADING = "## The shipped checkpoint on "
"""How the held-out section's title starts, before and after the wording changed."""


def write_card_and_page(card: list[str]) -> None:
    (CHECKPOINT / "MODEL_CARD.md").write_text("\n".join(card), encoding="utf-8")
    PAGE.write_text("\n".join(["# simpq: leave-one-dataset-out", ""] + card[2:]), encoding="utf-8")


def rewrite_heldout_section() -> None:
    """The card and page with their last section (from :data:`HELDOUT_HEADING` on) rewritten, nothing trained."""
    card = (CHECKPOINT / "MODEL_CARD.md").read_text(encoding="utf-8").split("\n")
    start = next(i for i, line in enumerate(card) if line.startswith(HELDOUT_HEADING))
    write_card_and_page(card[:start] + heldout_section())


def rejudge() -> None:
    """The ``trainer`` rows of simpq's record judged again by the one judge beside every registry baseline computed
    now on the left-out dataset's items and labels (what the folds were judged on), keeping each fold's r, n and
    choice as the last training run stored them (training is what costs); the record, card and page rows
    rewritten. The card's headline and win count were written from that run's verdicts: a changed verdict or
    strongest baseline is refused (it needs the full run)."""
    from learned_heldout import write_cards
    from simpeval.datadir import resolve_data_dir
    from simpeval.learning.rated import load_rated
    from simpeval.learning.record import load_record, row_cells, rows_of, update_record
    from simpeval.learning.verdict import judge, pearson
    from simpeval.registry import load_registry
    from simpeval_simpq.training import DATASETS, aspect_labels, label_text, rated_baselines

    sets = load_rated(resolve_data_dir(None), list(DATASETS))
    baselines = rated_baselines(sets)
    labels = {(aspect, rated.name): values for aspect in ASPECTS for rated, values in aspect_labels(sets, aspect)}
    registry = load_registry()
    cls = registry.metric_class("simpq")
    record = load_record(cls)
    rows = []
    for row in rows_of(record, "trainer"):
        values = labels[row.aspect, row.dataset]
        if len(values) != row.n:
            raise SystemExit(f"simpq on {row.dataset}: {len(values)} items now, {row.n} when judged: run it in full")
        again = judge(row.r, row.n, {k: pearson(v, values) for k, v in baselines[row.dataset].items()},
                      dataset=row.dataset, aspect=row.aspect, score=row.score, chosen=row.chosen, dropped=row.dropped)
        if (again.verdict, again.baseline, again.baseline_sign) != (row.verdict, row.baseline, row.baseline_sign):
            raise SystemExit(f"simpq on {row.dataset} / {row.aspect}: {row.verdict} beside {row.baseline} when "
                             f"trained, {again.verdict} beside {again.baseline} now: run it in full (the headline)")
        rows.append(again)
    update_record(cls, "trainer", rows, f"{COMMAND} --rejudge", record["sections"]["trainer"].get("notes", []))
    write_cards(registry)
    card = (CHECKPOINT / "MODEL_CARD.md").read_text(encoding="utf-8").split("\n")
    for row in rows:
        start = f"| {row.aspect} | {row.dataset} ({label_text(row.aspect, row.dataset)}) | {row.n} | "
        (i,) = [i for i, line in enumerate(card) if line.startswith(start)]
        card[i] = start + f"{row.dropped} | {row.chosen} | " + " | ".join(row_cells(row)) + " |"
    write_card_and_page(card)
    print("\n".join(line for line in card if line.startswith("| ") and "(of " in line))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--feature-cache", type=Path, default=None)
    parser.add_argument("--heldout-section-only", action="store_true",
                        help="rewrite only the card's and page's held-out section (seconds; nothing trained)")
    parser.add_argument("--rejudge", action="store_true",
                        help="judge the record's trainer rows again beside the baselines computed now (nothing trained)")
    args = parser.parse_args()
    if args.rejudge:
        rejudge()
        return
    if args.heldout_section_only:
        rewrite_heldout_section()
        return
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "2")
    from simpeval.datadir import resolve_data_dir
    from simpeval.learning.rated import LABEL_NOTES, load_rated
    from simpeval_simpq.model import save, to_json
    from simpeval_simpq.training import ASPECT_LABELS, DATASETS, featurize, label_text, train, training_record

    data_dir = resolve_data_dir(None)
    sets = load_rated(data_dir, list(DATASETS))
    matrices = featurize(sets, args.feature_cache)
    variants = train(sets, matrices)
    save(CHECKPOINT, to_json({k: {a: r.model for a, r in v.items()} for k, v in variants.items()},
                             training_record(variants)))
    results = variants[DEFAULT_VARIANT]
    as_rated, (as_rated_choice,) = as_rated_lines(data_dir, args.feature_cache)
    test = test_set_lines(data_dir, variants)
    definitions = [f"- `simpq-{aspect}`: " + "; ".join(
        f"{ds} `{label_text(aspect, ds)}`" + (f" ({LABEL_NOTES[(ds, col)]})" if (ds, col) in LABEL_NOTES else "")
        for ds, (col, _) in ASPECT_LABELS[aspect].items()) for aspect in results]
    beats = {a: sum(f.beats_baselines for f in r.folds) for a, r in results.items()}
    headline = [f"- Trained on: {', '.join(DATASETS)} (never simpeval-2022; SimpEval_past's overall rating measures "
                "none of the three aspects); labels z-scored per dataset; simplicity net of the raters' meaning and "
                f"fluency; model chosen by leave-one-dataset-out (features {DEFAULT_VARIANT}: " +
                ", ".join(f"{a}: {r.chosen}" for a, r in results.items()) + ")."]
    for aspect, result in results.items():
        cells = ", ".join(f"{f.left_out} r {f.r:+.2f}, {f.row('simpq').verdict} against {f.best_baseline[0]} "
                          f"(abs(r) {f.best_baseline[1]:.2f})" for f in result.folds)
        headline.append(f"- {aspect}, on the dataset left out (the candidate chosen on the other one): {cells}.")
    card = [
        "# simpq checkpoint", "", f"Written by `benchmarks/simpq_train.py` (`{COMMAND}`); do not edit by hand.", "",
        "## Headline", *headline, "",
        "## What defines each aspect", *definitions, "",
        "Simplicity is the part of a simplicity rating that the same raters' meaning and fluency ratings of the "
        "same output do not explain (the residual of a least-squares fit, z-scored): crowd simplicity ratings "
        "move with meaning and fluency (a quality halo, table below), and meaning and fluency are simpq's other "
        "two sub-scores. This definition was fixed before any left-out figure of it was computed; the "
        "definition it replaced is shown below for comparison, not chosen between.", "",
        "## The labels, per dataset (Pearson r)", *label_table(sets, matrices), "",
        f"## Leave-one-dataset-out, features {DEFAULT_VARIANT} (what `-m simpq` reads with simpeval-cescore installed)",
        "Each row: the candidate chosen on the *other* dataset (its left-out r there), fitted without the dataset "
        "left out, and its r on it; the shipped candidate, fitted on both, is the one with the best mean left-out r "
        "(table further down), whose own rows were read to choose it.", "",
        *loo_lines(results), "",
        *why_simplicity(results, sets, matrices), "",
        "The judge's wins against the strongest registry baseline: " + ", ".join(
            f"{a} {beats[a]} of {len(r.folds)}" for a, r in results.items()) + " left-out datasets.", "",
        "## Every feature variant on the dataset left out (Pearson r of the candidate chosen on the other dataset)",
        *variant_lines(variants), "",
        f"## Mean left-out correlation per candidate, features {DEFAULT_VARIANT} (the selection; chosen in bold)",
        *candidate_lines(results), "",
        "## For comparison: simplicity as rated (the definition replaced)",
        f"The raw simplicity label of all three datasets (SimpEval_past: its overall rating), features "
        f"{DEFAULT_VARIANT}, chosen the same way (kept: {as_rated_choice}):", "", *as_rated, "",
        "## SimpEval_2022 (test data, scored once after selection; its only label: simplicity as rated)", *test, "",
        "## Model",
        "Per variant and aspect, the chosen candidate: a ridge regression on the variant's standardised features, "
        "or one of them alone (JSON coefficients in `simpq.json`, zero for unused features). Base features: log "
        "character and word ratios, sentence gain, mean and minimum wordfreq Zipf frequency of the output and their "
        "gains, FKGL of the output and its gain, sentence SARI and BLEU against the references, BLEU against the "
        "source, share of novel words, identical-copy flag. `cescore`: CEScore's SScore, MScore, GScore (used when "
        "simpeval-cescore is installed; `-m simpq:cescore=no` without). `embeddings` (`-m simpq:embeddings=yes`): "
        "MiniLM cosine similarity of the output to its source and the best one to a reference; an option, off by "
        "default, because encoding puts cold scoring far below the 1,000 items/s target (cached rows stay above it). Speed: "
        "[simpq-speed.md](simpq-speed.md); end-to-end fine-tuning of MiniLM: [simpq-finetune.md](simpq-finetune.md).", "",
    ]
    card += heldout_section()
    write_card_and_page(card)
    from learned_heldout import write_cards
    from simpeval.learning.record import update_record
    from simpeval.registry import load_registry

    registry = load_registry()
    update_record(registry.metric_class("simpq"), "trainer", judged_rows(results), COMMAND,
                  [f"Features {DEFAULT_VARIANT}; each aspect's label: " + "; ".join(d[2:] for d in definitions)])
    write_cards(registry)
    print("\n".join(loo_lines(results) + test))


if __name__ == "__main__":
    main()
