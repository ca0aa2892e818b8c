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
