"""simpq's speed on 2 CPU threads, per feature variant: features computed cold, and read back from the run's store.

    nice -n 10 python benchmarks/simpq_speed.py

Structural Simplicity's 1,750 outputs with their 4 references. "Cold": a fresh
:class:`~simpeval.run.Run` (models and wordfreq already loaded by scoring five other items, so
loading is not counted), every feature computed. "Cached": the same items scored again in that run,
each item's feature row read back from the run's store. Best of 3 for each; CPU seconds of the
process (all threads) beside the wall clock, with the machine and its load average, since the
machine is shared. Writes ``docs/reproduced/simpq-speed.md``.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
PAGE = ROOT / "docs" / "reproduced" / "simpq-speed.md"
COMMAND = "nice -n 10 python benchmarks/simpq_speed.py"
THREADS = 2
TARGET = 1_000
VARIANTS = ({"cescore": "no"}, {"cescore": "yes"}, {"cescore": "no", "embeddings": True},
            {"cescore": "yes", "embeddings": True})


def timed(function) -> tuple[float, float]:
    start, start_cpu = time.perf_counter(), time.process_time()
    function()
    return time.perf_counter() - start, time.process_time() - start_cpu


def measure(settings: dict, texts, warm_texts, repeats: int = 3) -> tuple[float, float, float, float]:
    """Best (wall, cpu) seconds of a cold and of a cached scoring of ``texts``."""
    from simpeval.run import Run
    from simpeval_simpq.plugin import Simpq

    cold, cached = (float("inf"),) * 2, (float("inf"),) * 2
    for _ in range(repeats):
        with Run() as run:
            metric = Simpq(**settings)
            metric.bind_run(run)
            metric.sentence_scores(*warm_texts)
            cold = min(cold, timed(lambda: metric.sentence_scores(*texts)))
            cached = min(cached, timed(lambda: metric.sentence_scores(*texts)))
    return (*cold, *cached)


def main() -> None:
    os.environ.setdefault("OPENBLAS_NUM_THREADS", str(THREADS))
    import torch

    from machine import load_average, machine_lines, write_report
    from simpeval.datadir import resolve_data_dir
    from simpeval.datasets.metaeval import SimplicityDA, StructuralSimplicity
    from simpeval_simpq.model import variant_key

    torch.set_num_threads(THREADS)
    data_dir = resolve_data_dir(None)
    dataset = StructuralSimplicity(data_dir)
    texts = ([i.source for i in dataset.items], [i.output for i in dataset.items], dataset.references())
    other = SimplicityDA(data_dir)
    warm = ([i.source for i in other.items[-5:]], [i.output for i in other.items[-5:]], other.references()[-5:])
    n = len(texts[1])
    rows, loads = [], []
    for settings in VARIANTS:
        key = variant_key(("base", *(("cescore",) if settings["cescore"] == "yes" else ()),
                           *(("embeddings",) if settings.get("embeddings") else ())))
        cold_wall, cold_cpu, cached_wall, cached_cpu = measure(settings, texts, warm)
        loads.append(load_average())
        option = ",".join(f"{k}={'yes' if v is True else v}" for k, v in settings.items())
        rows.append(f"| {key} | `-m simpq:{option}` | {n / cold_wall:,.0f} | {n / cold_cpu:,.0f} | "
                    f"{n / cached_wall:,.0f} | {n / cached_cpu:,.0f} | "
                    f"{'yes' if n / cold_wall >= TARGET else 'no'} / {'yes' if n / cached_wall >= TARGET else 'no'} |")
    write_report(PAGE, "\n".join([
        "# simpq: items per second on 2 CPU threads", "",
        f"Written by `benchmarks/simpq_speed.py` (`{COMMAND}`); do not edit by hand.", "",
        *machine_lines(), f"- Load average (1 min) after each variant: {', '.join(f'{x:.1f}' for x in loads)} "
        f"(a shared machine: wall-clock figures fall with the load, CPU-second figures much less)",
        f"- {n:,} Structural Simplicity outputs with 4 references; torch and BLAS limited to {THREADS} threads; "
        "best of 3; models loaded before timing", "",
        "| features | option | cold items/s (wall) | cold items/CPU s | cached items/s (wall) | cached items/CPU s | "
        f">= {TARGET:,} items/s wall (cold / cached)? |", "|---|---|---|---|---|---|---|", *rows, "",
        "Cold: a fresh run, every feature computed (per-text statistics shared within the call). Cached: the "
        "same items again in that run, each item's features read from the run's store (`simpeval.run.Run.store`).",
        "",
    ]) + "\n")


if __name__ == "__main__":
    main()
