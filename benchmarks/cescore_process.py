"""CEScore as whole processes: ``simpeval evaluate -m cescore`` against the authors' ``CEScore`` package.

Each side is timed as a fresh Python process scoring the 1,750 (source, output)
pairs of Structural Simplicity, from interpreter start to exit: imports, the
lexicons, the tokenizers and the scoring. *simpeval* runs ``python -m simpeval
evaluate --orig O --sys S -m cescore --no-cache``; *before* is the same command on
the plugin as it was at git revision ``--before`` (exported to a temporary
directory put first on ``PYTHONPATH``); *authors* runs the package's
``CEScore().CEScore(source, output)`` on every pair with only its sentence splitters
made offline (:mod:`simpeval_cescore.authors`). The three are interleaved
``--repeats`` times (medians reported). Writes ``docs/benchmarks/cescore-process.md``.

    nice -n 10 python benchmarks/cescore_process.py [--repeats N] [--before REV]
"""

from __future__ import annotations

import argparse
import csv
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from before import export_package  # noqa: E402
from machine import load_average, machine_lines, median, write_report  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PLUGIN = "plugins/simpeval-cescore/simpeval_cescore"

AUTHORS = """
import sys
from simpeval_cescore.authors import authors_scores
sources = open(sys.argv[1], encoding="utf-8").read().splitlines()
outputs = open(sys.argv[2], encoding="utf-8").read().splitlines()
scores = authors_scores(sources, outputs)
print(sum(s[3] for s in scores) / len(scores))
"""


def write_inputs(data_dir: Path, directory: Path) -> tuple[Path, Path]:
    """Structural Simplicity's sources and outputs, one per line."""
    with open(data_dir / "metaeval" / "structural_simplicity.csv", encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    paths = directory / "orig.txt", directory / "sys.txt"
    for path, column in zip(paths, ("orig_sent", "simp_sent")):
        path.write_text("".join(row[column].replace("\n", " ") + "\n" for row in rows), encoding="utf-8")
    return paths


def timed(command: list[str], env: dict[str, str]) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run(command, check=True, capture_output=True, text=True, env=env)
    return time.perf_counter() - started, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--before", default="6b04af9", help="git revision of the plugin before this work")
    parser.add_argument("--output", type=Path, default=ROOT / "docs" / "benchmarks" / "cescore-process.md")
    args = parser.parse_args()
    data_dir = Path(os.environ.get("SIMPEVAL_DATA_DIR", "../shared/data"))
    with tempfile.TemporaryDirectory() as temporary:
        orig, simp = write_inputs(data_dir, Path(temporary))
        before_path = export_package(args.before, PLUGIN, Path(temporary) / "before")
        env = dict(os.environ, SIMPEVAL_CACHE_DIR=str(Path(temporary) / "cache"))
        before_env = dict(env, PYTHONPATH=os.pathsep.join(filter(None, [str(before_path), env.get("PYTHONPATH")])))
        ours_command = [sys.executable, "-m", "simpeval", "evaluate", "--orig", str(orig), "--sys", str(simp),
                        "-m", "cescore", "--no-cache", "--format", "json"]
        authors_command = [sys.executable, "-c", AUTHORS, str(orig), str(simp)]
        times: dict[str, list[float]] = {"after": [], "before": [], "authors": []}
        loads = [load_average()]
        for _ in range(args.repeats):
            times["after"].append(timed(ours_command, env)[0])
            times["before"].append(timed(ours_command, before_env)[0])
            seconds, authors_out = timed(authors_command, env)
            times["authors"].append(seconds)
            loads.append(load_average())
        _, ours_out = timed(ours_command, env)
    rows = [
        ("simpeval-cescore, after", "after"),
        (f"simpeval-cescore, before (plugin at {args.before})", "before"),
        ("authors' CEScore 0.0.1", "authors"),
    ]
    write_report(args.output, "\n".join([
        "# Benchmark: CEScore, whole processes",
        "",
        "Written by `benchmarks/cescore_process.py`; do not edit by hand.",
        "",
        "What: the 1,750 (source, output) pairs of Structural Simplicity scored by a fresh Python process, "
        "timed from start to exit (imports, lexicons, tokenizers, scoring): `python -m simpeval evaluate "
        "-m cescore --no-cache` against a script calling the authors' package on every pair (its sentence "
        "splitters made offline, nothing else changed). Runs interleaved; medians.",
        "",
        *machine_lines(),
        f"- Niceness {os.nice(0)}; load average (1 min) before and after each repeat: "
        f"{', '.join(f'{v:.1f}' for v in loads)}",
        f"- Repeats: {args.repeats}",
        "",
        "| process | seconds (median) | all runs (s) | authors' time / this |",
        "|---|---|---|---|",
        *(f"| {label} | {median(times[key]):.2f} | {', '.join(f'{v:.2f}' for v in times[key])} | "
          f"{median(times['authors']) / median(times[key]):.1f}x |" for label, key in rows),
        "",
        f"Corpus CEScore printed by the authors' script: {float(authors_out):.6f}; by simpeval: "
        f"{_corpus_cescore(ours_out):.6f}.",
        "",
        "Where the time went before: `import nltk` (its package `__init__` imports nearly all of NLTK, and "
        "with it scipy.stats and scikit-learn) for a tokenizer that needs four small modules; NLTK 3.10's "
        "Treebank patterns running on the third-party `regex` engine under a timeout; and the lexicons "
        "read through `csv.DictReader` (a dict per row for 114,000 rows). The tokenizer now loads alone and "
        "runs the same patterns on `re`, and the lexicons are read as rows.",
        "",
    ]))


def _corpus_cescore(json_text: str) -> float:
    import json

    return float(json.loads(json_text)["corpus"]["cescore"])


if __name__ == "__main__":
    main()
