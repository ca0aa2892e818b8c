"""Document inputs: a directory of ``.txt`` files or a ``.jsonl`` file, one document per entry.

Sentence-per-line files cannot hold multi-sentence texts, so ``simpeval evaluate``
also takes documents (issue 11, Cripwell et al. 2024). Each document has an id (a
``.txt`` file's name without the extension, or a ``.jsonl`` record's ``"id"``), its
text, and optionally a ``"target"`` reading level (``.jsonl`` only) that metrics such
as ``sledoc`` score against. The documents of ``--orig``, ``--sys`` and ``--refs`` are
paired by id; a missing or extra id is an error that names it.

Reading is strict: UTF-8 (a byte-order mark is dropped), every ``.jsonl`` line a
JSON object with a string ``"id"`` and ``"text"``, no id twice. Texts and ids are read in
Unicode's composed form (NFC), so ids that differ only in that form pair.
"""

from __future__ import annotations

import errno
import json
import math
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from simpeval.errors import UsageError
from simpeval.fileio import BOM, normalized, not_utf8, note_read

SUFFIX = ".txt"
JSONL = ".jsonl"


@dataclass
class Documents:
    """Documents in input order: ``ids[i]`` names ``texts[i]``; ``targets`` maps an id to its target level."""

    ids: list[str]
    texts: list[str]
    targets: dict[str, float] = field(default_factory=dict)

    def ordered(self, ids: Sequence[str]) -> list[str]:
        """The texts in the order of ``ids`` (every id must be present)."""
        index = dict(zip(self.ids, self.texts))
        return [index[i] for i in ids]


def is_document_input(path: str) -> bool:
    """Whether ``path`` holds documents (a directory or a ``.jsonl`` file) rather than one item a line."""
    return path != "-" and (Path(path).is_dir() or path.endswith(JSONL))


def read_documents(path: str, option: str) -> Documents:
    """The documents of a directory of ``.txt`` files (sorted by name) or of a ``.jsonl`` file."""
    documents = _read_directory(Path(path), option) if Path(path).is_dir() else _read_jsonl(Path(path), option)
    if not documents.ids:
        what = f"no {SUFFIX} file" if Path(path).is_dir() else "no document"
        raise UsageError(f"{option} {path} has {what}: give one document per {SUFFIX} file or .jsonl line")
    return documents


def pair_documents(named: Sequence[tuple[str, Documents]]) -> list[str]:
    """The ids of the first input, after checking that every other input has exactly those ids.

    :param named: ``(option and path, documents)``, the first being ``--orig``.
    :raises UsageError: naming the first input whose ids differ and the ids missing or extra.
    """
    (first_name, first), *rest = named
    wanted = set(first.ids)
    for name, documents in rest:
        present = set(documents.ids)  # sets: pairing is linear in the number of documents
        missing = [i for i in first.ids if i not in present]
        extra = [i for i in documents.ids if i not in wanted]
        if missing:
            raise UsageError(
                f"{name} lacks documents {_listed(missing)} that {first_name} has: give one per id"
            )
        if extra:
            raise UsageError(
                f"{name} has documents {_listed(extra)} that {first_name} lacks: remove them or add them there"
            )
    return list(first.ids)


def _listed(ids: Sequence[str], most: int = 5) -> str:
    shown = ", ".join(repr(i) for i in ids[:most])
    return shown + (f" and {len(ids) - most} more" if len(ids) > most else "")


def _decode(data: bytes, option: str, path: Path) -> str:
    """Strict UTF-8 (a byte-order mark dropped), in Unicode's composed form as every input (:func:`normalized`)."""
    try:
        return normalized(data.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        skip = len(BOM) if data.startswith(BOM) else 0
        raise not_utf8(option, path, data[skip + exc.start], skip + exc.start, data[:2]) from None


def _read_bytes(path: Path, option: str) -> bytes:
    note_read(path)  # an output of this command must never replace it
    try:
        return path.read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read {option} {path}: {exc.strerror}; check the path") from None


def _read_directory(directory: Path, option: str) -> Documents:
    """Every ``*.txt`` file of ``directory`` (not its subdirectories), its name without ``.txt`` as id.

    Hidden files (``.x.txt``, an editor's ``.d1.txt.swp.txt``) are not documents. A ``.txt``
    entry that cannot be a document is an error, never silently one document fewer: a link to
    nothing, a link that loops, a FIFO or a device (which would hang the run).
    """
    try:
        entries = sorted(directory.iterdir())
    except OSError as exc:
        raise UsageError(f"cannot read {option} {directory}: {exc.strerror}; check its permissions") from None
    files = [p for p in entries if p.suffix == SUFFIX and not p.name.startswith(".") and _is_document(p, option)]
    ids: dict[str, Path] = {}
    for file in files:  # ids in composed form: names typed on two systems pair (see normalized)
        earlier = ids.setdefault(normalized(file.stem), file)
        if earlier is not file:
            raise UsageError(f"{option} {earlier.name} and {file.name} name one document (they differ only in "
                             "the Unicode form of their names): remove one")
    texts = [_decode(_read_bytes(p, option), option, p).replace("\r\n", "\n") for p in files]
    return Documents(list(ids), texts)


def _is_document(path: Path, option: str) -> bool:
    """Whether directory entry ``path`` is a document file (False for a subdirectory); else :class:`UsageError`."""
    try:
        mode = path.stat().st_mode
    except OSError as exc:
        problem = {errno.ENOENT: "a link to nothing", errno.ELOOP: "a link that loops"}.get(exc.errno)
        if problem is None:
            raise UsageError(f"cannot read {option} {path}: {exc.strerror}; check the path") from None
        raise UsageError(f"{option} {path} is {problem}: point it at a document or remove it") from None
    if stat.S_ISDIR(mode):
        return False
    if not stat.S_ISREG(mode):
        raise UsageError(f"{option} {path} is not a regular file: give documents as .txt files")
    return True


def _read_jsonl(path: Path, option: str) -> Documents:
    """One ``{"id", "text"[, "target"]}`` object a line; blank lines are skipped."""
    documents = Documents([], [])
    seen: set[str] = set()
    # "\n" alone ends a line (CRLF too): str.splitlines would also split at U+2028, U+0085 and
    # other characters JSON allows raw inside a string
    lines = _decode(_read_bytes(path, option), option, path).split("\n")
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{option} {path} line {number}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise UsageError(f"{where} is not JSON ({exc.msg}): write one JSON object a line") from None
        except (ValueError, RecursionError) as exc:  # an integer over 4,300 digits, nesting too deep
            problem = "nested too deeply" if isinstance(exc, RecursionError) else "a number too long"
            raise UsageError(f"{where} is JSON that simpeval cannot read ({problem}): write one flat "
                             '{"id": ..., "text": ...} object a line') from None
        if not isinstance(record, dict):
            raise UsageError(f'{where} is not a JSON object: write {{"id": ..., "text": ...}}')
        doc_id, text = record.get("id"), record.get("text")
        if not isinstance(doc_id, str) or not isinstance(text, str):
            raise UsageError(f'{where} needs a string "id" and a string "text"')
        doc_id, text = normalized(doc_id), normalized(text)  # again: JSON may escape a decomposed form
        if doc_id in seen:
            raise UsageError(f"{where} repeats the id {doc_id!r}: ids must be unique")
        seen.add(doc_id)
        documents.ids.append(doc_id)
        documents.texts.append(text)
        if "target" in record:
            documents.targets[doc_id] = _target(record["target"], where)
    return documents


def _target(value: object, where: str) -> float:
    try:
        number = float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else math.nan
    except OverflowError:  # an integer of hundreds of digits
        number = math.inf
    if not math.isfinite(number):
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        raise UsageError(f'{where} has "target": {shown}: give a number (a reading level)')
    return number
