"""Signatures name the formula and the language; the language is a setting that every language-dependent
metric prints, keys its cache by and refuses when it has no rules for it (nothing falls back to English)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from simpeval.cache import metric_key
from simpeval.errors import UsageError
from simpeval.metrics.bleu import Bleu
from simpeval.metrics.fkgl import Fkgl
from simpeval.registry import load_registry
from simpeval.runner import evaluate, resolve_metrics


def test_the_fkgl_signature_prints_its_formula_version_and_language():
    signature = Fkgl().signature()
    assert signature.startswith(f"fkgl|formula:{Fkgl.formula_version}|lang:en|")
    assert Fkgl.formula_version == "2"


def test_a_signature_changes_when_the_formula_version_changes():
    class Bumped(Fkgl):
        formula_version = "3"

    before, after = Fkgl().signature(), Bumped().signature()
    assert before != after
    assert before.replace("formula:2", "formula:3") == after
    assert metric_key(Fkgl(), before) != metric_key(Bumped(), after)  # the cache key follows


def test_the_language_is_in_the_signature_and_the_cache_key():
    english, german = Bleu(), Bleu(lang="de")
    assert "|lang:en|" in english.signature() and "|lang:de|" in german.signature()
    assert metric_key(english, english.signature()) != metric_key(german, german.signature())


def test_moses_applies_the_languages_own_rules():
    text = "Er kam ca. 3 Std. später."
    sources, outputs, refs = [text], [text], [["Er kam ca. drei Stunden später."]]
    german = Bleu(lang="de", tokenizer="moses")
    assert german.text_tokenizer == "moses:de"
    from simpeval.text import tokenize

    # "ca." is a German non-breaking prefix before a number, not an English one (sacremoses's own lists)
    assert tokenize(text, "moses:de") == ("Er", "kam", "ca.", "3", "Std.", "später", ".")
    assert tokenize(text, "moses") == ("Er", "kam", "ca", ".", "3", "Std.", "später", ".")
    assert tokenize("L'homme est là.", "moses:fr") == ("L'", "homme", "est", "là", ".")  # French elision
    assert german.sentence_scores(sources, outputs, refs) != Bleu(tokenizer="moses").sentence_scores(sources, outputs,
                                                                                                        refs)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"lang": "de"}, 'metric "fkgl" has no rules for language "de": it supports en only'),
])
def test_an_english_only_metric_refuses_another_language(kwargs, message):
    with pytest.raises(UsageError, match=message):
        Fkgl(**kwargs)


def test_a_tokenizer_without_the_languages_rules_refuses_it_instead_of_using_englishs():
    with pytest.raises(UsageError, match='tokenizer "moses" of metric "bleu" has no rules for language "ar".*'
                                         "bleu:tokenizer=13a"):
        Bleu(lang="ar", tokenizer="moses")
    assert Bleu(lang="ar").signature().startswith("bleu|formula:1|lang:ar|tok:13a|")  # 13a has no language rules


def test_a_plugin_metric_that_declares_no_language_is_english_only():
    import simpeval

    class Words(simpeval.Metric):
        name = "words"

        def _score_items(self, sources, outputs, references=None):
            return {"words": [float(len(o.split())) for o in outputs]}

    assert Words().signature() == f"words|formula:1|lang:en|version:{simpeval.__version__}"
    with pytest.raises(UsageError, match='metric "words" has no rules for language "fr": it supports en only'):
        Words(lang="fr")


@pytest.mark.parametrize("code", ["xx", "EN", "deu", "", "d1"])
def test_a_code_that_is_not_iso_639_1_is_refused(code):
    with pytest.raises(UsageError, match="is not an ISO 639-1 code"):
        Bleu(lang=code)


def test_resolve_metrics_and_the_python_api_take_the_language():
    registry = load_registry(autoload=False)
    [request] = resolve_metrics(registry, ["length"], lang="de")
    result = evaluate([request], ["Er kam um 3 Uhr an. Dann ging er."], ["Er kam an. Dann ging er."])
    assert result.signatures["length"].startswith("length|formula:2|lang:de|")
    import simpeval

    api = simpeval.evaluate(["Er kam an."], ["Er kam."], metrics="length", lang="de", cache=False,
                            registry=registry)
    assert api.signatures["length"].startswith("length|formula:2|lang:de|")


def test_english_is_the_default_and_scores_as_before():
    registry = load_registry(autoload=False)
    sources, outputs = ["The cat sat on the mat. It was happy."], ["The cat sat. It was happy."]
    default = evaluate(resolve_metrics(registry, ["fkgl", "length"]), sources, outputs)
    english = evaluate(resolve_metrics(registry, ["fkgl", "length"], lang="en"), sources, outputs)
    assert default.corpus_scores == english.corpus_scores
    assert default.signatures == english.signatures


def _simpeval(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "simpeval", *args], capture_output=True, text=True, timeout=120)


def test_the_command_line_prints_the_language_and_refuses_in_one_line(tmp_path):
    orig, out = tmp_path / "orig.txt", tmp_path / "sys.txt"
    orig.write_text("Der Hund läuft schnell. Er ist müde.\n", encoding="utf-8")
    out.write_text("Der Hund läuft. Er ist müde.\n", encoding="utf-8")
    done = _simpeval("evaluate", "--orig", str(orig), "--sys", str(out), "--refs", str(out), "-m", "bleu,length",
                     "--lang", "de", "--no-cache")
    assert done.returncode == 0, done.stderr
    assert "bleu|nrefs:1|formula:1|lang:de|" in done.stdout and "length|formula:2|lang:de|" in done.stdout
    refused = _simpeval("evaluate", "--orig", str(orig), "--sys", str(out), "-m", "fkgl", "--lang", "de",
                        "--no-cache")
    assert refused.returncode == 2
    assert refused.stderr.strip().splitlines() == [
        'Error: metric "fkgl" has no rules for language "de": it supports en only; drop it from -m, or give '
        "--lang one of those"]
    bad = _simpeval("evaluate", "--orig", str(orig), "--sys", str(out), "-m", "bleu", "--lang", "german")
    assert bad.returncode == 2 and "not an ISO 639-1 code" in bad.stderr


def test_test_sets_and_datasets_declare_their_language():
    from simpeval.datasets.testsets import TEST_SETS

    assert {name: spec.lang for name, spec in TEST_SETS.items() if spec.lang != "en"} == {
        "deplain-web_test": "de", "deplain-web-doc_test": "de"}
    registry = load_registry(autoload=False)
    assert {name: cls.lang for name, cls in registry.datasets.items() if cls.lang != "en"} == {
        "deplain-ratings": "de", "textcomplexityde": "de", "textcomplexityde-pairs": "de", "readmepp-ar": "ar",
        "readmepp-fr": "fr", "readmepp-hi": "hi", "readmepp-ru": "ru"}


def test_a_german_test_set_scores_in_german_without_lang(data_dir):
    outputs = data_dir / "system_outputs" / "deplain-web" / "test" / "trimmed_mbart_35k_DEplain-APA.txt"
    done = _simpeval("evaluate", "-t", "deplain-web_test", "--sys", str(outputs), "-m", "sari,bleu,length",
                     "--no-cache", "--data-dir", str(data_dir))
    assert done.returncode == 0, done.stderr
    for name in ("sari|nrefs:1|formula:1|lang:de|", "bleu|nrefs:1|formula:1|lang:de|", "length|formula:2|lang:de|"):
        assert name in done.stdout
    refused = _simpeval("evaluate", "-t", "deplain-web_test", "--sys", str(outputs), "-m", "fkgl", "--no-cache",
                        "--data-dir", str(data_dir))
    assert refused.returncode == 2 and 'metric "fkgl" has no rules for language "de"' in refused.stderr
    defaults = _simpeval("evaluate", "-t", "deplain-web_test", "--sys", str(outputs), "--no-cache",
                         "--data-dir", str(data_dir), "--format", "json")
    assert defaults.returncode == 0, defaults.stderr
    import json

    signatures = json.loads(defaults.stdout)["signatures"]
    assert set(signatures) >= {"bleu", "sari", "fre"} and "fkgl" not in signatures  # FRE is German's default
    assert signatures["fre"].startswith("fre|formula:1|lang:de|")


def test_metrics_show_names_the_languages_and_builds_a_metric_without_english_in_its_own():
    german_only = _simpeval("metrics", "show", "wiener-sachtextformel-1")
    assert german_only.returncode == 0, german_only.stderr
    assert "  languages (--lang): de\n" in german_only.stdout
    assert "wiener-sachtextformel-1|formula:1|lang:de|" in german_only.stdout
    assert "  languages (--lang): any\n" in _simpeval("metrics", "show", "bleu").stdout


def test_meta_evaluate_and_leaderboard_take_the_language(data_dir, tmp_path):
    import json

    done = _simpeval("meta-evaluate", "--dataset", "simplicity-da", "--data-dir", str(data_dir), "-m", "length",
                     "--lang", "de", "--format", "json", "--no-cache", "--resamples", "10")
    assert done.returncode == 0, done.stderr
    signatures = {record["signature"] for record in json.loads(done.stdout) if record.get("signature")}
    assert signatures and all(s.startswith("length|formula:2|lang:de|") for s in signatures)
    refused = _simpeval("meta-evaluate", "--dataset", "simplicity-da", "--data-dir", str(data_dir), "-m", "fkgl",
                        "--lang", "de", "--no-cache")
    assert refused.returncode == 2 and 'metric "fkgl" has no rules for language "de"' in refused.stderr

    from simpeval.leaderboard.run import Plan, run_leaderboard

    board = run_leaderboard(load_registry(autoload=False), Plan(data_dir, ["length"], lang="de"))
    assert board.cells == []  # no rated dataset declares German yet: none is scored by German rules

