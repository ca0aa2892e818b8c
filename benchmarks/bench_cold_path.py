"""The classic metrics' cold path against EASSE: BLEU, SARI and iBLEU, 10 references, first run, no cache.

Both sides are whole processes, start-up included, run alternately so they see the same load:
``simpeval evaluate -m bleu,sari,ibleu --no-cache`` (corpus scores, and ``--sentence-level``
per-item scores) on Simplicity-DA's 600 outputs against their 10 ASSET references, and a
script that calls EASSE's own functions on the same files:

- corpus: ``easse.bleu.corpus_bleu`` and ``easse.sari.corpus_sari``; EASSE has no iBLEU, so
  iBLEU is two more ``corpus_bleu`` calls (against the references and against the sources);
- sentence level: ``easse.bleu.sentence_bleu`` per item against the references (its value serves
  BLEU and iBLEU) and once against the source (iBLEU's other half), and ``easse.sari.corpus_sari``
  on the one item.

Both sides tokenise with 13a, named on both: ``tokenizer="13a"`` in every EASSE call (EASSE's
function default; its command line defaults to Moses), ``tokenizer=13a`` in simpeval's ``-m`` specs.

EASSE is not on PyPI. Point ``--easse-src`` at a checkout of its repository (github.com/feralvam/easse;
only ``easse/bleu.py``, ``easse/sari.py`` and ``easse/utils/preprocessing.py`` are imported, which
need ``sacrebleu``, ``sacremoses`` and ``numpy``); nothing of it belongs in this project. The
script first checks that both sides compute the same numbers: per-item BLEU, SARI and iBLEU
equal to 1e-9, corpus BLEU and SARI too.

Usage::

    SIMPEVAL_DATA_DIR=../shared/data python benchmarks/bench_cold_path.py --easse-src ../easse-src \\
        --write docs/benchmarks/cold-path.md
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from machine import load_average, machine_lines, median, write_report

HERE = Path(__file__).resolve().parent
DOC = HERE.parent / "docs" / "benchmarks" / "cold-path.md"
N_REFS = 10

# What an EASSE user runs (EASSE's functions, EASSE's defaults but for lowercase, which simpeval's
# bleu keeps off as EASSE's corpus_bleu does); prints the scores so the two sides can be compared.
EASSE_SCRIPT = """
import json, sys
from easse.bleu import corpus_bleu, sentence_bleu
from easse.sari import corpus_sari

level, orig, sys_, *refs = sys.argv[1], *(open(p, encoding="utf-8").read().split("\\n")[:-1] for p in sys.argv[2:])
if level == "corpus":
    bleu = corpus_bleu(sys_, refs, tokenizer="13a")
    print(json.dumps({"bleu": bleu, "sari": corpus_sari(orig, sys_, refs, tokenizer="13a"),
                      "ibleu": 0.9 * bleu - 0.1 * corpus_bleu(sys_, [orig], tokenizer="13a")}))
else:
    rows = []
    for i, output in enumerate(sys_):
        item_refs = [ref[i] for ref in refs]
        bleu = sentence_bleu(output, item_refs, tokenizer="13a")
        rows.append({"bleu": bleu,
                     "sari": corpus_sari([orig[i]], [output], [[r] for r in item_refs], tokenizer="13a"),
                     "ibleu": 0.9 * bleu - 0.1 * sentence_bleu(output, [orig[i]], tokenizer="13a")})
    print(json.dumps(rows))
"""


def write_inputs(data_dir: Path, folder: Path) -> list[Path]:
    """Simplicity-DA's sources and outputs and each output's 10 ASSET references, as line files."""
    with open(data_dir / "metaeval" / "simplicity_DA.csv", encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    asset = data_dir / "references" / "asset"
    refs = [(asset / f"asset.test.simp.{j}").read_text(encoding="utf-8").rstrip("\n").split("\n") for j in range(N_REFS)]
    columns = [[r["orig_sent"] for r in rows], [r["simp_sent"] for r in rows],
               *([ref[int(r["sent_id"]) - 1] for r in rows] for ref in refs)]
    paths = [folder / "orig.txt", folder / "sys.txt", *(folder / f"ref.{j}" for j in range(N_REFS))]
    for path, lines in zip(paths, columns):
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return paths


def commands(paths: list[Path], script: Path) -> dict[str, list[str]]:
    refs = [arg for p in paths[2:] for arg in ("--refs", str(p))]
    simpeval = [sys.executable, "-m", "simpeval", "evaluate", "--orig", str(paths[0]), "--sys", str(paths[1]), *refs,
                "-m", "bleu:tokenizer=13a,sari:tokenizer=13a,ibleu:tokenizer=13a", "--no-cache", "--no-progress", "--format"]
    easse = [sys.executable, str(script)]
    files = [str(p) for p in paths]
    return {
        "simpeval corpus": [*simpeval, "json"],
        "EASSE corpus": [*easse, "corpus", *files],
        "simpeval sentence": [*simpeval, "csv", "--sentence-level"],
        "EASSE sentence": [*easse, "sentence", *files],
    }


def run(command: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds (user + system, from the kernel's accounting of the child) and
    standard output of one process. The machine is a shared virtual one, so wall time moves with
    the host; CPU time much less."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"{command[:4]} failed:\n{err.read().decode()[-2000:]}")
        return seconds, usage.ru_utime + usage.ru_stime, out.read().decode()


def check_same_numbers(outputs: dict[str, str]) -> int:
    """Fail unless both sides computed the same scores; return the number of items compared."""
    ours = json.loads(outputs["simpeval corpus"])["corpus"]
    theirs = json.loads(outputs["EASSE corpus"])
    for key in ("bleu", "sari"):
        if abs(ours[key] - theirs[key]) > 1e-9:
            raise SystemExit(f"corpus {key}: simpeval {ours[key]} vs EASSE {theirs[key]}")
    rows = list(csv.DictReader(line for line in io.StringIO(outputs["simpeval sentence"]) if not line.startswith("#")))
    easse_rows = json.loads(outputs["EASSE sentence"])
    for i, (mine, other) in enumerate(zip(rows, easse_rows, strict=True)):
        for key in ("bleu", "sari", "ibleu"):
            if abs(float(mine[key]) - other[key]) > 1e-9:
                raise SystemExit(f"item {i} {key}: simpeval {mine[key]} vs EASSE {other[key]}")
    return len(rows)


def measure(
    paths: list[Path], script: Path, env: dict[str, str], repeat: int
) -> tuple[dict[str, list[tuple[float, float]]], int]:
    """Each command's (wall, CPU) seconds per round, and the number of items compared."""
    runs = commands(paths, script)
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in runs}
    outputs: dict[str, str] = {}
    for name, command in runs.items():  # a warm-up round: bytecode written, files in the page cache
        outputs[name] = run(command, env)[2]
    n = check_same_numbers(outputs)
    for _ in range(repeat):
        for name, command in runs.items():
            times[name].append(run(command, env)[:2])
    return times, n


def report(times: dict[str, list[tuple[float, float]]], n: int, loads: tuple[float, float], repeat: int) -> str:
    lines = [
        "# Benchmark: the classic metrics' cold path against EASSE",
        "",
        "Written by `benchmarks/bench_cold_path.py --write`; do not edit by hand.",
        "",
        f"What: BLEU, SARI and iBLEU of Simplicity-DA's {n} outputs against their 10 ASSET references, no cache,",
        "each side one whole process (Python start-up and imports included), the two run alternately.",
        "*simpeval* is `simpeval evaluate -m bleu,sari,ibleu --no-cache` (corpus scores; `--sentence-level` for",
        "per-item scores). *EASSE* is a script calling EASSE's own functions on the same files:",
        "`corpus_bleu` and `corpus_sari`, and iBLEU from two more `corpus_bleu` calls (EASSE has none);",
        "per item, `sentence_bleu` against the references (one call, for BLEU and iBLEU) and against the source,",
        "and `corpus_sari` on the one item. Both sides tokenise with 13a, named on both (`tokenizer=\"13a\"`",
        "in every EASSE call, `tokenizer=13a` in simpeval's `-m`).",
        "EASSE is not on PyPI: its `bleu.py`, `sari.py` and `utils/preprocessing.py` were taken from its",
        "public repository (github.com/feralvam/easse) into a folder outside this project and put on",
        "`PYTHONPATH`. Before timing, the script checks that the two sides give the same corpus BLEU and",
        "SARI and the same per-item BLEU, SARI and iBLEU (to 1e-9).",
        "",
        *machine_lines(),
        f"- 1-minute load average before / after: {loads[0]:.2f} / {loads[1]:.2f}",
        f"- Runs: one warm-up round, then {repeat} rounds; `PYTHONDONTWRITEBYTECODE` unset (bytecode cached, as on",
        "  a user's machine)",
        "",
        "Speed-up is EASSE's time over simpeval's, from the medians of wall time, of CPU time (user +",
        "system, which moves less with the host's load), and from the fastest wall times.",
        "",
        "| level | simpeval wall / CPU (s, median) | EASSE wall / CPU (s, median) | speed-up: wall | CPU | fastest |"
        " simpeval wall runs (s) | EASSE wall runs (s) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for level in ("corpus", "sentence"):
        ours, theirs = times[f"simpeval {level}"], times[f"EASSE {level}"]
        (our_wall, our_cpu), (their_wall, their_cpu) = (
            (median([w for w, _ in runs]), median([c for _, c in runs])) for runs in (ours, theirs))
        fastest = min(w for w, _ in theirs) / min(w for w, _ in ours)
        lines.append(f"| {level} | {our_wall:.3f} / {our_cpu:.3f} | {their_wall:.3f} / {their_cpu:.3f} | "
                     f"**{their_wall / our_wall:.1f}x** | **{their_cpu / our_cpu:.1f}x** | {fastest:.1f}x | "
                     f"{', '.join(f'{w:.3f}' for w, _ in ours)} | {', '.join(f'{w:.3f}' for w, _ in theirs)} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=os.environ.get("SIMPEVAL_DATA_DIR", "../shared/data"))
    parser.add_argument("--easse-src", required=True, help="a checkout of EASSE's repository (the folder holding easse/)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--write", nargs="?", const=str(DOC), default=None, metavar="PAGE")
    args = parser.parse_args()
    env = dict(os.environ, PYTHONPATH=str(Path(args.easse_src).resolve()))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory(prefix="simpeval-cold-") as tmp:
        folder = Path(tmp)
        paths = write_inputs(Path(args.data_dir), folder)
        script = folder / "easse_scores.py"
        script.write_text(EASSE_SCRIPT, encoding="utf-8")
        before = load_average()
        times, n = measure(paths, script, env, args.repeat)
        text = report(times, n, (before, load_average()), args.repeat)
    if args.write:
        write_report(Path(args.write), text)
    else:
        print(text)


if __name__ == "__main__":
    main()
