"""Inputs as read: decoded before lines are counted, standard input named once, Unicode normalised
once (NFC), and the Python API taking any iterable and refusing an empty evaluation."""

from __future__ import annotations

import json
import unicodedata

import pytest
from click.testing import CliRunner

import simpeval
from simpeval.cli import cli
from simpeval.documents import read_documents
from simpeval.errors import UsageError

SENTENCES = ["The committee considered the extraordinary circumstances very carefully .",
             "Ċ was a sunny day in the village .", "She naïvely believed the café's résumé ."]


def evaluate(tmp_path, *args, stdin=None):
    return CliRunner().invoke(cli, ["evaluate", *args, "--no-cache"], input=stdin, catch_exceptions=False)


def test_utf16_input_is_an_encoding_error_not_a_line_count_mismatch(tmp_path):
    (tmp_path / "orig.txt").write_text("\n".join(SENTENCES) + "\n", encoding="utf-8")
    (tmp_path / "sys.txt").write_text("\n".join(SENTENCES) + "\n", encoding="utf-16")  # "Ċ" holds a 0x0a byte
    result = evaluate(tmp_path, "--orig", str(tmp_path / "orig.txt"), "--sys", str(tmp_path / "sys.txt"), "-m", "fkgl")
    assert result.exit_code == 2
    assert result.output.strip() == (f"Error: --sys {tmp_path / 'sys.txt'} is not UTF-8 (byte 0xff at offset 0): "
                                     "convert it, e.g. iconv -f utf-16 -t utf-8")


def test_standard_input_named_twice_is_one_line(tmp_path):
    result = evaluate(tmp_path, "--orig", "-", "--sys", "-", "-m", "fkgl", stdin="a b .\n")
    assert result.exit_code == 2
    assert result.output.strip() == ("Error: standard input (-) is named by --orig and --sys, but it can be read only "
                                     "once: give files for all but one of them")


def test_nfd_and_nfc_forms_of_one_text_score_alike(tmp_path):
    nfc = "\n".join(SENTENCES) + "\n"
    (tmp_path / "nfc.txt").write_text(unicodedata.normalize("NFC", nfc), encoding="utf-8")
    (tmp_path / "nfd.txt").write_text(unicodedata.normalize("NFD", nfc), encoding="utf-8")
    assert (tmp_path / "nfc.txt").read_bytes() != (tmp_path / "nfd.txt").read_bytes()
    scores = []
    for form in ("nfc", "nfd"):
        result = evaluate(tmp_path, "--orig", str(tmp_path / "nfc.txt"), "--sys", str(tmp_path / f"{form}.txt"),
                          "-m", "fkgl,sari", "--refs", str(tmp_path / "nfc.txt"), "--format", "json")
        assert result.exit_code == 0, result.output
        scores.append(json.loads(result.output)["corpus"])
    assert scores[0] == scores[1]


def test_document_ids_that_differ_only_in_normalisation_pair(tmp_path):
    for side, form in (("orig", "NFC"), ("sys", "NFD")):
        (tmp_path / side).mkdir()
        (tmp_path / side / f"{unicodedata.normalize(form, 'café')}.txt").write_text(
            unicodedata.normalize(form, "Le café est fermé ."), encoding="utf-8")
    orig, system = (read_documents(str(tmp_path / side), f"--{side}") for side in ("orig", "sys"))
    assert orig.ids == system.ids == ["café"] and orig.texts == system.texts == ["Le café est fermé ."]


def test_the_api_takes_generators_and_refuses_an_empty_evaluation():
    result = simpeval.evaluate((s for s in SENTENCES), (s for s in SENTENCES), [(s for s in SENTENCES)],
                               metrics="fkgl", cache=False)
    assert result.corpus_scores["fkgl"] == simpeval.evaluate(SENTENCES, SENTENCES, [SENTENCES], metrics="fkgl",
                                                              cache=False).corpus_scores["fkgl"]
    with pytest.raises(UsageError, match=r"^no items: give at least one original and one output$"):
        simpeval.evaluate([], [], metrics="fkgl", cache=False)


@pytest.mark.parametrize("option", ["smooth_value", "corpus_smooth_value"])
def test_a_negative_smoothing_value_is_refused(tmp_path, option):
    (tmp_path / "t.txt").write_text("\n".join(SENTENCES) + "\n", encoding="utf-8")
    text = str(tmp_path / "t.txt")
    result = evaluate(tmp_path, "--orig", text, "--sys", text, "--refs", text, "-m", f"bleu:{option}=-1")
    assert result.exit_code == 2
    assert result.output.strip() == f"Error: option \"{option}\" expects a number of at least 0, got '-1'"


def test_a_data_dir_that_is_a_file_is_named_as_such(tmp_path):
    from simpeval.datadir import resolve_data_dir

    (tmp_path / "data.txt").write_text("")
    with pytest.raises(UsageError, match=r"^data directory .*data.txt is a file, not a directory: fix --data-dir$"):
        resolve_data_dir(tmp_path / "data.txt")


def test_scores_rows_that_match_no_item_are_told(tmp_path):
    from simpeval.metaeval.scores import join_scores

    (tmp_path / "scores.csv").write_text("sent_id,sys_name,mine\n1,a,0.5\n2,a,0.7\n99,a,0.1\n")
    joined = join_scores(tmp_path / "scores.csv", [("1", "a"), ("2", "a")], ["sent_id", "sys_name"])
    assert list(joined.scores["mine"]) == [0.5, 0.7]
    assert joined.warnings == [f"--scores {tmp_path / 'scores.csv'} has 1 row(s) that match no item of the dataset, "
                               "ignored (the first: {'sent_id': '99', 'sys_name': 'a'}): check their sent_id, sys_name"]


@pytest.mark.parametrize("command", [["siera", "--seed"], ["sle", "--seed"], ["lens", "--seeds"]])
def test_a_seed_beyond_64_bits_is_the_users_error_not_the_trainers(tmp_path, command):
    trainer, option = command
    result = CliRunner().invoke(cli, ["train", trainer, option, str(2**70), "-o", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert "report it to the authors" not in result.output
    assert "18446744073709551615" in result.output and not (tmp_path / "out").exists()
