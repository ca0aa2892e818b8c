"""Documents: JSONL split on newlines only, hostile JSON answered in one line, pairing by id in linear time."""

from __future__ import annotations

import json

import pytest

from simpeval.documents import Documents, pair_documents, read_documents
from simpeval.errors import UsageError


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\u0085"])
def test_jsonl_with_a_raw_line_separator_inside_a_string_is_read(tmp_path, separator):
    path = tmp_path / "docs.jsonl"
    text = f"first part{separator}second part"
    path.write_text(json.dumps({"id": "a", "text": text}, ensure_ascii=False) + "\r\n"
                    + json.dumps({"id": "b", "text": "plain"}) + "\n", encoding="utf-8")
    assert separator in path.read_text(encoding="utf-8")  # written raw, not escaped
    documents = read_documents(str(path), "--sys")
    assert documents.ids == ["a", "b"] and documents.texts == [text, "plain"]


@pytest.mark.parametrize("line, problem", [
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('{"id": "a", "text": "x", "target": ' + "9" * 4301 + "}", "a number too long"),
])
def test_hostile_json_is_one_line(tmp_path, line, problem):
    path = tmp_path / "docs.jsonl"
    path.write_text(line + "\n")
    with pytest.raises(UsageError, match=f"line 1 is JSON that simpeval cannot read \\({problem}\\)"):
        read_documents(str(path), "--orig")


def test_a_four_hundred_digit_target_is_one_line(tmp_path):
    path = tmp_path / "docs.jsonl"
    path.write_text('{"id": "a", "text": "x", "target": ' + "9" * 400 + "}\n")
    with pytest.raises(UsageError, match=r'line 1 has "target": 9{37}\.\.\.: give a number'):
        read_documents(str(path), "--orig")


def test_pairing_many_ids_names_what_is_missing_and_extra():
    """Pairing uses sets (linear); with 40,000 ids it must still name exactly the odd ones out."""
    ids = [f"doc{i:05d}" for i in range(40_000)]
    first = Documents(ids, ids)
    shuffled = Documents(ids[::-1], ids[::-1])
    assert pair_documents([("--orig o", first), ("--sys s", shuffled), ("--refs r", shuffled)]) == ids
    lacking = Documents(ids[:-1], ids[:-1])
    with pytest.raises(UsageError, match=r"--sys s lacks documents 'doc39999' that --orig o has"):
        pair_documents([("--orig o", first), ("--sys s", lacking)])
    extra = Documents([*ids, "stray"], [*ids, "x"])
    with pytest.raises(UsageError, match=r"--sys s has documents 'stray' that --orig o lacks"):
        pair_documents([("--orig o", first), ("--sys s", extra)])


def test_hidden_files_in_a_document_directory_are_not_documents(tmp_path):
    (tmp_path / "d1.txt").write_text("one .")
    (tmp_path / ".d1.txt.swp.txt").write_text("an editor's leftover .")
    (tmp_path / ".x.txt").write_text("hidden .")
    assert read_documents(str(tmp_path), "--sys").ids == ["d1"]


@pytest.mark.parametrize("link, problem", [("nowhere.txt", "a link to nothing"), ("d2.txt", "a link that loops")])
def test_a_dangling_or_looping_link_is_one_line_not_a_missing_document(tmp_path, link, problem):
    (tmp_path / "d1.txt").write_text("one .")
    (tmp_path / "d2.txt").symlink_to(tmp_path / link)
    with pytest.raises(UsageError, match=rf"^--sys {tmp_path / 'd2.txt'} is {problem}: point it at a document "
                                         "or remove it$"):
        read_documents(str(tmp_path), "--sys")


def test_an_unreadable_document_directory_is_one_line(tmp_path, monkeypatch):
    import errno
    from pathlib import Path

    def refuse(self):
        raise PermissionError(errno.EACCES, "Permission denied", str(self))

    (tmp_path / "d1.txt").write_text("one .")
    monkeypatch.setattr(Path, "iterdir", refuse)  # root reads any directory: the refusal is simulated
    with pytest.raises(UsageError, match=rf"^cannot read --sys {tmp_path}: Permission denied; check its permissions$"):
        read_documents(str(tmp_path), "--sys")


def test_a_fifo_named_like_a_document_is_one_line_not_a_hang(tmp_path):
    import os

    (tmp_path / "d1.txt").write_text("one .")
    os.mkfifo(tmp_path / "d2.txt")
    with pytest.raises(UsageError, match=r"d2.txt is not a regular file: give documents as \.txt files"):
        read_documents(str(tmp_path), "--sys")
