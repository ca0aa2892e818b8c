"""Every shipped learned metric on the rated datasets it never saw, beside FKGL, compression ratio and SARI.

    nice -n 10 python benchmarks/learned_heldout.py [--headlines-only]

For each metric (``lens-mini``, ``lens-cla-mini``: SimpEval_past; ``siera``: ASSET-valid pairs;
``sle-delta``: OneStopEnglish; ``simpq``: Simplicity-DA and Structural Simplicity) and each rated
dataset outside its ``trained_on`` (SimpEval_2022 included: these models were never selected on
it), Pearson r with the dataset's simplicity label (z-scored per dataset), next to the three
baselines. A dataset outside ``trained_on`` can still share items with one inside it (Simplicity-DA
has 63 of its 600 (source, output) pairs in SimpEval_past): those items are counted and the
correlations are given again without them, the metric's and the baselines'. An item a metric leaves undefined (NaN: ``sle-delta`` of an empty output, which has no
sentence to read) is left out of that metric's correlation, and the table says how many items
were scored. Writes ``docs/reproduced/learned-heldout.md``
and a ``## Headline`` section into each metric's model card (what ``simpeval metrics show`` prints).
"""

from __future__ import annotations

import argparse
import os
import re
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "reproduced" / "learned-heldout.md"
COMMAND = "nice -n 10 python benchmarks/learned_heldout.py"
DATASETS = ("simplicity-da", "structural-simplicity", "simpeval-past", "simpeval-2022")


def metrics():
    from simpeval_lens.plugin import LensClaMini, LensMini
    from simpeval_siera.plugin import Siera
    from simpeval_simpq.plugin import Simpq
    from simpeval_sle.plugin import SleDelta

    return [LensMini(), LensClaMini(), Siera(), SleDelta(), Simpq()]


def correlation(scores, labels) -> tuple[float, int]:
    """Pearson r over the items the metric scored (its NaN items left out), and how many those are."""
    from simpeval.learning.loo import pearson

    scores = np.asarray(scores, float)
    return pearson(scores, labels), int(np.isfinite(scores).sum())


def unseen(metric, sources, outputs, data_dir: Path) -> tuple[np.ndarray, list[str]]:
    """Which items share no (source, output) pair with the metric's training data
    (:mod:`simpeval.leaderboard.overlap`, as the leaderboard marks them), and the training
    datasets that could not be read (their overlap unknown)."""
    from simpeval.itemkeys import pair_keys
    from simpeval.leaderboard.overlap import training_items
    from simpeval.learning import loo
    from simpeval.registry import load_registry

    registry = load_registry()
    seen, unknown = set(), []
    for name in metric.trained_on:
        items = training_items(registry, data_dir, name)
        if items is None:
            unknown.append(name)
        else:
            seen.update(items.pairs)
    return loo.unseen(pair_keys(sources, outputs), seen), unknown


def rated(data_dir: Path, name: str):
    """Sources, outputs, references and z-scored simplicity labels (SimpEval_past without its ASSET-reference systems)."""
    from simpeval.datasets.lens import SimpEval2022
    from simpeval.learning.rated import load_rated, zscore

    if name == "simpeval-2022":
        dataset = SimpEval2022(data_dir)
        return ([i.source for i in dataset.items], [i.output for i in dataset.items], dataset.references(),
                zscore(np.asarray(dataset.human_scores("simplicity"), float)))
    (data,) = load_rated(data_dir, [name])
    return list(data.sources), list(data.outputs), [list(r) for r in data.references], data.labels["simplicity"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--headlines-only", action="store_true",
                        help="rewrite the model cards' headlines from the recorded page, without scoring")
    if parser.parse_args().headlines_only:
        write_headlines(headlines_from_page())
        return
    from simpeval.datadir import resolve_data_dir
    from simpeval.learning.loo import pearson
    from simpeval.run import Run
    from simpeval_simpq.features import baseline_scores, features

    data_dir = resolve_data_dir(None)
    rows, headline = [], {}
    unknown = set()
    for name in DATASETS:
        sources, outputs, references, labels = rated(data_dir, name)
        scores = baseline_scores(features(sources, outputs, references, Run()))
        base = {k: pearson(v, labels) for k, v in scores.items()}
        best = max(base, key=lambda k: abs(base[k]))
        for metric in metrics():
            if name in metric.trained_on:
                continue
            values = np.asarray(metric.sentence_scores(sources, outputs, references)[metric.name], float)
            r, scored = correlation(values, labels)
            n = f"{len(labels)}" if scored == len(labels) else f"{scored} of {len(labels)}"
            keep, missing = unseen(metric, sources, outputs, data_dir)
            unknown.update(missing)
            shared = int((~keep).sum())
            if shared:
                r_unseen = correlation(values[keep], labels[keep])[0]
                base_unseen = {k: pearson(np.asarray(v)[keep], labels[keep]) for k, v in scores.items()}
                best_unseen = max(base_unseen, key=lambda k: abs(base_unseen[k]))
                without = f"{r_unseen:+.3f} | {best_unseen} {abs(base_unseen[best_unseen]):.3f}"
            else:
                without = "= r | ="
            rows.append(f"| {metric.name} | {name} | {n} | {r:+.3f} | {base['fkgl']:+.3f} | "
                        f"{base['compression']:+.3f} | {base['sari']:+.3f} | {best} {abs(base[best]):.3f} | "
                        f"{'yes' if abs(r) >= abs(base[best]) else f'no ({abs(r) - abs(base[best]):+.3f})'} | "
                        f"{shared} | {without} |")
            headline.setdefault(metric.name, []).append(f"{name} r {r:+.2f} (best baseline {best} {base[best]:+.2f})")
    table = ["| metric | dataset (not in its trained_on) | n | r | FKGL r | compression r | SARI r | best baseline "
             "| metric >= best? | items shared with its training data | r without them | best baseline without them |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|", *rows]
    unread = (f" The training data of {', '.join(sorted(unknown))} cannot be read here, so no item is counted as "
              "shared with it." if unknown else "")
    PAGE.write_text("\n".join([
        "# Learned metrics on data they never saw", "",
        f"Written by `benchmarks/learned_heldout.py` (`{COMMAND}`); do not edit by hand.", "",
        "Pearson r with each dataset's simplicity label (z-scored per dataset; SimpEval_past: its overall rating, "
        "without the two ASSET-reference systems) of the shipped checkpoints, on every rated dataset outside the "
        "metric's `trained_on`, beside the simple baselines on the same items. n: the items scored (`sle-delta` has "
        "no score for an empty output: it has no sentence to read; such items are left out of its correlation). "
        "Items shared with the metric's training data are (source, output) pairs (compared by their letters and "
        "digits, case folded: the datasets tokenise and truecase shared outputs differently) also in a "
        "dataset of its `trained_on` (as the leaderboard marks them): the last three columns repeat the metric's r "
        f"and the best baseline without those items.{unread} "
        "simpq's own leave-one-dataset-out table: [simpq.md](simpq.md).", "", *table, "",
        f"Load average at the end: {os.getloadavg()[0]:.1f}.", ""]), encoding="utf-8")
    write_headlines(headline)
    print("\n".join(table))


def headlines_from_page() -> dict[str, list[str]]:
    """The headline cells, read back from the table the last full run wrote."""
    cells: dict[str, list[str]] = {}
    for line in PAGE.read_text(encoding="utf-8").splitlines():
        parts = [p.strip() for p in line.strip("|").split("|")]
        if len(parts) != 12 or not parts[2].split()[0].isdigit():
            continue
        metric, dataset, r, best = parts[0], parts[1], parts[3], parts[7].split()
        signed = dict(zip(("fkgl", "compression", "sari"), parts[4:7]))[best[0]]
        cells.setdefault(metric, []).append(f"{dataset} r {float(r):+.2f} (best baseline {best[0]} {float(signed):+.2f})")
    return cells


def write_headlines(cells: dict[str, list[str]]) -> None:
    for metric in metrics():
        if metric.name in cells:
            write_headline(Path(metric.model_card or ""), metric, cells[metric.name])


def write_headline(card: Path, metric, cells: list[str]) -> None:
    """Replace (or add) the card's ``## Headline`` section for this metric."""
    if not card.is_file():
        return
    text = card.read_text(encoding="utf-8")
    marker = f"## Headline ({metric.name})"
    section = (f"{marker}\n- Trained on: {', '.join(metric.trained_on)}; on rated data it never saw "
               f"(`benchmarks/learned_heldout.py`): " + "; ".join(cells) + ".\n")
    pattern = re.compile(rf"^{re.escape(marker)}\n(?:- .*\n)*", re.M)
    text = pattern.sub(section, text) if pattern.search(text) else text.rstrip("\n") + "\n\n" + section
    card.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
