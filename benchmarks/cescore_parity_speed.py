"""CEScore: parity with, and speed against, the authors' ``CEScore`` package.

Scores all 1,750 (source, output) pairs of Structural Simplicity (25 systems x 70
sentences) with simpeval-cescore and with the authors' package (run offline: only
its Punkt sentence splitters are replaced, see ``simpeval_cescore.authors``), and
reports the largest absolute difference of S, M, G and CE, and the time of each.
Single process, one thread. NLTK's import (about 1 s, both need it) is timed apart;
"setup" is the rest of importing and loading the lexicons; "cold" starts with empty
per-text caches, "warm" repeats the run in the same process. Scoring times are the
best of ``--repeats`` interleaved runs (default 3), as the machine is shared.

Usage: ``SIMPEVAL_DATA_DIR=../shared/data python benchmarks/cescore_parity_speed.py [--write]``
(``--write``: ``docs/benchmarks/cescore-speed.md``)
"""

from __future__ import annotations

import argparse
import csv
import os
import platform
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from machine import cpu_model, write_report  # noqa: E402

DOC = Path(__file__).resolve().parents[1] / "docs" / "benchmarks" / "cescore-speed.md"


def load_pairs(data_dir: Path) -> tuple[list[str], list[str]]:
    """Sources and outputs of ``metaeval/structural_simplicity.csv`` (UTF-8 with a BOM)."""
    path = data_dir / "metaeval" / "structural_simplicity.csv"
    with path.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    return [row["orig_sent"] for row in rows], [row["simp_sent"] for row in rows]


def timed(function: Callable[[], Any], repeats: int = 1,
          before: Callable[[], None] = lambda: None) -> tuple[Any, float]:
    """The value of ``function()`` and its best time over ``repeats`` runs (``before`` runs untimed first)."""
    best = float("inf")
    for _ in range(repeats):
        before()
        start = time.perf_counter()
        value = function()
        best = min(best, time.perf_counter() - start)
    return value, best


def ours_setup() -> None:
    from simpeval_cescore.lexicons import percent_known, zipf
    from simpeval_cescore.text import word_tokenize

    percent_known(), zipf(), word_tokenize("Warm up. The tokenizers.")


def authors_setup() -> None:
    from CEScore import Functions

    Functions.get_word2fameliralty(), Functions.get_word2Zipf()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="scoring runs to take the best of")
    parser.add_argument("--write", nargs="?", const=str(DOC), default=None, metavar="PAGE")
    args = parser.parse_args()
    repeats = args.repeats
    load_before = os.getloadavg()[0]
    data_dir = Path(os.environ.get("SIMPEVAL_DATA_DIR", "../shared/data"))
    sources, outputs = load_pairs(data_dir)
    n = len(sources)

    _, nltk_import = timed(lambda: __import__("nltk.tokenize"))
    _, ours_setup_s = timed(ours_setup)
    from simpeval.store import StatsStore
    from simpeval_cescore.combine import cescore, clear_caches

    _, authors_setup_s = timed(authors_setup)
    from simpeval_cescore.authors import authors_scores

    store = StatsStore()  # a run's store: what keeps each text's analysis

    def score_all() -> list:
        return [cescore(s, o, store=store) for s, o in zip(sources, outputs)]

    def cold() -> None:
        store.clear()
        clear_caches()

    # Interleaved, best of each, so that load from other processes hits both alike.
    ours_cold = authors_run = float("inf")
    for _ in range(repeats):
        ours, seconds = timed(score_all, before=cold)
        ours_cold = min(ours_cold, seconds)
        theirs, seconds = timed(lambda: authors_scores(sources, outputs))
        authors_run = min(authors_run, seconds)
    _, ours_warm = timed(score_all, repeats)

    lines = [
        f"# Benchmark: CEScore parity and speed, {n} pairs of Structural Simplicity",
        "",
        "Written by `benchmarks/cescore_parity_speed.py --write`; do not edit by hand.",
        "",
        f"- Machine: {os.cpu_count()} CPU cores ({cpu_model()}); Python {platform.python_version()}",
        f"- Date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; 1-minute load average before / after: "
        f"{load_before:.2f} / {os.getloadavg()[0]:.2f}",
        f"- Scoring runs: best of {repeats}, ours and the authors' interleaved; one process, one thread",
        "",
        "| score | max abs diff vs authors |",
        "|---|---|",
    ]
    for k, name in enumerate(("S", "M", "G", "CE")):
        ours_k = [(r.s, r.m, r.g, r.ce)[k] for r in ours]
        diff = max(abs(a - b[k]) for a, b in zip(ours_k, theirs))
        lines.append(f"| {name} | {diff:.3g} |")
    lines += [
        "",
        "| step | simpeval-cescore (s) | authors' CEScore (s) |",
        "|---|---|---|",
        f"| import nltk (shared) | {nltk_import:.2f} | (same) |",
        f"| setup: lexicons, tokenizers | {ours_setup_s:.2f} | {authors_setup_s:.2f} |",
        f"| score {n} pairs, cold | {ours_cold:.2f} | {authors_run:.2f} |",
        f"| score {n} pairs, warm (same process again) | {ours_warm:.2f} | - |",
        f"| setup + cold scoring | {ours_setup_s + ours_cold:.2f} | {authors_setup_s + authors_run:.2f} |",
        "",
        f"Speed-up, cold scoring: **{authors_run / ours_cold:.1f}x**; setup + cold scoring: "
        f"{(authors_setup_s + authors_run) / (ours_setup_s + ours_cold):.1f}x; per pair: "
        f"{1000 * ours_cold / n:.2f} ms vs {1000 * authors_run / n:.2f} ms.",
        "",
    ]
    text = "\n".join(lines)
    if args.write:
        write_report(Path(args.write), text)
    else:
        print(text)


if __name__ == "__main__":
    main()
