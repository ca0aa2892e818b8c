"""The Python API: ``simpeval.evaluate`` and ``simpeval.meta_evaluate`` give the command line's numbers."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

import simpeval
from simpeval.cli import cli

ASSET = "references/asset/asset.test"
SYSTEM = "system_outputs/turkcorpus/test/ACCESS"


def _lines(path, n=60):
    return path.read_text(encoding="utf-8").splitlines()[:n]


def test_evaluate_equals_the_cli(data_dir, tmp_path):
    orig = _lines(data_dir / f"{ASSET}.orig")
    out = _lines(data_dir / SYSTEM)
    refs = [_lines(data_dir / f"{ASSET}.simp.{k}") for k in range(10)]
    result = simpeval.evaluate(orig, out, refs, metrics=["bleu", "sari", "fkgl"])
    paths = {"orig": tmp_path / "orig", "sys": tmp_path / "sys"}
    paths["orig"].write_text("\n".join(orig) + "\n")
    paths["sys"].write_text("\n".join(out) + "\n")
    ref_args = []
    for k, stream in enumerate(refs):
        (tmp_path / f"ref{k}").write_text("\n".join(stream) + "\n")
        ref_args += ["--refs", str(tmp_path / f"ref{k}")]
    cli_run = CliRunner().invoke(cli, ["evaluate", "--orig", str(paths["orig"]), "--sys", str(paths["sys"]),
                                       *ref_args, "-m", "bleu,sari,fkgl", "--format", "json"])
    expected = json.loads(cli_run.stdout)
    assert result.corpus_scores == pytest.approx(expected["corpus"], abs=1e-12)
    assert result.signatures == expected["signatures"]
    assert result.signatures["sari"].startswith("sari|nrefs:10|")


def test_reference_streams_and_a_hand_computed_value():
    # Two reference streams for one item: nrefs 2. The output equals the second reference exactly,
    # so sentence BLEU is 100; FKGL needs no references.
    result = simpeval.evaluate(["the cat sat on the mat today"], ["the cat sat on the mat"],
                               [["a cat was on a mat"], ["the cat sat on the mat"]], metrics="bleu",
                               cache=False)
    assert result.corpus_scores["bleu"] == pytest.approx(100.0)
    assert result.signatures["bleu"].startswith("bleu|nrefs:2|")


def test_evaluate_sentence_level_and_default_metrics():
    result = simpeval.evaluate(["one two three four", "five six"], ["one two", "five six"], metrics=["length"],
                               sentence_level=True, cache=False)
    assert result.sentence_scores["length-token-ratio"] == [0.5, 1.0]
    assert list(simpeval.evaluate(["a b"], ["a"], cache=False).corpus_scores) == ["fkgl"]


def test_evaluate_rejects_lists_of_different_lengths():
    with pytest.raises(simpeval.UsageError, match=r"inputs differ in length \(orig: 2, sys: 1, refs\[0\]: 2\)"):
        simpeval.evaluate(["a", "b"], ["a"], [["a", "b"]], metrics="bleu")


def test_meta_evaluate_equals_the_cli_and_the_paper(data_dir):
    report = simpeval.meta_evaluate("simplicity-da", ["bleu", "sari"], preset="metaeval-2021", data_dir=data_dir)
    bleu = report.result.record("bleu", "All")
    assert abs(bleu.r) == pytest.approx(0.496, abs=0.0005)  # Table 3
    records = json.loads(CliRunner().invoke(cli, [
        "meta-evaluate", "--dataset", "simplicity-da", "-m", "bleu,sari", "--preset", "metaeval-2021",
        "--data-dir", str(data_dir), "--format", "json"]).stdout)
    for rec in records:
        ours = report.result.record(rec["metric"], rec["split"])
        assert (ours.r, ours.winner, ours.n) == (pytest.approx(rec["r"], abs=1e-12), rec["winner"], rec["n"])
    assert report.signatures["bleu"] == records[0]["signature"]


def test_import_simpeval_loads_neither_the_api_nor_heavy_libraries():
    code = ("import sys, simpeval; print(sorted(m for m in ('simpeval.api', 'simpeval.runner', 'numpy', 'torch') "
            "if m in sys.modules)); simpeval.evaluate; print('simpeval.api' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.splitlines() == ["[]", "True"], done.stderr
