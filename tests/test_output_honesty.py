"""Outputs that cannot mislead: BLEU casing against ``easse evaluate``, ``--easse-defaults``, and the
multi-system table (marks on the better system only, decimals per metric, long layout when narrow)."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from simpeval.cli import cli

SYSTEMS = "system_outputs/turkcorpus/test"


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture(scope="module")
def easse_bleu(data_dir) -> float:
    """``easse evaluate``'s BLEU of ACCESS on asset_test, stated independently: sacrebleu's corpus
    BLEU with 13a tokens on lower-cased text (EASSE's -lc default), exp smoothing."""
    import sacrebleu

    outputs = (data_dir / SYSTEMS / "ACCESS").read_text(encoding="utf-8").splitlines()
    refs = [(data_dir / f"references/asset/asset.test.simp.{i}").read_text(encoding="utf-8").splitlines()
            for i in range(10)]
    return sacrebleu.corpus_bleu(outputs, refs, lowercase=True, tokenize="13a").score


def _scores(result) -> dict[str, float]:
    assert result.exit_code == 0, result.output
    return dict(json.loads(result.stdout)["corpus"])


def test_easse_defaults_reproduce_easse_evaluate(data_dir, easse_bleu):
    args = ("evaluate", "-t", "asset_test", "--data-dir", data_dir, "--sys", data_dir / SYSTEMS / "ACCESS")
    cased = run(*args)
    assert "bleu here is cased (lc:no)" in cased.stderr and "--easse-defaults" in cased.stderr
    default = _scores(run(*args, "--format", "json"))
    easse = _scores(run(*args, "--easse-defaults", "--format", "json"))
    explicit = _scores(run(*args, "-m", "bleu:lowercase=yes", "--format", "json"))
    assert easse["bleu"] == pytest.approx(easse_bleu, abs=1e-9) == explicit["bleu"]
    assert round(easse["bleu"], 2) == 75.99 and round(default["bleu"], 2) == 75.39  # issue 18's numbers
    # SARI and FKGL already have EASSE's settings (13a, lower-cased): the preset leaves them alone
    assert {k: v for k, v in easse.items() if k != "bleu"} == {k: v for k, v in default.items() if k != "bleu"}
    assert "cased" not in run(*args, "--easse-defaults").stderr


def test_easse_defaults_and_another_preset_is_one_line(data_dir):
    result = run("evaluate", "-t", "asset_test", "--data-dir", data_dir, "--sys", data_dir / SYSTEMS / "ACCESS",
                 "--easse-defaults", "--preset", "metaeval-2021")
    assert result.exit_code == 2
    assert result.output.strip() == ("Error: --easse-defaults is the preset easse-cli: "
                                     "drop --preset metaeval-2021 or --easse-defaults")


def test_easse_defaults_set_easses_bertscore_options():
    from simpeval.registry import load_registry

    registry = load_registry()
    easse = registry.create_metric("bertscore", {}, "easse-cli")
    # easse/bertscore.py: BERTScorer(lang="en", rescale_with_baseline=True) on 13a tokens, lower-cased by -lc
    assert (easse.model, easse.layer, easse.rescale, easse.tokenizer, easse.lowercase) == (
        "roberta-large", None, True, "13a", True)
    assert easse.easse_differences() == []  # layer None is bert_score's 17 for roberta-large
    assert registry.create_metric("bertscore", {}).easse_differences() == ["lowercase=no (EASSE: yes)"]
    other = registry.create_metric("bertscore", {"model": "/models/mini", "rescale": False}, "easse-cli")
    assert other.easse_differences() == ["model=/models/mini (EASSE: roberta-large)", "layer=last (EASSE: 17)",
                                         "rescale=no (EASSE: yes)"]


def test_easse_defaults_say_in_one_line_when_bertscore_cannot_be_easses(tmp_path):
    from simpeval.testing import save_tiny_bert

    words = "the cat sat on a mat dog ran".split()
    model = save_tiny_bert(tmp_path / "tiny", words)
    for name, lines in {"orig": ["the cat sat on the mat"] * 3, "sys": ["the cat sat", "a dog ran", "the mat"],
                        "ref": ["a cat sat", "the dog ran", "a mat"]}.items():
        (tmp_path / name).write_text("\n".join(lines) + "\n")
    args = ("evaluate", "--orig", tmp_path / "orig", "--sys", tmp_path / "sys", "--refs", tmp_path / "ref",
            "-m", f"bertscore:model={model}", "--no-cache", "--format", "json")
    easse = run(*args, "--easse-defaults")
    assert easse.exit_code == 0, easse.output
    warnings = [line for line in easse.stderr.splitlines() if line.startswith("warning:")]
    assert warnings == [f"warning: --easse-defaults cannot make bertscore EASSE's here: model={model} (EASSE: "
                        "roberta-large), layer=last (EASSE: 17), rescale=no (EASSE: yes); its numbers are not "
                        "`easse evaluate`'s"]
    assert "|lc:yes|" in json.loads(easse.stdout)["signatures"]["bertscore"]  # what the preset can set, it sets
    plain = run(*args)
    assert plain.exit_code == 0 and "warning:" not in plain.stderr
    assert "|lc:no|" in json.loads(plain.stdout)["signatures"]["bertscore"]


def test_easse_defaults_without_roberta_large_stop_in_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))  # an empty cache: roberta-large is not there
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hf" / "hub"))
    (tmp_path / "f").write_text("a b\n" * 6)
    result = run("evaluate", "--orig", tmp_path / "f", "--sys", tmp_path / "f", "--refs", tmp_path / "f",
                 "-m", "bertscore", "--easse-defaults", "--no-cache")
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1
    assert result.output.startswith('Error: model "roberta-large" is neither a local path nor in the Hugging Face '
                                    "cache")


@pytest.fixture(scope="module")
def comparison(data_dir):
    from simpeval.datasets.testsets import load_test_set
    from simpeval.registry import load_registry
    from simpeval.runner import compare_systems, resolve_metrics

    test_set = load_test_set(data_dir, "asset_test")
    systems = [(name, (data_dir / SYSTEMS / name).read_text(encoding="utf-8").splitlines())
               for name in ("ACCESS", "DMASS-DCSS", "PBMT-R")]
    requests = resolve_metrics(load_registry(), ["bleu,sari,qe-exact-copies"])
    return compare_systems(requests, test_set.sources, systems, test_set.references, test="bs", n_resamples=200)


def test_markdown_and_latex_mark_only_the_better_system(comparison):
    from simpeval.cli.systems import format_comparison

    scores = {s.name: s.result.corpus_scores for s in comparison.systems}
    # BLEU: PBMT-R 78.56 > ACCESS 75.39 > DMASS-DCSS 70.46, both differences significant
    assert scores["PBMT-R"]["bleu"] > scores["ACCESS"]["bleu"] > scores["DMASS-DCSS"]["bleu"]
    assert all(s.tests["bleu"].significant() for s in comparison.systems[1:])
    rows = {line.split(" | ")[0].strip("| "): line for line in format_comparison(comparison, "markdown").splitlines()}
    assert "**75.39" in rows["ACCESS"]  # beats DMASS-DCSS
    assert "**78.56" in rows["PBMT-R"]  # beats ACCESS
    assert "**70.46" not in rows["DMASS-DCSS"] and "70.46 (" in rows["DMASS-DCSS"]  # the worse one: not bold
    latex = format_comparison(comparison, "latex")
    assert r"\textbf{75.39" in latex and r"\textbf{78.56" in latex and r"\textbf{70.46" not in latex
    # SARI: ACCESS is better than both (40.13 vs 38.67 and 34.64): only ACCESS is bold
    assert scores["ACCESS"]["sari"] > max(scores["DMASS-DCSS"]["sari"], scores["PBMT-R"]["sari"])
    assert "**40.13" in rows["ACCESS"] and "**38.67" not in rows["DMASS-DCSS"] and "**34.64" not in rows["PBMT-R"]


def test_terminal_marks_say_better_or_worse(comparison):
    from simpeval.cli.systems import comparison_records, format_comparison

    rows = {line.split()[0]: line for line in format_comparison(comparison, "table").splitlines()[2:]}
    p = 1 / 201  # 200 resamples: nothing as large as the observed difference
    # BLEU (higher is better): PBMT-R 78.56 above ACCESS, DMASS-DCSS 70.46 below; SARI: both below ACCESS
    assert re.search(rf"78\.56 \(\S+\) p={p:.4f} better .* p={p:.4f} worse", rows["PBMT-R"])
    assert re.search(rf"70\.46 \(\S+\) p={p:.4f} worse .* p={p:.4f} worse", rows["DMASS-DCSS"])
    assert "p=" not in rows["ACCESS"]
    verdicts = {(r["system"], r["metric"]): r.get("verdict") for r in comparison_records(comparison)}
    assert verdicts[("PBMT-R", "bleu")] == "better" and verdicts[("DMASS-DCSS", "bleu")] == "worse"
    assert verdicts[("ACCESS", "bleu")] is None


def test_numbers_have_one_format_per_metric(comparison):
    from simpeval.cli.systems import format_comparison

    text = format_comparison(comparison, "markdown")
    # sari-add (6.54) has BLEU's and SARI's two decimals; the copy ratio (0.042) three, in every cell
    assert re.search(r"\| (\*\*)?6\.54 \(\d\.\d\d-\d\.\d\d\)(\*\*)? \|", text)
    copies = [line.split(" | ")[-1] for line in text.splitlines()[2:]]
    assert all(re.match(r"\**0\.\d{3} \(0\.\d{3}-0\.\d{3}\)", cell) for cell in copies), copies


def test_wide_terminal_tables_become_long_and_other_formats_stay_complete(comparison):
    from simpeval.cli.systems import format_comparison

    wide = format_comparison(comparison, "table")
    assert max(map(len, wide.splitlines())) > 100
    assert format_comparison(comparison, "table", width=400) == wide  # fits: unchanged
    long = format_comparison(comparison, "table", width=100)
    assert max(map(len, long.splitlines())) <= 100
    assert long.splitlines()[0].split() == ["metric", "system", "score", "95%", "interval", "p"]
    names = comparison.score_names
    assert len(long.splitlines()) == 2 + len(names) * 3  # every sub-score of every system
    dmass_bleu = next(line for line in long.splitlines() if line.startswith("bleu") and "DMASS-DCSS" in line)
    # the mark says which way: DMASS-DCSS is significantly *worse* than ACCESS on BLEU, PBMT-R better
    assert re.search(r"70\.46\s+\d\d\.\d\d-\d\d\.\d\d\s+0\.\d{4} worse$", dmass_bleu)
    pbmt_bleu = next(line for line in long.splitlines() if line.startswith("bleu ") and "PBMT-R" in line)
    assert re.search(r"78\.56\s+\d\d\.\d\d-\d\d\.\d\d\s+0\.\d{4} better$", pbmt_bleu)
    assert "*" not in long and "*" not in wide
    for fmt in ("markdown", "latex"):  # never shortened: every system and column
        text = format_comparison(comparison, fmt, width=40)
        assert all(s.name in text for s in comparison.systems) and all(n in text for n in names)
    csv_rows = format_comparison(comparison, "csv", width=40).splitlines()
    assert len(csv_rows) == 1 + len(names) * 3
