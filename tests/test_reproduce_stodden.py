"""DEplain (Stodden et al. 2023): the German test sets on the real files and ``simpeval reproduce
stodden-2023`` against the published DEplain-web tables (every SARI, BLEU and FRE within 0.01; the
outside oracle is the paper's own numbers, which EASSE-de and textstat computed)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from simpeval.cli import cli
from simpeval.datasets.testsets import licence_counts, load_test_set, published_outputs
from simpeval.german.metrics import FreTextstat
from simpeval.german.stodden_2023 import DOCUMENT, SENTENCE
from simpeval.metrics.textstat073 import fre


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_german_fre_by_hand():
    # 1 sentence, 4 words, syllables Haus(1) ist(1) sehr(1) schön(1) = 4: 180 - 4.0 - 58.5 * 1.0 = 117.5
    assert fre("Das Haus ist schön.", "de") == 117.5
    # "Ba-na-ne" 3 + "ist" 1 + "gelb" 1 = 5 / 3 words = 1.67 -> 1.7; 180 - 3.0 - 99.45 = 77.55
    assert fre("Banane ist gelb.", "de") == 77.55
    assert fre("The cat sat on the mat.", "en") == pytest.approx(206.835 - 1.015 * 6.0 - 84.6 * 1.0, abs=0.005)


def test_fre_textstat_corpus_scores_joined_or_mean():
    outputs = ["Das Haus ist schön.", "Banane ist gelb."]
    joined = FreTextstat(lang="de").corpus_score(outputs, outputs)["fre-textstat"]
    mean = FreTextstat(lang="de", aggregate="mean").corpus_score(outputs, outputs)["fre-textstat"]
    assert mean == pytest.approx((117.5 + 77.55) / 2)
    assert joined == fre("Das Haus ist schön. Banane ist gelb.", "de")


def test_deplain_web_test_sets_load_with_their_sizes_outputs_and_licences(data_dir):
    sentences = load_test_set(data_dir, "deplain-web_test")
    assert len(sentences.sources) == 1846 and sentences.n_references == 1
    assert dict(licence_counts(data_dir, "deplain-web_test")) == {
        "save_use_share": 800, "CC_BY_4": 612, "CC_BY_NC_ND_4": 279, "CC_BY_SA_3": 155}
    assert len(published_outputs(data_dir, "deplain-web_test")) == 16
    documents = load_test_set(data_dir, "deplain-web-doc_test")
    assert len(documents.sources) == 147 and all("\n" not in d for d in documents.sources)
    assert sum(licence_counts(data_dir, "deplain-web-doc_test").values()) == 147
    assert len(published_outputs(data_dir, "deplain-web-doc_test")) == 3


def test_simpeval_data_shows_each_pairs_licence(data_dir):
    result = run("data", "--data-dir", data_dir)
    assert result.exit_code == 0, result.output
    assert "deplain-web_test: save_use_share 800, CC_BY_4 612, CC_BY_NC_ND_4 279, CC_BY_SA_3 155" in result.output


def test_several_systems_on_the_german_test_set_with_a_paired_test(data_dir):
    outputs = data_dir / "system_outputs/deplain-web/test"
    result = run("evaluate", "-t", "deplain-web_test", "--sys", outputs / "trimmed_mbart_35k_DEplain-APA.txt",
                 "--sys", outputs / "trimmed_mbart_35k_DEplain-APA-web.txt", "--paired-bs", "--paired-n", "50",
                 "--preset", "deplain-2023", "-m", "bleu", "--format", "json", "--data-dir", data_dir)
    assert result.exit_code == 0, result.output
    apa, apa_web = json.loads(result.stdout)["results"]
    assert apa["score"] == pytest.approx(15.727, abs=0.0005) and apa["baseline"]
    assert apa_web["score"] == pytest.approx(17.880, abs=0.0005) and apa_web["verdict"] == "better"


@pytest.mark.slow
def test_stodden_2023_reproduces_every_sari_bleu_and_fre(data_dir):
    result = run("reproduce", "stodden-2023", "--format", "json", "--data-dir", data_dir)
    assert result.exit_code == 0, result.output
    cells = json.loads(result.stdout)
    published = {("sentence", s, m): v for s, row in SENTENCE.items() for m, v in row.items()}
    published |= {("document", s, m): v for s, row in DOCUMENT.items() for m, v in row.items()}
    assert {(c["level"], c["system"], c["metric"]) for c in cells} == set(published)
    assert {c["system"] for c in cells} == {"DEplain-APA", "DEplain-APA+web", "DEplain-web", "src2src-baseline"}
    for cell in cells:
        assert cell["published"] == published[(cell["level"], cell["system"], cell["metric"])]
        if cell["metric"] == "BS-P":
            assert cell["simpeval"] is None and "bert-base-multilingual-cased" in cell["note"]
        else:
            assert cell["simpeval"] == pytest.approx(cell["published"], abs=0.005), cell
    assert sum(c["simpeval"] is not None for c in cells) == 21


@pytest.mark.slow
def test_the_printed_document_command_gives_the_printed_number(data_dir):
    """The document-level command, run as a user would: the CSV test set, DEplain's preset."""
    outputs = data_dir / "system_outputs/deplain-web-doc/test"
    result = run("evaluate", "-t", "deplain-web-doc_test", "--sys", outputs / "trimmed_longmbart_35k_on_web",
                 "--preset", "deplain-2023", "-m", "sari,bleu,fre-textstat", "--format", "json",
                 "--data-dir", data_dir)
    assert result.exit_code == 0, result.output
    scores = json.loads(result.stdout)["corpus"]
    assert scores["sari"] == pytest.approx(49.584, abs=0.0005)
    assert scores["bleu"] == pytest.approx(23.282, abs=0.0005)
    assert scores["fre-textstat"] == pytest.approx(63.5, abs=1e-9)


@pytest.mark.slow
def test_all_pairs_and_the_report_read_the_document_test_set(data_dir, tmp_path):
    outputs = data_dir / "system_outputs/deplain-web-doc/test"
    pairs = run("evaluate", "--all-pairs", "-t", "deplain-web-doc_test", "--sys-dir", outputs, "--paired-n", "50",
                "--preset", "deplain-2023", "-m", "bleu", "--format", "json", "--data-dir", data_dir)
    assert pairs.exit_code == 0, pairs.output
    assert "trimmed_longmbart_35k_on_APA-web" in pairs.stdout
    report = run("report", "-t", "deplain-web-doc_test", "--sys-dir", outputs, "--paired-n", "50", "-m", "bleu",
                 "--preset", "deplain-2023", "--format", "markdown", "-o", tmp_path / "report.md",
                 "--data-dir", data_dir)
    assert report.exit_code == 0, report.output
    assert "23.28" in (tmp_path / "report.md").read_text(encoding="utf-8")  # DEplain-web's BLEU, 147 documents
