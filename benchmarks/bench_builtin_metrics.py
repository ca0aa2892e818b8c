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
"""

from __future__ import annotations

import argparse
import csv
import os
import platform
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=os.environ.get("SIMPEVAL_DATA_DIR", "../shared/data"))
    parser.add_argument("--preset", default=None, help="e.g. metaeval-2021 (default: EASSE defaults)")
    parser.add_argument("--repeat", type=int, default=3, help="timings per row; the fastest is reported")
    args = parser.parse_args()

    from simpeval.registry import load_registry
    from simpeval.runner import evaluate, resolve_metrics
    from simpeval.store import StatsStore

    sources, outputs, references = load_inputs(Path(args.data_dir))
    n = len(outputs)
    registry = load_registry(autoload=False)
    metrics = [registry.create_metric(name, preset=args.preset) for name in METRICS]
    store = StatsStore()
    for metric in metrics:
        metric.bind_store(store)

    def classes() -> None:
        for metric in metrics:
            metric.score_sentences(sources, outputs, references)

    requests = resolve_metrics(registry, METRICS, preset=args.preset)

    def runner() -> None:
        evaluate(requests, sources, outputs, references, sentence_level=True, corpus_level=False, cache=None,
                 store=store)

    from simpeval.syllables import count_syllables
    from simpeval.text import ngram_counts, split_sentences, tokenize

    def clear_statistics() -> None:
        store.clear(keep=(tokenize, ngram_counts, split_sentences))
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

    print(f"date (UTC): {datetime.now(timezone.utc):%Y-%m-%d %H:%M}")
    print(f"machine: nproc={os.cpu_count()}, CPU: {cpu_model()}, Python {platform.python_version()}")
    print(f"items: {n} outputs x {len(references[0])} references; metrics: {', '.join(METRICS)}; "
          f"preset: {args.preset or 'default'}")
    print("| what | CPU ms/item |")
    print("|---|---|")
    for label, ms in rows:
        print(f"| {label} | {ms:.3f} |")


if __name__ == "__main__":
    main()
