"""``simpeval report``: the numbers it shows are simpeval's, the page needs nothing from outside,
the samples and the highlighted words are the right ones."""

from __future__ import annotations

import base64
import re

import pytest
from click.testing import CliRunner

import simpeval
from simpeval.cli import cli
from simpeval.registry import load_registry
from simpeval.report.model import build_report, pick_samples
from simpeval.report.highlight import operation_spans

SYSTEMS = "system_outputs/turkcorpus/test"


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_every_word_of_a_sample_gets_its_operation():
    source, output = operation_spans("The cat sat on the old mat.", "The old cat was on the mat today.")
    assert source == [("kept", "The cat"), ("replaced", "sat"), ("kept", "on the"), ("moved", "old"),
                      ("kept", "mat .")]
    assert output == [("kept", "The"), ("moved", "old"), ("kept", "cat"), ("replaced", "was"),
                      ("kept", "on the mat"), ("added", "today"), ("kept", ".")]
    source, _ = operation_spans("During childhood she was ill.", "She was ill.")
    assert source == [("deleted", "During childhood"), ("kept", "she was ill .")]


def _tiny_report(**kwargs):
    sources = ["one two three four", "five six seven eight", "nine ten"]
    systems = [("copy", sources), ("short", ["one two", "five six seven eight", "nine"])]
    return build_report(load_registry(autoload=False), sources, systems, None, ["length"], cache=None, **kwargs)


def test_scores_equal_the_api_and_samples_follow_the_metric():
    report = _tiny_report(sample_metric="length-token-ratio", n_samples=1)
    short = report.systems[1]
    expected = simpeval.evaluate(report.sources, short.outputs, metrics=["length"], cache=False,
                                 registry=load_registry(autoload=False))
    assert short.metrics.corpus_scores == pytest.approx(expected.corpus_scores)
    assert short.metrics.sentence_scores["length-token-ratio"] == [0.5, 1.0, 0.5]
    assert short.features.corpus_scores["qe-compression"] == pytest.approx((7 / 18 + 1 + 4 / 8) / 3)
    # lower token ratio is "better" for length: the best item has mean (1 + 0.5) / 2 = 0.75 (items 0 and 2 tie:
    # the first wins), the worst is item 1 (mean 1.0)
    by_kind = {s.kind: s for s in report.samples}
    assert (by_kind["best"].index, by_kind["worst"].index) == (0, 1)
    assert by_kind["best"].scores == [1.0, 0.5]


def test_pick_samples_skips_undefined_items_and_is_seeded():
    report = _tiny_report(sample_metric="length-token-ratio", n_samples=3)
    again = pick_samples(report.systems, report.sources, None, "length-token-ratio", 3, 0)
    assert [s.index for s in again if s.kind == "random"] == [0, 1, 2]
    assert [s.index for s in again if s.kind == "best"] == [0, 2, 1]


def test_html_is_self_contained_and_shows_the_numbers(data_dir, tmp_path):
    out = tmp_path / "report.html"
    done = run("report", "-t", "asset_test", "--data-dir", data_dir, "--sys", data_dir / SYSTEMS / "ACCESS",
               "--sys", data_dir / SYSTEMS / "Dress-Ls", "-m", "bleu,sari", "--paired-bs", "--paired-n", "200",
               "-o", out)
    assert done.exit_code == 0, done.output
    page = out.read_text(encoding="utf-8")
    # nothing to fetch: no scripts, stylesheets or frames from elsewhere; every image is inline
    assert not re.search(r'<(script|link|iframe)\b', page)
    sources = re.findall(r'\b(?:src|href)="([^"]*)"', page)
    assert sources and all(s.startswith("data:image/svg+xml;base64,") for s in sources)
    for uri in sources:
        svg = base64.b64decode(uri.split(",", 1)[1]).decode("utf-8")
        assert "<svg" in svg and not re.search(r'(?:src|href)="(?:https?:|file:|//)', svg)
    # the corpus scores are the ones evaluate prints
    orig = (data_dir / "references/asset/asset.test.orig").read_text().splitlines()
    access = (data_dir / SYSTEMS / "ACCESS").read_text().splitlines()
    refs = [(data_dir / f"references/asset/asset.test.simp.{k}").read_text().splitlines() for k in range(10)]
    sari = simpeval.evaluate(orig, access, refs, metrics="sari", cache=False).corpus_scores["sari"]
    assert f"<td>{sari:.2f}</td>" in page or f'<td class="best">{sari:.2f}</td>' in page
    # one number format per metric: sari-add (6.54) keeps SARI's two decimals, not 6.539
    sari_add = simpeval.evaluate(orig, access, refs, metrics="sari", cache=False).corpus_scores["sari-add"]
    assert re.search(rf'<td(?: class="best")?>{sari_add:.2f}(?:<span|</td>)', page)
    assert f">{sari_add:.3f}<" not in page
    assert "paired bootstrap resampling, 200 resamples" in page
    # Dress-Ls against ACCESS: significantly better on BLEU (85.54 vs 75.39), worse on SARI (36.59 vs 40.13)
    assert re.search(r'85\.54<span class="mark">p = 0\.0050, better</span>', page)
    assert re.search(r'36\.59<span class="mark">p = 0\.0050, worse</span>', page)
    assert page.count("<h3>") == 3 and page.count('<div class="sample">') == 15
    assert "qe-levenshtein" in page and '<span class="added">' in page
    assert "Word operations per system" in page


def test_markdown_for_papers(data_dir):
    done = run("report", "-t", "asset_test", "--data-dir", data_dir, "--sys", data_dir / SYSTEMS / "ACCESS",
               "--sys", data_dir / SYSTEMS / "UNTS", "-m", "sari", "--paired-ar", "--paired-n", "500",
               "--samples", "1", "--format", "markdown")
    assert done.exit_code == 0, done.output
    lines = done.stdout.splitlines()
    assert ("Each system against the first (ACCESS): paired approximate randomization, 500 trials; "
            "better/worse: significantly (p < 0.05) better or worse than ACCESS, in the metric's direction.") in lines
    unts = next(line for line in lines if line.startswith("| UNTS | ")).split(" | ")
    assert unts[1].endswith("(p = 0.0020, worse)")  # UNTS's SARI is below ACCESS's: never a bare star
    assert "| system | sari | sari-add | sari-keep | sari-del |" in lines
    metrics_row, features_row = [line.split(" | ") for line in lines if line.startswith("| ACCESS | ")]
    orig = (data_dir / "references/asset/asset.test.orig").read_text().splitlines()
    access = (data_dir / SYSTEMS / "ACCESS").read_text().splitlines()
    refs = [(data_dir / f"references/asset/asset.test.simp.{k}").read_text().splitlines() for k in range(10)]
    assert metrics_row[1] == f'{simpeval.evaluate(orig, access, refs, "sari", cache=False).corpus_scores["sari"]:.3f}'
    header = next(line for line in lines if line.startswith("| system | qe-compression")).split(" | ")
    assert features_row[header.index("qe-compression")] == "0.941"  # EASSE's compression ratio: 0.94079
    assert any(line.startswith("  - ACCESS (") and "**" in line for line in lines)


def test_bad_input_is_one_line(data_dir, tmp_path):
    none = run("report", "-t", "asset_test", "--data-dir", data_dir)
    assert none.exit_code == 2 and none.output.strip() == (
        "Error: no system outputs: pass --sys FILE (repeatable) or --sys-dir DIR")
    short = tmp_path / "short.txt"
    short.write_text("one line\n")
    bad = run("report", "-t", "asset_test", "--data-dir", data_dir, "--sys", short, "-o", tmp_path / "r.html")
    assert bad.exit_code == 2 and bad.output.startswith(f"Error: --sys {short} has 1 lines")
    assert not (tmp_path / "r.html").exists()
    metric = run("report", "-t", "asset_test", "--data-dir", data_dir, "--sys", data_dir / SYSTEMS / "ACCESS",
                 "-m", "bleu", "--sample-metric", "sari", "-o", tmp_path / "r.html")
    assert metric.exit_code == 2
    assert metric.output.strip() == 'Error: --sample-metric "sari" is not among the scores: choose one of bleu'


def test_several_systems_are_tested_against_the_first_by_default(data_dir, tmp_path):
    systems = ["--sys", data_dir / SYSTEMS / "ACCESS", "--sys", data_dir / SYSTEMS / "UNTS",
               "--sys", data_dir / SYSTEMS / "Hybrid"]
    tested = run("report", "-t", "asset_test", "--data-dir", data_dir, *systems, "-m", "fkgl", "--samples", "0",
                 "--format", "markdown")
    assert tested.exit_code == 0, tested.output
    assert ("Each system against the first (ACCESS): paired bootstrap resampling, 1,000 resamples; "
            "better/worse: significantly (p < 0.05) better or worse than ACCESS, in the metric's direction."
            ) in tested.stdout.splitlines()
    # FKGL, lower is better: Hybrid's 5.18 is significantly better than ACCESS's 7.29, UNTS's 7.60 not different
    metrics_table = tested.stdout.split("## Quality-estimation")[0]
    rows = {line.split(" | ")[0]: line for line in metrics_table.splitlines() if line.startswith("| ")}
    assert rows["| Hybrid"].startswith("| Hybrid | 5.177 (p = 0.0010, better) |")
    assert rows["| UNTS"].startswith("| UNTS | 7.600 (p = 0.0749) |") and rows["| ACCESS"].startswith("| ACCESS | 7.289 |")
    plain = run("report", "-t", "asset_test", "--data-dir", data_dir, *systems, "-m", "fkgl", "--samples", "0",
                "--format", "markdown", "--no-paired")
    assert "p = " not in plain.stdout and "Each system" not in plain.stdout
    both = run("report", "-t", "asset_test", "--data-dir", data_dir, *systems, "--no-paired", "--paired-ar")
    assert both.exit_code == 2 and both.output.startswith("Error: --no-paired turns the paired test off")
