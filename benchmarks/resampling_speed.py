"""Time the resampling tests of ``simpeval meta-evaluate`` before and after they were vectorised, and write
``docs/benchmarks/resampling.md``.

Two commands a user met (issue 28): the kendall-23 ``--rank`` run on SimpEval_past (2,400 items, 1,000
permutation resamples per pair of metrics in each of three splits) and ``--average-by item`` with 200
permutations on Simplicity-DA (600 items). The metric scores come from the score cache (one untimed
run fills it), so the times are those of the statistics. For each command the page gives:

- the current code's wall and CPU time (user + system of the whole process) at the command's own
  resamples, and the progress bar's last lines;
- the code of ``--before REV`` (exported with ``git archive``), too slow to run at full size on a shared
  machine: timed at two small resample counts and extrapolated linearly in the resamples (its
  cost is a fixed part plus a per-resample part), the extrapolation labelled as such;
- whether both print the same JSON records at the small resample count (same seed), every field but
  the signature (its format changed separately): the speed-up must not change a number.

Usage: ``SIMPEVAL_DATA_DIR=../shared/data python benchmarks/resampling_speed.py --before REV``
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from before import export_package  # noqa: E402
from machine import load_average, machine_lines  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

COMMANDS = {
    "kendall-23 --rank": ["meta-evaluate", "--dataset", "simpeval-past", "-m", "bleu,sari,fkgl,bleu-sari-amean",
                          "--correlation", "kendall-23", "--rank"],
    "--average-by item": ["meta-evaluate", "--dataset", "simplicity-da", "-m", "bleu,sari,fkgl,bleu-sari-amean",
                          "--average-by", "item", "--resamples", "200"],
}
FULL_RESAMPLES = {"kendall-23 --rank": 1000, "--average-by item": 200}


@dataclass
class Timing:
    wall: float
    cpu: float
    load: float
    stdout: str
    stderr: str


def timed(args: list[str], env: dict[str, str]) -> Timing:
    """Run ``simpeval ARGS`` in a fresh process: wall time, its CPU time, the load average before it.

    It runs in the score cache's directory: ``python -m`` puts the working directory first on the path,
    so from the repository the checkout's package would shadow the exported old one."""
    load = load_average()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "simpeval", *args], env=env, check=True, capture_output=True,
                          text=True, cwd=env["SIMPEVAL_CACHE_DIR"])
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return Timing(wall, cpu, load, done.stdout, done.stderr)


def with_resamples(args: list[str], resamples: int) -> list[str]:
    """``args`` with ``--resamples`` set (replaced where given)."""
    if "--resamples" in args:
        i = args.index("--resamples")
        return [*args[:i], "--resamples", str(resamples), *args[i + 2:]]
    return [*args, "--resamples", str(resamples)]


def numbers(json_text: str) -> list[dict]:
    """Every field of the JSON records but the signatures (whose format changed on its own since)."""
    return [{k: v for k, v in record.items() if k != "signature"} for record in json.loads(json_text)]


def last_bar_states(stderr: str, count: int = 4) -> list[str]:
    """The progress bar's last states (tqdm rewrites its line with carriage returns)."""
    states = [s.strip() for line in stderr.splitlines() for s in line.split("\r") if "resampl" in s and "%" in s]
    return states[-count:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", required=True, help="git revision of the code to compare with")
    parser.add_argument("--small", type=int, nargs=2, default=(10, 50),
                        help="the two resample counts the old code is timed at")
    parser.add_argument("--write", type=Path, default=ROOT / "docs/benchmarks/resampling.md")
    args = parser.parse_args()
    small_a, small_b = args.small
    lines = ["# Resampling tests of meta-evaluate: before and after vectorising", "",
             f"Written by `benchmarks/resampling_speed.py --before {args.before}`; metric scores from a warm score "
             "cache, so the times are the statistics'. CPU time is user + system of the whole process "
             "(imports included); on a shared machine the wall time grows with the load, the CPU time much less.",
             ""]
    with tempfile.TemporaryDirectory() as temporary:
        old_path = export_package(args.before, "simpeval", Path(temporary) / "before")
        env = dict(os.environ, SIMPEVAL_CACHE_DIR=str(Path(temporary) / "cache"),
                   PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
        Path(env["SIMPEVAL_CACHE_DIR"]).mkdir()
        old_env = dict(env, PYTHONPATH=os.pathsep.join(filter(None, [str(old_path), env.get("PYTHONPATH")])))
        for label, command in COMMANDS.items():
            full = FULL_RESAMPLES[label]
            timed(with_resamples(command, 1), env)  # fills the score cache
            now = timed([*command, "--progress"], env)
            timed(with_resamples(command, 1), old_env)  # the old code's cache keys may differ: filled too
            old_a = timed(with_resamples(command, small_a), old_env)
            old_b = timed(with_resamples(command, small_b), old_env)
            per_resample = (old_b.cpu - old_a.cpu) / (small_b - small_a)
            old_full = old_a.cpu + per_resample * (full - small_a)
            json_args = [*with_resamples(command, small_a), "--bootstrap", "40", "--format", "json"]
            same = numbers(timed(json_args, env).stdout) == numbers(timed(json_args, old_env).stdout)
            lines += [f"## `simpeval {' '.join(command)}`", "",
                      "| code | resamples | wall (s) | CPU (s) | load before |", "|---|---|---|---|---|",
                      f"| after | {full} | {now.wall:.1f} | {now.cpu:.1f} | {now.load:.1f} |",
                      f"| before ({args.before}) | {small_a} | {old_a.wall:.1f} | {old_a.cpu:.1f} | {old_a.load:.1f} |",
                      f"| before ({args.before}) | {small_b} | {old_b.wall:.1f} | {old_b.cpu:.1f} | {old_b.load:.1f} |",
                      f"| before, extrapolated | {full} | | {old_full:.0f} (linear in the resamples) | |", "",
                      f"- CPU time at {full} resamples: {old_full:.0f} s before (extrapolated), {now.cpu:.1f} s after: "
                      f"{old_full / now.cpu:.0f}x less",
                      f"- The same JSON records, every field but the signature (r, p-values, winners, ranks, "
                      f"intervals; {small_a} resamples, 40 bootstrap resamples, seed 0) from both: "
                      f"{'yes' if same else 'NO'}",
                      "- The progress bar's last states (standard error, `--progress`):", "", "```",
                      *last_bar_states(now.stderr), "```", ""]
    lines += ["## Machine", "", *machine_lines(), ""]
    args.write.parent.mkdir(parents=True, exist_ok=True)
    args.write.write_text("\n".join(lines), encoding="utf-8")
    print(args.write.read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()
