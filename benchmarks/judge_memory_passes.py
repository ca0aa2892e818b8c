"""Memory: what the judge's peak RSS is made of, forward pass by forward pass.

``bench_memory.py`` measures a whole ``simpeval evaluate -m judge`` process (``ru_maxrss``); this runs the same
command in-process on the same ``asset-valid`` items (``bench_memory.write_items``), one thread, the same 32 MB
budget, and around every forward pass of the judge records:

- *baseline*: the resident memory before the pass (``VmRSS``: what the run holds between passes, the model's
  weights included once the first pass has read them);
- *peak*: the resident high-water mark of that pass alone (``VmHWM`` after resetting it with
  ``/proc/self/clear_refs``), so *peak - baseline* is what the pass itself adds (its activations and logits,
  and the freed pages of the C heap it touches again);
- the pass's shape (prompts x tokens), CPU seconds and glibc's heap (``mallinfo2``: in use, free).

Resetting the high-water mark makes the process's own ``ru_maxrss`` meaningless, so the run's peak here is the
largest of the passes' peaks and the high-water mark before the first pass (loading). ``--env NAME=VALUE``
runs the child with that variable (e.g. ``MALLOC_MMAP_THRESHOLD_=131072``: glibc's fixed mmap threshold instead of
its dynamic one, to tell the heap's fragmentation from the pass's live memory); ``--tokens-per-pass 0`` measures
the judge without its bound on a CPU pass's tokens. Rows accumulate in
``results/judge-memory-passes.json``; ``bench_memory.py --write`` summarises them on the memory page.

Usage::

    SIMPEVAL_DATA_DIR=../shared/data nice -n 10 python benchmarks/judge_memory_passes.py --items 400
    SIMPEVAL_DATA_DIR=../shared/data nice -n 10 python benchmarks/judge_memory_passes.py --items 400 \\
        --env MALLOC_MMAP_THRESHOLD_=131072 --label "fixed mmap threshold"
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "judge-memory-passes.json"


class _Mallinfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                                                     "fsmblks", "uordblks", "fordblks", "keepcost")]


def _status() -> dict[str, float]:
    """``VmRSS``, ``VmHWM`` and ``RssAnon`` of this process, in MB."""
    fields = {}
    with open("/proc/self/status", encoding="ascii") as lines:
        for line in lines:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM", "RssAnon"):
                fields[key] = int(value.split()[0]) / 1024
    return fields


def _reset_high_water_mark() -> None:
    with open("/proc/self/clear_refs", "w", encoding="ascii") as handle:
        handle.write("5")


def child(n: int, data_dir: Path, out: Path, tokens_per_pass: int | None) -> None:
    """The instrumented run of ``simpeval evaluate -m judge`` on ``n`` items; its passes written to ``out``."""
    sys.path.insert(0, str(HERE))
    import bench_memory
    from bench_scale import evaluate_command

    libc = ctypes.CDLL(None)
    libc.mallinfo2.restype = _Mallinfo2
    from simpeval_judge import scoring

    passes: list[dict] = []
    loading = {}
    reader = scoring.last_token_reader

    def instrumented(ids):
        forward = reader(ids)

        def measured(model, batch):
            before, heap = _status(), libc.mallinfo2()
            if not passes:
                loading.update(before)
            _reset_high_water_mark()
            start = time.process_time()
            result = forward(model, batch)
            passes.append({"rows": int(batch["input_ids"].shape[0]), "tokens": int(batch["input_ids"].shape[1]),
                           "baseline_mb": before["VmRSS"], "anon_mb": before["RssAnon"], "peak_mb": _status()["VmHWM"],
                           "heap_in_use_mb": heap.uordblks / 2**20, "heap_free_mb": heap.fordblks / 2**20,
                           "cpu_s": time.process_time() - start})
            return result

        return measured

    scoring.last_token_reader = instrumented
    if tokens_per_pass is not None:  # 0: no bound on the tokens of a pass (the judge before it had one)
        scoring.CPU_TOKENS_PER_PASS = tokens_per_pass or None
    with tempfile.TemporaryDirectory(prefix="simpeval-judge-passes-") as tmp:
        folder = Path(tmp)
        paths = bench_memory.write_items(data_dir, n, folder)
        command = evaluate_command(paths, "judge", [], folder / "out.csv")
        sys.argv = ["simpeval", *command[command.index("evaluate"):]]
        from simpeval.cli import main

        try:
            main()
        except SystemExit as stop:
            if stop.code:
                raise
    out.write_text(json.dumps({"passes": passes, "loading_peak_mb": loading.get("VmHWM", 0.0)}) + "\n")


def summary(passes: list[dict], loading_peak_mb: float) -> dict:
    """The run's peak, its largest pass (by peak) and the baseline's growth after the first pass."""
    top = max(passes, key=lambda p: p["peak_mb"])
    later = passes[1:] or passes  # the first pass reads the weights in: its baseline is before that
    return {"passes": len(passes), "peak_mb": max(top["peak_mb"], loading_peak_mb),
            "top_pass": f"{top['rows']} x {top['tokens']}", "top_transient_mb": top["peak_mb"] - top["baseline_mb"],
            "top_baseline_mb": top["baseline_mb"],
            "baseline_first_mb": later[0]["baseline_mb"], "baseline_last_mb": later[-1]["baseline_mb"],
            "baseline_max_mb": max(p["baseline_mb"] for p in later),
            "passes_cpu_s": sum(p["cpu_s"] for p in passes)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=400)
    parser.add_argument("--label", default="default")
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE for the measured process")
    parser.add_argument("--tokens-per-pass", type=int, default=None,
                        help="the judge's bound on a CPU pass's tokens (0: none; default: the code's)")
    parser.add_argument("--data-dir", default=os.environ.get("SIMPEVAL_DATA_DIR", "../shared/data"))
    parser.add_argument("--results", default=str(RESULTS))
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.items, Path(args.data_dir), Path(args.child), args.tokens_per_pass)
        return
    sys.path.insert(0, str(HERE))
    from bench_memory import BUDGET_MB, head
    from bench_scale import context

    env = dict(os.environ, OMP_NUM_THREADS="1", SIMPEVAL_MEMORY_BUDGET_MB=BUDGET_MB)
    env.update(dict(pair.split("=", 1) for pair in args.env))
    info = context()
    with tempfile.TemporaryDirectory(prefix="simpeval-judge-passes-") as tmp:
        out = Path(tmp) / "passes.json"
        bound = [] if args.tokens_per_pass is None else ["--tokens-per-pass", str(args.tokens_per_pass)]
        subprocess.run([sys.executable, __file__, "--items", str(args.items), "--data-dir", args.data_dir, *bound,
                        "--child", str(out)], env=env, check=True, stdout=subprocess.DEVNULL)
        measured = json.loads(out.read_text())
    row = {"n": args.items, "label": args.label, "env": args.env, "tokens_per_pass": args.tokens_per_pass,
           "code": head(), **info,
           "load_after": os.getloadavg()[0], **summary(measured["passes"], measured["loading_peak_mb"]),
           "passes_detail": measured["passes"]}
    results = json.loads(Path(args.results).read_text()) if Path(args.results).exists() else {"runs": []}
    results["runs"].append(row)
    Path(args.results).write_text(json.dumps(results, indent=1) + "\n")
    print(json.dumps({k: v for k, v in row.items() if k != "passes_detail"}))


if __name__ == "__main__":
    main()
