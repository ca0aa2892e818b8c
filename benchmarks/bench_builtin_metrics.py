"""Time the built-in EASSE-style metrics: 600 Simplicity-DA outputs x ASSET's 10 references.

Scores bleu, sari, ibleu, fkgl and fkbleu at sentence level, single process, and
reports milliseconds per item for: the first call in the process (imports and
tokenizer/Punkt model loading included); a cold call (libraries loaded, caches
emptied: tokenising and counting included); a call with the texts tokenised but
the per-item statistics recomputed; and a warm call (same process, second time),
for the metric classes directly and through :func:`simpeval.runner.evaluate`. For comparison it
times sacrebleu's ``sentence_score`` once per item, as EASSE does (BLEU against
the references plus BLEU against the source, i.e. the BLEU part of iBLEU).

Usage: ``SIMPEVAL_DATA_DIR=../shared/data python benchmarks/bench_builtin_metrics.py [--preset metaeval-2021]``
prints one preset's table; ``--write docs/benchmarks/builtin-metrics.md`` runs both presets, each in a
fresh process (so "first call" is a real first call), and writes the page, cold figures first, with
machine, date and load average.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

METRICS = ("bleu", "sari", "ibleu", "fkgl", "fkbleu")


def load_inputs(data_dir: Path) -> tuple[list[str], list[str], list[list[str]]]:
    """Sources, outputs and ASSET references of the 600 rated Simplicity-DA outputs."""
    with open(data_dir / "metaeval" / "simplicity_DA.csv", encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    asset = data_dir / "references" / "asset"
    references = [
        (asset / f"asset.test.simp.{i}").read_text(encoding="utf-8").split("\n") for i in range(10)
    ]
    lines = [int(row["sent_id"]) - 1 for row in rows]
    return (
        [row["orig_sent"] for row in rows],
        [row["simp_sent"] for row in rows],
        [[ref[i] for ref in references] for i in lines],
    )


def per_item_ms(function: Callable[[], object], n_items: int) -> float:
    """CPU milliseconds per item: process time, so other jobs on a shared machine count less."""
    start = time.process_time()
    function()
    return 1000 * (time.process_time() - start) / n_items


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def measure(args: argparse.Namespace) -> list[tuple[str, float]]:
    """``(row label, CPU ms per item)`` for one preset, in this (fresh) process."""
    from simpeval.registry import load_registry
    from simpeval.runner import evaluate, resolve_metrics
    from simpeval.run import Run

    sources, outputs, references = load_inputs(Path(args.data_dir))
    n = len(outputs)
    registry = load_registry(autoload=False)
    metrics = [registry.create_metric(name, preset=args.preset) for name in METRICS]
    run = Run()
    run.bind(metrics)
    store = run.store

    def classes() -> None:
        for metric in metrics:
            metric.sentence_scores(sources, outputs, references)

    requests = resolve_metrics(registry, METRICS, preset=args.preset)

    def runner() -> None:
        evaluate(requests, sources, outputs, references, sentence_level=True, corpus_level=False, cache=None,
                 run=run)

    from simpeval.syllables import count_syllables
    from simpeval.text import ngram_counts, split_sentences, tokenized

    def clear_statistics() -> None:
        store.clear(keep=(tokenized, ngram_counts, split_sentences))
        count_syllables.cache_clear()

    def clear_caches() -> None:
        store.clear()
        count_syllables.cache_clear()

    def best(prepare: Callable[[], None], function: Callable[[], object]) -> float:
        """The fastest of ``--repeat`` timings (the machine is shared: the minimum is the least noisy)."""
        timings = []
        for _ in range(args.repeat):
            prepare()
            timings.append(per_item_ms(function, n))
        return min(timings)

    rows = [("first call in the process, metric classes", per_item_ms(classes, n))]
    for label, function in (("metric classes", classes), ("runner.evaluate", runner)):
        rows.append((f"cold (caches emptied), {label}", best(clear_caches, function)))
        rows.append((f"texts tokenised, statistics recomputed, {label}", best(clear_statistics, function)))
        rows.append((f"warm (second call), {label}", best(lambda: None, function)))

    import sacrebleu

    oracle = sacrebleu.metrics.BLEU(tokenize="13a", smooth_method="floor", effective_order=True)

    def sacrebleu_per_sentence() -> None:
        for source, output, refs in zip(sources, outputs, references):
            oracle.sentence_score(output, refs)
            oracle.sentence_score(output, [source])

    rows.append(("EASSE-like: sacrebleu sentence_score per item, BLEU + iBLEU's BLEU only",
                 best(lambda: None, sacrebleu_per_sentence)))
    return rows


def machine() -> str:
    return f"`nproc` = {os.cpu_count()}, CPU \"{cpu_model()}\" (/proc/cpuinfo), Python {platform.python_version()}"


def load_average() -> str:
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "unknown"


def page(results: dict[str, list[tuple[str, float]]], load_before: str, date: str, sacrebleu_version: str) -> str:
    """The page, cold figures first; every number comes from ``results``."""
    default, paper = (dict(results[k]) for k in ("default", "metaeval-2021"))
    first, cold = "first call in the process, metric classes", "cold (caches emptied), metric classes"
    warm, recomputed = "warm (second call), metric classes", "texts tokenised, statistics recomputed, metric classes"
    easse = "EASSE-like: sacrebleu sentence_score per item, BLEU + iBLEU's BLEU only"
    n = 600
    lines = [
        "# Benchmark: built-in EASSE-style metrics",
        "",
        "Generated by `benchmarks/bench_builtin_metrics.py --write docs/benchmarks/builtin-metrics.md`: every "
        "number on this page is measured by that run.",
        "",
        f"What: the {n} rated outputs of Simplicity-DA scored against ASSET's 10 references with "
        f"{', '.join(f'`{m}`' for m in METRICS)} at sentence level, in one process per preset.",
        "",
        f"**First run (cold):** a fresh process spends **{default[first]:.3f} ms per item** with the default "
        f"settings and **{paper[first]:.3f} ms** with `--preset metaeval-2021` (imports, tokenizer and Punkt "
        f"loading included: {default[first] * n / 1000:.2f} s and {paper[first] * n / 1000:.2f} s for the {n} "
        f"items). With the libraries loaded but every cache emptied it is **{default[cold]:.3f}** and "
        f"**{paper[cold]:.3f} ms**. Only a second scoring of the same texts in the same process is warm: "
        f"{default[warm]:.3f} and {paper[warm]:.3f} ms per item.",
        "",
        "Command (one fresh process per preset, `OMP_NUM_THREADS=1`):",
        "",
        "```",
        "SIMPEVAL_DATA_DIR=../shared/data python benchmarks/bench_builtin_metrics.py --write docs/benchmarks/builtin-metrics.md",
        "```",
        "",
        f"Machine: {machine()}, sacrebleu {sacrebleu_version}; load average {load_before} before the run "
        "(a shared machine). Times are CPU (process) time; each row but the first is the fastest of 3 runs.",
        f"Date: {date} UTC.",
        "",
        "Rows: *first call* includes loading the tokenizers and the Punkt model; *cold* empties every cache "
        "first (tokens, n-gram counts, syllable counts and per-item statistics); *statistics recomputed* keeps "
        "the tokenised texts, n-gram counts and sentence splits and empties every other cache, so the per-item "
        "BLEU, SARI, FKGL and syllable statistics are computed again (what a new metric setting costs); *warm* "
        "is the second call in the same process. The last row times sacrebleu's `sentence_score` once per item "
        "for BLEU against the references and once against the source (the BLEU part of EASSE-style iBLEU only; "
        "no SARI).",
        "",
        "| CPU ms per item | default preset | metaeval-2021 |",
        "|---|---|---|",
    ]
    for label, _ in results["default"]:
        bold = label in (first, cold)
        cell = (lambda v: f"**{v:.3f}**") if bold else (lambda v: f"{v:.3f}")
        name = label.replace("runner.evaluate", "`runner.evaluate`").replace(
            "sacrebleu sentence_score per item", "sacrebleu `sentence_score` x 2 per item")
        lines.append(f"| {f'**{name}**' if bold else name} | {cell(default[label])} | {cell(paper[label])} |")
    lines += [
        "",
        f"Reading: a cold start costs {default[cold]:.3f} ms per item with the default 13a tokenizer and "
        f"{paper[cold]:.3f} ms with metaeval-2021's Moses tokenizer: tokenising and counting the references "
        "dominates, and it is paid once per text per process. Recomputing every per-item statistic from texts "
        f"already tokenised costs {default[recomputed]:.3f} ms per item. sacrebleu per sentence costs "
        f"{default[easse]:.3f} ms per item for the two BLEUs alone, every time: {default[easse] / default[cold]:.2f} "
        f"times our cold cost and {default[easse] / default[warm]:.0f} times our warm cost, both for all five metrics.",
    ]
    return "\n".join(lines) + "\n"


def write_page(args: argparse.Namespace) -> None:
    """Run each preset in a fresh process (``--json``) and write the page."""
    import sacrebleu

    load_before = load_average()
    results = {}
    for preset in ("default", "metaeval-2021"):
        command = [sys.executable, __file__, "--json", "--data-dir", args.data_dir, "--repeat", str(args.repeat)]
        if preset != "default":
            command += ["--preset", preset]
        done = subprocess.run(command, check=True, capture_output=True, text=True,
                              env={**os.environ, "OMP_NUM_THREADS": "1"})
        results[preset] = [tuple(row) for row in json.loads(done.stdout)]
    date = f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M}"
    args.write.write_text(page(results, load_before, date, sacrebleu.__version__), encoding="utf-8")
    print(f"wrote {args.write}", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=os.environ.get("SIMPEVAL_DATA_DIR", "../shared/data"))
    parser.add_argument("--preset", default=None, help="e.g. metaeval-2021 (default: EASSE defaults)")
    parser.add_argument("--repeat", type=int, default=3, help="timings per row; the fastest is reported")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON (what --write reads)")
    parser.add_argument("--write", type=Path, default=None, metavar="MD", help="run both presets and write the page")
    args = parser.parse_args()
    if args.write is not None:
        write_page(args)
        return
    rows = measure(args)
    if args.json:
        print(json.dumps(rows))
        return
    print(f"date (UTC): {datetime.now(timezone.utc):%Y-%m-%d %H:%M}")
    print(f"machine: {machine()}")
    print(f"metrics: {', '.join(METRICS)}; preset: {args.preset or 'default'}")
    print("| what | CPU ms/item |")
    print("|---|---|")
    for label, ms in rows:
        print(f"| {label} | {ms:.3f} |")


if __name__ == "__main__":
    main()
