"""Scale: wall time and peak memory of ``simpeval evaluate`` against the number of items.

Synthetic unique items are built from ASSET test lines (item i: source line i mod 359, its
ten references and an output, each with a unique tail, so no text repeats and no statistic
can be shared between items). Each run is one whole ``simpeval evaluate --sentence-level
--format csv --no-cache`` process, serial, with ``--jobs 2`` or with ``--dask local``; the
peak memory is the highest sum of the resident set sizes of the process and all its
children (workers included), sampled every 0.2 s. ``--before PATH`` times a checkout of an
earlier simpeval (put first on ``PYTHONPATH``) for the "before" rows.

The classic metrics' cold path against EASSE is ``bench_cold_path.py`` (``cold-path.md``).

Results accumulate in a JSON file (``--results``), so sizes can be run one at a time;
``--write docs/benchmarks/scale.md`` writes that page and ``scale.png`` beside it from them.

Usage::

    SIMPEVAL_DATA_DIR=../shared/data nice -n 10 python benchmarks/bench_scale.py --sizes 10000 100000 --modes serial jobs2 dask
    python benchmarks/bench_scale.py --write docs/benchmarks/scale.md
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "scale.json"
DOC = HERE.parent / "docs" / "benchmarks" / "scale.md"
METRICS = "bleu,sari,fkgl"
MODES = {"serial": [], "jobs2": ["--jobs", "2"], "dask": ["--dask", "local"]}
N_REFS = 10
CODE_NOTE = (
    "c5884ba streams inputs and outputs; its Dask client and scheduler kept Dask's default log of the\n"
    "last thousand messages of each connection, each carrying a batch's texts, which 0beaee3 cuts to two.\n"
    "The two differ only in the Dask executor, so serial and `--jobs 2` were not run again."
)

def asset_lines(data_dir: Path) -> tuple[list[str], list[list[str]]]:
    folder = data_dir / "references" / "asset"
    def read(name: str) -> list[str]:
        return (folder / name).read_text(encoding="utf-8").rstrip("\n").split("\n")
    return read("asset.test.orig"), [read(f"asset.test.simp.{j}") for j in range(N_REFS)]


def write_items(data_dir: Path, n: int, folder: Path) -> list[Path]:
    """``orig``, ``sys`` and ten reference files of ``n`` unique items; returns their paths."""
    orig, refs = asset_lines(data_dir)
    m = len(orig)
    paths = [folder / "orig.txt", folder / "sys.txt", *(folder / f"ref.{j}" for j in range(N_REFS))]
    handles = [p.open("w", encoding="utf-8") for p in paths]
    try:
        for i in range(n):
            line, tail = i % m, f" Case {i} of {i // m} ."
            handles[0].write(orig[line] + tail + "\n")
            # the output: another annotator's simplification, rotated so it differs from the references
            handles[1].write(refs[(i // m) % N_REFS][(line + 1) % m] + tail + "\n")
            for j in range(N_REFS):
                handles[2 + j].write(refs[j][line] + tail + "\n")
    finally:
        for handle in handles:
            handle.close()
    return paths


def tree_rss(pid: int) -> int:
    import psutil

    try:
        root = psutil.Process(pid)
        procs = [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return 0
    total = 0
    for proc in procs:
        try:
            total += proc.memory_info().rss
        except psutil.NoSuchProcess:
            pass
    return total


def measure(command: list[str], env: dict[str, str]) -> dict:
    """Run ``command`` to its end: exact wall and CPU seconds and peak memory.

    The process is reaped with ``os.wait4``, so the wall time ends when it ends and its
    resource usage is the kernel's: CPU seconds (user + system) and ``ru_maxrss`` (its own
    high-water mark, and its waited-for children's) are exact. Several processes
    (``--jobs``, ``--dask``) are measured by the largest sum of the resident set sizes of
    the process tree, sampled every 0.2 s by a thread beside the wait.
    """
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=errors)
        tree_peak, done = [0], threading.Event()

        def sample() -> None:
            while not done.wait(0.2):
                tree_peak[0] = max(tree_peak[0], tree_rss(proc.pid))

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        _, wait_status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        done.set()
        sampler.join()
        proc.returncode = status = os.waitstatus_to_exitcode(wait_status)  # reaped here, not by Popen
        if status != 0:
            errors.seek(0)
            sys.stderr.write(errors.read().decode(errors="replace")[-2000:])
    return {"seconds": seconds, "cpu_s": usage.ru_utime + usage.ru_stime, "maxrss_mb": usage.ru_maxrss / 1024,
            "tree_peak_mb": tree_peak[0] / 2**20, "status": status}


def evaluate_command(paths: list[Path], metrics: str, extra: list[str], out: Path) -> list[str]:
    refs = [arg for p in paths[2:] for arg in ("--refs", str(p))]
    return [sys.executable, "-m", "simpeval", "evaluate", "--orig", str(paths[0]), "--sys", str(paths[1]), *refs,
            "-m", metrics, "--sentence-level", "--format", "csv", "-o", str(out), "--no-cache", "--no-progress", *extra]


def load_results(path: Path) -> dict:
    return json.loads(path.read_text()) if path.exists() else {"runs": []}


def save_results(path: Path, results: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=1) + "\n")


def context() -> dict:
    cpu = "unknown"
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                   if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return {"date": f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC", "load": os.getloadavg()[0],
            "machine": f"nproc={os.cpu_count()}, {cpu}, Python {platform.python_version()}"}


def environment(args: argparse.Namespace) -> tuple[dict[str, str], str]:
    """The environment of the timed processes, and "before" (``--before``: that checkout first on
    ``PYTHONPATH``) or "after"."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as on a user's machine: byte code is cached after the first run
    if not args.before:
        return env, "after"
    env["PYTHONPATH"] = str(Path(args.before).resolve())
    return env, "before"


def run_sizes(args: argparse.Namespace, results: dict) -> None:
    env, version = environment(args)
    for n in args.sizes:
        with tempfile.TemporaryDirectory(prefix="simpeval-scale-") as tmp:
            folder = Path(tmp)
            paths = write_items(Path(args.data_dir), n, folder)
            for mode in args.modes:
                info = context()
                measured = measure(evaluate_command(paths, args.metrics, MODES[mode], folder / "out.csv"), env)
                peak = measured["maxrss_mb"] if mode == "serial" else measured["tree_peak_mb"]
                row = {"version": version, "code": args.code, "n": n, "mode": mode, "metrics": args.metrics,
                       "timer": "wait4", **measured, "peak_rss_mb": peak, **info, "load_after": os.getloadavg()[0]}
                print(json.dumps(row), flush=True)
                results["runs"].append(row)
                save_results(Path(args.results), results)


def report(results: dict, doc: Path) -> None:
    runs = [r for r in results["runs"] if r["status"] == 0]
    streamed = [r for r in runs if r.get("timer") == "wait4"]
    earlier = [r for r in runs if r.get("timer") != "wait4"]

    def order(r: dict) -> tuple:
        return r["n"], list(MODES).index(r["mode"])

    lines = [
        "# Benchmark: scale (time and memory against the number of items)",
        "",
        "Written by `benchmarks/bench_scale.py --write docs/benchmarks/scale.md` from",
        "`benchmarks/results/scale.json` (the runs append to it); the plot is `scale.png` beside this page.",
        "",
        "What: `simpeval evaluate -m bleu,sari,fkgl --sentence-level --format csv -o FILE --no-cache` on",
        "synthetic unique items built from ASSET test lines (no text repeats), 10 references each, one whole",
        "process per row, serial, with `--jobs 2` or with `--dask local` (2 single-threaded workers).",
        "",
        "## Streamed inputs and outputs",
        "",
        "*Seconds* is the exact wall time of the process (reaped with `os.wait4`) and *CPU s* its user +",
        "system time with its workers'. *Peak RSS*: serial, the kernel's high-water mark of the process",
        "(`ru_maxrss`); with `--jobs`/`--dask`, the largest sum of the resident memory of the process and",
        "all its children (workers, Dask scheduler), sampled every 0.2 s. The runs held the timing lock",
        "(`flock /work/bench.lock`, no two engineers' timings at once) with byte-code writing on, as on a",
        "user's machine; the 1-minute load average before and after each row is beside it (2 cores,",
        "shared with other engineers' work, niced like these runs). *code* is the commit timed:",
        *CODE_NOTE.splitlines(),
        "",
        "| code | items | mode | seconds | CPU s | ms/item | peak RSS (MB) | load before / after | date |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in sorted(streamed, key=order):
        lines.append(f"| {r.get('code', '')} | {r['n']:,} | {r['mode']} | {r['seconds']:.1f} | {r['cpu_s']:.1f} | "
                     f"{1000 * r['seconds'] / r['n']:.3f} | {r['peak_rss_mb']:.0f} | "
                     f"{r['load']:.1f} / {r['load_after']:.1f} | {r['date']} |")
    if streamed:
        lines += ["", f"Machine: {streamed[-1]['machine']}.", "", *growth_lines(streamed)]
    if earlier:
        loads = [x for r in earlier for x in (r["load"], r["load_after"])]
        lines += [
            "",
            "## Earlier runs: before streaming, on a loaded machine",
            "",
            "Kept for the memory before and after the run-owned store, not for their times: they ran under",
            f"`nice -n 10` at a 1-minute load of {min(loads):.0f} to {max(loads):.0f} on 2 cores (mostly waiting",
            "for a core), wall time sampled every 0.2 s, and peak RSS as the sampled sum over the process",
            "tree. *before* is simpeval with process-wide caches; *store* read the inputs whole and",
            "kept every per-item score to the end, with the run-owned store.",
            "",
            "| version | code | items | mode | seconds | peak RSS (MB) | load before / after | date |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for r in sorted(earlier, key=lambda r: (r["version"] != "before", *order(r))):
            lines.append(f"| {'before' if r['version'] == 'before' else 'store'} | {r.get('code', '')} | {r['n']:,} | "
                         f"{r['mode']} | {r['seconds']:.0f} | {r['peak_rss_mb']:.0f} | "
                         f"{r['load']:.1f} / {r['load_after']:.1f} | {r['date']} |")
    failed = [r for r in results["runs"] if r["status"] != 0]
    for r in failed:
        lines.append(f"\nFailed: {r['version']} {r['n']:,} items, {r['mode']}: exit status {r['status']} "
                     f"after {r['seconds']:.0f} s at {r['peak_rss_mb']:.0f} MB.")
    doc.parent.mkdir(parents=True, exist_ok=True)
    doc.write_text("\n".join(lines) + "\n", encoding="utf-8")
    plot(runs, doc.with_suffix(".png"))


def series(streamed: list[dict]) -> list[tuple[str, str, list[dict]]]:
    """The streamed rows as curves: ``(code, mode, rows by n)``, in the order first recorded."""
    keys = list(dict.fromkeys((r.get("code", ""), r["mode"]) for r in streamed))
    return [(code, mode, sorted((r for r in streamed if (r.get("code", ""), r["mode"]) == (code, mode)),
                                key=lambda r: r["n"])) for code, mode in keys]


def growth_lines(streamed: list[dict]) -> list[str]:
    """What the curves show, per code and mode: time and peak memory from the smallest to the largest run."""
    lines = []
    for code, mode, rows in series(streamed):
        if len(rows) < 2:
            continue
        first, last = rows[0], rows[-1]
        lines.append(
            f"- {mode} ({code}): {last['n'] / first['n']:.0f}x the items ({first['n']:,} to {last['n']:,}) took "
            f"{last['seconds'] / first['seconds']:.1f}x the time ({1000 * first['seconds'] / first['n']:.3f} to "
            f"{1000 * last['seconds'] / last['n']:.3f} ms per item) and {last['peak_rss_mb'] / first['peak_rss_mb']:.2f}x "
            f"the peak memory ({first['peak_rss_mb']:.0f} to {last['peak_rss_mb']:.0f} MB)."
        )
    return lines


def plot(runs: list[dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (time_ax, rss_ax) = plt.subplots(1, 2, figsize=(11, 5))
    curves = [(f"streamed {mode} ({code})", "-", rows)
              for code, mode, rows in series([r for r in runs if r.get("timer") == "wait4"])]
    curves += [(f"earlier {label}, {mode} (loaded machine)", "--",
                [r for r in runs if r.get("timer") != "wait4" and r["mode"] == mode and (r["version"] == "before") == before])
               for label, before in (("before store", True), ("store only", False)) for mode in MODES]
    for label, style, rows in curves:
        points = sorted((r["n"], r["seconds"], r["peak_rss_mb"]) for r in rows)
        if not points:
            continue
        n, seconds, rss = zip(*points)
        time_ax.plot(n, seconds, style, marker="o", label=label)
        rss_ax.plot(n, rss, style, marker="o", label=label)
    for ax, label in ((time_ax, "wall seconds"), (rss_ax, "peak RSS (MB)")):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("items (10 references each)")
        ax.set_ylabel(label)
        ax.grid(True, which="both", alpha=0.3)
    handles, labels = time_ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=4, fontsize=7)
    fig.suptitle("simpeval evaluate -m bleu,sari,fkgl --sentence-level --format csv (2 cores)")
    fig.tight_layout(rect=(0, 0.12, 1, 1))
    fig.savefig(path, dpi=100)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=os.environ.get("SIMPEVAL_DATA_DIR", "../shared/data"))
    parser.add_argument("--sizes", type=int, nargs="*", default=[])
    parser.add_argument("--modes", nargs="*", choices=list(MODES), default=["serial"])
    parser.add_argument("--metrics", default=METRICS)
    parser.add_argument("--before", default=None, help="checkout of an earlier simpeval to time instead")
    parser.add_argument("--results", default=str(RESULTS))
    parser.add_argument("--code", default=None, help="the commit timed, recorded with each row")
    parser.add_argument("--write", nargs="?", const=str(DOC), default=None, metavar="PAGE",
                        help="write the page (default docs/benchmarks/scale.md) and its PNG plot")
    args = parser.parse_args()
    results = load_results(Path(args.results))
    if args.sizes:
        run_sizes(args, results)
    if args.write:
        report(results, Path(args.write))


if __name__ == "__main__":
    main()
