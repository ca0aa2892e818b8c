"""simpq's embedding features from a larger encoder: all-mpnet-base-v2 against MiniLM, judged leave-one-dataset-out.

    nice -n 15 python benchmarks/simpq_encoders.py [--feature-cache /tmp/simpq-features.npz] [--recompute]

Needs the ``mpnet`` extra (``pip install -e 'plugins/simpeval-simpq[mpnet]'``). On simplicity-da and
structural-simplicity, per aspect, simpq's own selection (:func:`simpeval_simpq.training.train_aspect`:
a ridge per penalty or one feature alone, chosen by the mean left-out correlation; no fold fits on the
items the two datasets share) for the features without embeddings, and for them with the two embedding
columns (cosine of the output to its source and to its best reference) computed by MiniLM and by mpnet,
beside the best baseline. Encoding cost per encoder and dataset on 1 torch thread: the distinct texts
encoded, seconds (model loading left out), texts and items per second, and ``os.getloadavg()`` after
encoding. Each encoder's columns are kept under simpeval's cache directory keyed by the model's content
and the texts, so a rerun reads them back with the cost measured when they were computed (``--recompute``
encodes again). Writes ``docs/reproduced/simpq-encoders.md``. Each fold's baseline is the one judge's
(:mod:`simpeval.learning.verdict`): the strongest of every non-learned registry metric and sub-score on the
left-out dataset's items and labels, as in ``docs/reproduced/simpq.md``. ``--rejudge`` computes those
baselines again and rewrites the page's baseline column alone, without encoding or training.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
PAGE = ROOT / "docs" / "reproduced" / "simpq-encoders.md"
COMMAND = "nice -n 15 python benchmarks/simpq_encoders.py"
THREADS = 1
ASPECTS = ("simplicity", "meaning", "fluency")


@dataclass(frozen=True)
class Cost:
    """What encoding one dataset's texts took (model loading left out)."""

    texts: int
    items: int
    seconds: float
    load: tuple[float, float, float]
    measured: str


def encoders() -> dict[str, str]:
    """Label -> local model directory of each encoder compared."""
    from simpeval import models
    from simpeval_simpq import mpnet

    return {"MiniLM": models.resolve_encoder(models.DEFAULT_ENCODER, "simpq"), "mpnet": str(mpnet.model_dir())}


def embedding_columns(rated, label: str, encoder: str, recompute: bool) -> tuple[np.ndarray, Cost]:
    """``rated``'s two embedding columns under ``encoder`` and what computing them cost, from the cache
    when it holds them for this model's content and these texts."""
    from simpeval.cache import default_cache_dir, input_key
    from simpeval.models import fingerprint
    from simpeval.run import Run
    from simpeval_simpq.embeddings import MAX_LENGTH, similarities, text_encoder

    assert all(rated.references), "every item has references (else simpq's features read none for the dataset)"
    signature = f"simpq-embeddings|{fingerprint(encoder, 'encoder', label=label)}|max_length:{MAX_LENGTH}"
    key = input_key(signature, "rows", rated.sources, rated.outputs, rated.references)
    path = default_cache_dir() / "simpq-encoders" / f"{key}.npz"
    if path.is_file() and not recompute:
        kept = np.load(path)
        return kept["rows"], Cost(int(kept["texts"]), len(rated), float(kept["seconds"]), tuple(kept["load"]),
                                  str(kept["measured"]))
    with Run() as run:
        model = text_encoder(run, encoder)  # loaded here, so the timing below is encoding only
        started = time.perf_counter()
        rows = similarities(rated.sources, rated.outputs, rated.references, run, encoder)
        cost = Cost(model.encoded, len(rated), time.perf_counter() - started, os.getloadavg(),
                    f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC")
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".tmp", delete=False) as handle:
        np.savez(handle, rows=rows, texts=cost.texts, seconds=cost.seconds, load=cost.load, measured=cost.measured)
    os.replace(handle.name, path)
    return rows, cost


def mean_lines(results) -> list[str]:
    """Per aspect, each variant's mean left-out r over the datasets (what selection maximises)."""
    from simpeval.learning.loo import mean_r

    lines = ["| aspect | " + " | ".join(results) + " |", "|---|" + "---|" * len(results)]
    for aspect in ASPECTS:
        lines.append(f"| {aspect} | " + " | ".join(f"{mean_r(v[aspect].kept_folds):+.3f}" for v in results.values())
                     + " |")
    return lines


def cost_lines(directories: dict[str, str], costs: dict[str, dict[str, Cost]]) -> list[str]:
    """Per encoder and dataset: its size (from its config), texts encoded, seconds, rates, load, and when."""
    lines = ["| encoder | layers x hidden | dataset | texts encoded | seconds | texts/s | items | items/s | "
             "load average (1, 5, 15 min) | measured |", "|---|---|---|---|---|---|---|---|---|---|"]
    for label, per_set in costs.items():
        config = json.loads((Path(directories[label]) / "config.json").read_text(encoding="utf-8"))
        for name, c in per_set.items():
            size = f"{config['num_hidden_layers']} x {config['hidden_size']}"
            lines.append(f"| {label} | {size} | {name} | {c.texts:,} | {c.seconds:,.1f} | "
                         f"{c.texts / c.seconds:,.1f} | {c.items:,} | {c.items / c.seconds:,.1f} | "
                         f"{', '.join(f'{v:.1f}' for v in c.load)} | {c.measured} |")
    return lines


BASELINE_HEADER = "strongest baseline abs(r)"  # simpq_train.variant_lines's last column
REJUDGED = (f" Its baseline column was judged again by `{COMMAND} --rejudge`: every registry baseline computed anew "
            "on the left-out dataset's items and labels; the r of the variants are the run's below.")


def strongest_baselines() -> dict[tuple[str, str], tuple[str, float]]:
    """(aspect, left-out dataset) -> the judge's strongest baseline there and its |r|, computed now."""
    from simpeval.datadir import resolve_data_dir
    from simpeval.learning.rated import load_rated
    from simpeval.learning.verdict import pearson, strongest
    from simpeval_simpq.training import DATASETS, aspect_labels, rated_baselines

    sets = load_rated(resolve_data_dir(None), list(DATASETS))
    baselines = rated_baselines(sets)
    return {(aspect, rated.name): strongest({k: pearson(v, labels) for k, v in baselines[rated.name].items()})
            for aspect in ASPECTS for rated, labels in aspect_labels(sets, aspect)}


def rejudged_page(text: str, strongest: dict[tuple[str, str], tuple[str, float]]) -> str:
    """``text`` with the last column of its left-out table (``| aspect | left out | ... |``) set to ``strongest``."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| aspect | left out |"):
            lines[i] = "| " + " | ".join([*cells[:-1], BASELINE_HEADER]) + " |"
        elif line.startswith("|") and (cells[0], cells[1]) in strongest:
            name, value = strongest[cells[0], cells[1]]
            lines[i] = "| " + " | ".join([*cells[:-1], f"{name} {value:.3f}"]) + " |"
    text = "\n".join(lines) + ("\n" if text.endswith("\n") else "")
    return text if REJUDGED in text else text.replace("by hand.", "by hand." + REJUDGED, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--feature-cache", type=Path, default=None, help="an .npz of the features without embeddings")
    parser.add_argument("--recompute", action="store_true", help="encode again instead of reading the cached columns")
    parser.add_argument("--rejudge", action="store_true", help="rewrite the page's baseline column only")
    args = parser.parse_args()
    if args.rejudge:
        PAGE.write_text(rejudged_page(PAGE.read_text(encoding="utf-8"), strongest_baselines()), encoding="utf-8")
        return
    os.environ.setdefault("OPENBLAS_NUM_THREADS", str(THREADS))
    import torch

    from machine import machine_lines, write_report
    from simpeval.datadir import resolve_data_dir
    from simpeval.learning.loo import mean_r
    from simpeval.learning.rated import load_rated
    from simpeval_simpq.embeddings import MAX_LENGTH
    from simpeval_simpq.model import variant_key
    from simpeval_simpq.mpnet import PARTS, WHEEL
    from simpeval_simpq.training import DATASETS, available_groups, featurize, rated_baselines, train_aspect
    from simpq_train import variant_lines

    torch.set_num_threads(THREADS)
    sets = load_rated(resolve_data_dir(None), list(DATASETS))
    plain = tuple(g for g in available_groups() if g != "embeddings")
    with_embeddings = (*plain, "embeddings")
    base = featurize(sets, args.feature_cache, plain, log=print)
    directories = encoders()
    variants = {variant_key(plain): (base, plain)}
    costs: dict[str, dict[str, Cost]] = {}
    for label, directory in directories.items():
        computed = {rated.name: embedding_columns(rated, label, directory, args.recompute) for rated in sets}
        costs[label] = {name: cost for name, (_, cost) in computed.items()}
        matrices = {name: np.hstack([base[name], rows]) for name, (rows, _) in computed.items()}
        variants[f"{variant_key(with_embeddings)} ({label})"] = (matrices, with_embeddings)
    baselines = rated_baselines(sets)
    results = {key: {aspect: train_aspect(aspect, sets, matrices, groups, groups, baselines=baselines)
                     for aspect in ASPECTS}
               for key, (matrices, groups) in variants.items()}
    minilm, larger = (results[f"{variant_key(with_embeddings)} ({label})"] for label in directories)
    gains = ", ".join(f"{a} {mean_r(larger[a].kept_folds) - mean_r(minilm[a].kept_folds):+.3f}" for a in ASPECTS)
    write_report(PAGE, "\n".join([
        "# simpq: MiniLM or all-mpnet-base-v2 for the embedding features", "",
        f"Written by `benchmarks/simpq_encoders.py` (`{COMMAND}`); do not edit by hand.", "",
        *machine_lines(), f"- torch threads: {THREADS}", "",
        f"Trained on {', '.join(DATASETS)}, each aspect's labels as in [simpq.md](simpq.md). Each r is that of the "
        "candidate simpq's selection chooses on the *other* dataset for the variant (a ridge per penalty or one "
        "feature alone, by its left-out r there; no fold fits on the items the datasets share); the means below are "
        "those of the candidate kept for shipping (the best mean left-out r). The embedding columns are the cosine of the "
        f"output to its source and to its best reference, mean-pooled last layer, texts cut at {MAX_LENGTH} tokens. "
        f"mpnet: all-mpnet-base-v2 from the {PARTS} wheels `{WHEEL.format(1)}` .. `{WHEEL.format(PARTS)}` "
        "(`simpeval_simpq.mpnet`).", "",
        "## Pearson r on the dataset left out", *variant_lines(results), "",
        f"## Mean left-out r over the {len(DATASETS)} datasets of the kept candidate (the selection criterion)",
        *mean_lines(results), "",
        f"mpnet minus MiniLM, mean left-out r: {gains}.", "",
        f"## Encoding cost on {THREADS} torch thread (model loading left out)", *cost_lines(directories, costs), "",
        "Texts encoded: the distinct sources, outputs and references of the dataset. A row measured before this "
        "page was written was read back from the cache (the model's content and the texts are its key).", "",
    ]))


if __name__ == "__main__":
    main()
