"""Cripwell et al. (2024) Tables 2 and 3 on OneStopEnglish, the SLE figure, and SLE on Simplicity-DA.

On the shipped SLE checkpoint's held-out test articles, the Advanced version is
the input; the Intermediate and Elementary versions are the "reference" outputs
for target levels 1 and 2; three baselines are the "systems":

- copy: the input unchanged;
- drop-half: every second sentence dropped (the 2nd, 4th, ...);
- truncate: every sentence longer than 15 words cut after its 15th word (at its
  last comma before that, when there is one), ended with a full stop: short
  sentences are what FKGL rewards, whatever they lose.

Every number comes from simpeval's runner on document inputs (each document one
item): Table 2 (faithfulness and conservativity: SummaC not run, ESA P/R/F1,
tokens, sentences, BLEU_C = corpus ``bleu-source``) and Table 3 (corpus FKGL of
the outputs for both targets, SLEdoc per target with the mean predicted level in
brackets, total). The figure shows the distribution of sentence SLE per level on
the test articles (the SLE paper's appendix figure). Last, ``sle``,
``sle-delta`` and ``fkgl`` are meta-evaluated on Simplicity-DA simplicity.

    nice -n 10 python benchmarks/sledoc_tables.py   # writes docs/reproduced/sledoc.md and the PNG
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT_MD = ROOT / "docs" / "reproduced" / "sledoc.md"
OUT_PNG = ROOT / "docs" / "reproduced" / "sledoc-sle-distributions.png"
MAX_WORDS = 15
TARGETS = (1, 2)


def drop_half(text: str) -> str:
    """Every second sentence of the document removed, counting across lines; empty lines dropped."""
    from simpeval.text import split_sentences

    kept_lines, index = [], 0
    for line in text.splitlines():
        kept = []
        for sentence in split_sentences(line.strip()) if line.strip() else ():
            if index % 2 == 0:
                kept.append(sentence)
            index += 1
        if kept:
            kept_lines.append(" ".join(kept))
    return "\n".join(kept_lines)


def truncate(text: str, max_words: int = MAX_WORDS) -> str:
    """Every sentence of more than ``max_words`` words cut after that many (at the last comma inside)."""
    from simpeval.text import split_sentences

    def cut(sentence: str) -> str:
        words = sentence.split()
        if len(words) <= max_words:
            return sentence
        head = words[:max_words]
        commas = [i for i, w in enumerate(head[:-1]) if w.endswith(",")]
        head = head[: commas[-1] + 1] if commas else head
        return " ".join(head).rstrip(",;:–-") + "."

    return "\n".join(" ".join(cut(s) for s in split_sentences(line.strip())) for line in text.splitlines() if line.strip())


SYSTEMS = {"copy": lambda text: text, "drop-half": drop_half, "truncate": truncate}


def score(requests_spec: list[str], sources: list[str], outputs: list[str], fields=None) -> tuple[dict, dict]:
    """Per-document and corpus scores of the runner (no score cache: every number is fresh)."""
    from simpeval.registry import load_registry
    from simpeval.runner import evaluate, resolve_metrics

    result = evaluate(resolve_metrics(load_registry(), requests_spec), sources, outputs, fields=fields)
    return result.sentence_scores, result.corpus_scores


def table2(inputs: list[str], outputs: dict[str, list[str]]) -> list[str]:
    """Rows of Table 2: ESA P/R/F1 against the input, tokens, sentences, BLEU_C."""
    rows = []
    _, corpus = score(["length"], inputs, inputs)
    rows.append(f"| Input | - | - | - | - | - | - | {corpus['length']:.1f} | {corpus['length-sentences']:.1f} | - |")
    for name, texts in outputs.items():
        sources = inputs * (len(texts) // len(inputs))
        _, c = score(["esa-p,esa-r,esa-f1", "length", "bleu-source"], sources, texts)
        rows.append(
            f"| {name} | - | - | - | {c['esa-p']:.2f} | {c['esa-r']:.2f} | {c['esa-f1']:.2f} | "
            f"{c['length']:.1f} | {c['length-sentences']:.1f} | {c['bleu-source']:.1f} |"
        )
    return rows


def table3(inputs: list[str], by_target: dict[str, dict[int, list[str]]]) -> list[str]:
    """Rows of Table 3: FKGL; SLEdoc (mean level) per target; total MAE."""
    rows = []
    _, c = score(["fkgl", "sle"], inputs, inputs)
    rows.append(f"| Input | {c['fkgl']:.2f} | " + " | ".join(f"- ({c['sle']:.2f})" for _ in TARGETS) + " | - |")
    for name, per_target in by_target.items():
        sources = [s for _ in TARGETS for s in inputs]
        outputs = [o for t in TARGETS for o in per_target[t]]
        targets = [float(t) for t in TARGETS for _ in inputs]
        items, c = score(["fkgl", "sledoc"], sources, outputs, fields={"target": targets})
        cells = []
        for k, _ in enumerate(TARGETS):
            part = slice(k * len(inputs), (k + 1) * len(inputs))
            error, level = items["sledoc"][part], items["sledoc-level"][part]
            cells.append(f"{sum(error) / len(error):.2f} ({sum(level) / len(level):.2f})")
        rows.append(f"| {name} | {c['fkgl']:.2f} | " + " | ".join(cells) + f" | {c['sledoc']:.2f} |")
    return rows


def figure(documents, path: Path) -> dict[int, tuple[float, float, int]]:
    """Histogram of sentence SLE per level on the test articles; returns (mean, sd, n) per level."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    from simpeval.run import Run
    from simpeval_sle.corpus import LEVEL_NAMES
    from simpeval_sle.inference import predictor
    from simpeval_sle.plugin import SHIPPED_DIR
    from simpeval_sle.segment import sentences_of

    model = predictor(Run(cache=None), str(SHIPPED_DIR))
    stats = {}
    fig, ax = plt.subplots(figsize=(7, 3.6))
    bins = np.linspace(-1.5, 3.5, 51)
    for level, name in enumerate(LEVEL_NAMES):
        sentences = [s for d in documents if d.level == level for s in sentences_of(d.text)]
        values = np.asarray(model.sentence_levels(sentences))
        stats[level] = (float(values.mean()), float(values.std()), len(values))
        ax.hist(values, bins=bins, alpha=0.45, label=f"{level} {name} (n={len(values)})")
        ax.axvline(values.mean(), linestyle="--", linewidth=1, color=f"C{level}")
    ax.set_xlabel("SLE of a sentence (0 Advanced ... 2 Elementary)")
    ax.set_ylabel("sentences")
    ax.set_title("SLE per OneStopEnglish level, test articles (dashed: means)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return stats


def simplicity_da(cache_dir: str | None = None) -> list[str]:
    """``simpeval meta-evaluate`` on Simplicity-DA simplicity: Pearson and Spearman, quality split.

    Both runs share a score cache (``cache_dir``, by default a fresh one), so the metrics score the 600
    items once (tests regenerate this)."""
    import tempfile

    lines = []
    with tempfile.TemporaryDirectory(prefix="sledoc-cache-") as fresh:
        cache = cache_dir or fresh
        for correlation in ("pearson", "spearman"):
            command = [sys.executable, "-m", "simpeval", "meta-evaluate", "--dataset", "simplicity-da",
                       "--aspect", "simplicity", "-m", "sle,sle-delta,fkgl", "--correlation", correlation,
                       "--format", "json", "--no-progress", "--cache-dir", cache]
            records = json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)
            splits = list(dict.fromkeys(r["split"] for r in records))
            cell = {(r["metric"], r["split"]): r for r in records}
            lines += [f"{correlation.capitalize()}:", "",
                      "| metric | " + " | ".join(f"{s} (N={cell[('sle', s)]['n']})" for s in splits) + " |",
                      "|---" * (len(splits) + 1) + "|"]
            for metric in ("sle", "sle-delta", "fkgl"):
                values = [f"{cell[(metric, s)]['r']:.3f}" for s in splits]
                values = [f"**{v}**" if cell[(metric, s)]["winner"] else v for v, s in zip(values, splits)]
                lines.append(f"| {metric} | " + " | ".join(values) + " |")
            lines.append("")
    return lines


def sle_fkgl_baseline() -> dict:
    """The one FKGL-regression baseline of the SLE test articles (the registry's ``fkgl``), from sledoc's
    judged record (``benchmarks/learned_heldout.py`` computes it)."""
    from simpeval.learning.record import load_record
    from simpeval.registry import load_registry

    record = load_record(load_registry().metric_class("sledoc"))
    return record["sections"]["heldout"]["data"]["test_articles_fkgl_baseline"]


def main() -> None:
    from simpeval_sle.corpus import load_corpus
    from simpeval_sle.plugin import SHIPPED_DIR
    from simpeval_sle.settings import CONFIG_FILE

    started = time.perf_counter()
    load = open("/proc/loadavg").read().split()[:3]
    data_dir = Path(os.environ.get("SIMPEVAL_DATA_DIR", ROOT.parent / "shared" / "data"))
    training = json.loads((SHIPPED_DIR / CONFIG_FILE).read_text())["training"]
    fkgl_baseline = sle_fkgl_baseline()
    test = set(training["split"]["test"])
    documents = [d for d in load_corpus(data_dir) if d.article in test]
    by_level = {level: [d.text for d in documents if d.level == level] for level in range(3)}
    inputs = by_level[0]
    systems = {name: [make(t) for t in inputs] for name, make in SYSTEMS.items()}

    t2 = table2(inputs, {"Reference (Int + Ele)": by_level[1] + by_level[2], **systems})
    t3 = table3(inputs, {"Reference": {1: by_level[1], 2: by_level[2]},
                         **{name: {t: texts for t in TARGETS} for name, texts in systems.items()}})
    stats = figure(documents, OUT_PNG)
    sda = simplicity_da()
    seconds = time.perf_counter() - started
    mae = training["test_document_mae"]
    text = f"""# SLEdoc tables (Cripwell et al. 2024) on OneStopEnglish

Written by `python benchmarks/sledoc_tables.py` on {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC,
{platform.machine()} CPU ({os.cpu_count()} cores, shared), load average {' '.join(load)} at the start,
{seconds:.0f} s in all. Nothing below is typed by hand.

## Setup

Newsela (five levels, licensed) and the paper's systems' outputs are not available, so the paper's
layout is filled on OneStopEnglish's {len(test)} held-out **test articles** of the shipped SLE checkpoint
(`simpeval_sle/checkpoint`, trained by `simpeval train sle`; levels 0 Advanced, 1 Intermediate,
2 Elementary). The Advanced version is the input; the Intermediate and Elementary versions are the
"reference" outputs for target levels 1 and 2; the systems are baselines: **copy** (the input),
**drop-half** (every second sentence dropped) and **truncate** (sentences over {MAX_WORDS} words cut to
{MAX_WORDS} words, at the last comma inside, and closed with a full stop). Each document is one item of
simpeval's runner; sentence metrics (`bleu-source`) score each document as one text, as the paper does.

- ESA: `esa-p`, `esa-r`, `esa-f1` of the faithfulness plugin (spaCy named entities of output vs input),
  means over documents. **SummaC was not run**: no NLI weights can be installed here (QAFactEval likewise).
- Tokens and sentences: means of the `length` metric (13a tokens; sentences by the core's Punkt splitter).
- BLEU_C: corpus `bleu-source` (BLEU of the outputs against their inputs, each document one segment).
- FKGL: corpus `fkgl` (counts pooled over the documents), over the outputs for both targets.
- SLEdoc: `sledoc` with each document's target (1 or 2) as a per-item field; the cell is the MAE over the
  test articles at that target, the bracket the mean predicted level (`sledoc-level`), "Total" the MAE
  over both targets. The baselines give the same output for both targets.

## Table 2 layout: faithfulness and conservativity

| System | SummaC P | SummaC R | SummaC F1 | ESA P | ESA R | ESA F1 | Tokens | Sents | BLEU_C |
|---|---|---|---|---|---|---|---|---|---|
{chr(10).join(t2)}

## Table 3 layout: simplicity

| System | FKGL | SLEdoc 1 | SLEdoc 2 | Total |
|---|---|---|---|---|
{chr(10).join(t3)}

## SLE per level on the test articles (the SLE paper's appendix figure)

![SLE distributions per level]({OUT_PNG.name})

| level | mean SLE | sd | sentences |
|---|---|---|---|
""" + "\n".join(f"| {lv} | {m:.2f} | {sd:.2f} | {n} |" for lv, (m, sd, n) in stats.items()) + f"""

The shipped checkpoint's test-article document MAE (its model card): {mae['all']:.3f} overall
({', '.join(f'level {k}: {v:.3f}' for k, v in mae.items() if k != 'all')}), against
{fkgl_baseline['document_mae']['all']:.3f} for the FKGL-regression baseline (the registry's `fkgl`, as sledoc's judged record holds it).

## Sentence level: Simplicity-DA simplicity

`simpeval meta-evaluate --dataset simplicity-da --aspect simplicity -m sle,sle-delta,fkgl` (600
outputs of 6 systems; human score: mean z-score of 15 raters; quality split as in Alva-Manchego et
al. 2021). Signed correlations: FKGL is lower-is-simpler, so a useful FKGL correlates negatively.
**Bold**: not significantly outperformed in its column (p < 0.05).

""" + "\n".join(sda) + """
## Differs from the paper

- OneStopEnglish's three levels (0-2) instead of Newsela's five (0-4): targets are 1 and 2 only, and
  SLEdoc values are on a 0-2 scale, not comparable with the paper's.
- SLE is a frozen MiniLM with a small regression head, not a fine-tuned RoBERTa.
- The "systems" are baselines, not document simplification models; the "references" are the
  corpus's own simpler versions (the paper's Reference row is also Newsela's simpler versions).
- SummaC and QAFactEval are not run (no NLI or QA weights offline).
"""
    OUT_MD.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
