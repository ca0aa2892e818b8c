"""EASSE's named test sets: originals and references read from the data directory by name.

``simpeval evaluate --test-set asset_test`` stands for ``--orig`` and ``--refs`` with the
files EASSE ships under the same names (its ``resources/data/test_sets``); here they live
under ``references/`` in the data directory (``SIMPEVAL_DATA_DIR`` or ``--data-dir``). A
missing file ends the command with one line naming the file and its public source.

A test set declares its language (``lang``, the default of ``--lang``), where its published
system outputs are (``systems``, for ``--sys-dir``) and, where its items carry licences of their
own (DEplain-web's), the metadata file and column that hold them. DEplain-web's document test
set is a CSV with one document pair per row (``csv_columns``), its sentences on separate lines,
which a document's line joins with spaces, as DEplain's evaluation did.
"""

from __future__ import annotations

import csv
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from simpeval.datadir import require_file
from simpeval.errors import UsageError
from simpeval.languages import ENGLISH


@dataclass(frozen=True)
class TestSetSpec:
    """Where one named test set's files are, relative to the data directory."""

    __test__ = False  # not a pytest class

    name: str
    orig: str
    refs: tuple[str, ...]
    source: str
    description: str
    lang: str = ENGLISH  # the language of the texts (ISO 639-1), the default of --lang
    systems: str | None = None  # directory of published system outputs, one file per system
    meta: str | None = None  # per-item metadata CSV (one row per item)
    licence_column: str | None = None  # the column of ``meta`` (or of the CSV) with each item's licence
    csv_columns: tuple[str, str] | None = None  # (original, reference) columns when ``orig`` is a CSV
    licence: str = ""  # the licence of the whole set, where one applies


@dataclass(frozen=True)
class TestSet:
    """The originals of a test set and their references, item-major (``references[i]``)."""

    __test__ = False

    name: str
    sources: list[str]
    references: list[list[str]]

    @property
    def n_references(self) -> int:
        return len(self.references[0]) if self.references else 0


_ASSET = "https://github.com/facebookresearch/asset"
_DEPLAIN = "https://github.com/rstodden/DEPlain"
_TURK = "https://github.com/cocoxu/simplification"
_EASSE = "https://github.com/feralvam/easse/tree/master/easse/resources/data/test_sets"


def _numbered(pattern: str, indices: range) -> tuple[str, ...]:
    return tuple(pattern.format(i) for i in indices)


def _specs() -> dict[str, TestSetSpec]:
    a, t, tl = "references/asset/", "references/turkcorpus/", "references/turkcorpus/legacy/"
    specs = [
        TestSetSpec("asset_test", a + "asset.test.orig", _numbered(a + "asset.test.simp.{}", range(10)),
                    _ASSET, "ASSET test: 359 sentences, 10 references"),
        TestSetSpec("asset_valid", a + "asset.valid.orig", _numbered(a + "asset.valid.simp.{}", range(10)),
                    _ASSET, "ASSET validation: 2,000 sentences, 10 references"),
        TestSetSpec("turkcorpus_test", t + "test.truecase.detok.orig",
                    _numbered(t + "test.truecase.detok.simp.{}", range(8)),
                    _TURK, "TurkCorpus test (truecased, detokenised): 359 sentences, 8 references"),
        TestSetSpec("turkcorpus_valid", t + "tune.truecase.detok.orig",
                    _numbered(t + "tune.truecase.detok.simp.{}", range(8)),
                    _TURK, "TurkCorpus tune (truecased, detokenised): 2,000 sentences, 8 references"),
        TestSetSpec("turkcorpus_test_legacy", tl + "test.8turkers.tok.norm",
                    _numbered(tl + "test.8turkers.tok.turk.{}", range(8)),
                    _TURK, "TurkCorpus test as first released (tokenised, lower-cased), 8 references"),
        TestSetSpec("turkcorpus_valid_legacy", tl + "tune.8turkers.tok.norm",
                    _numbered(tl + "tune.8turkers.tok.turk.{}", range(8)),
                    _TURK, "TurkCorpus tune as first released (tokenised, lower-cased), 8 references"),
        TestSetSpec("pwkp_test", "references/pwkp/pwkp.test.orig", ("references/pwkp/pwkp.test.simp",),
                    _EASSE, "PWKP (Zhu et al. 2010) test: 100 sentences, 1 reference"),
        TestSetSpec("pwkp_valid", "references/pwkp/pwkp.valid.orig", ("references/pwkp/pwkp.valid.simp",),
                    _EASSE, "PWKP validation: 205 sentences, 1 reference"),
        TestSetSpec("hsplit_test", "references/hsplit/hsplit.tok.src",
                    _numbered("references/hsplit/hsplit.tok.{}", range(1, 5)),
                    "https://github.com/eliorsulem/HSplit-corpus",
                    "HSplit (tokenised, lower-cased): 359 sentences, 4 sentence-splitting references"),
        TestSetSpec("wikisplit_test", "references/wikisplit/wikisplit.test.untok.orig",
                    ("references/wikisplit/wikisplit.test.untok.split",),
                    "https://github.com/google-research-datasets/wiki-split",
                    "WikiSplit test: 5,000 sentences, 1 split reference"),
        TestSetSpec("wikisplit_valid", "references/wikisplit/wikisplit.valid.untok.orig",
                    ("references/wikisplit/wikisplit.valid.untok.split",),
                    "https://github.com/google-research-datasets/wiki-split",
                    "WikiSplit validation: 5,000 sentences, 1 split reference"),
        TestSetSpec("googlecomp_test", "references/googlecomp/googlecomp.test.orig",
                    ("references/googlecomp/googlecomp.test.comp",),
                    "https://github.com/google-research-datasets/sentence-compression",
                    "Google sentence compression test: 1,000 sentences, 1 compression"),
        TestSetSpec("googlecomp_valid", "references/googlecomp/googlecomp.valid.orig",
                    ("references/googlecomp/googlecomp.valid.comp",),
                    "https://github.com/google-research-datasets/sentence-compression",
                    "Google sentence compression validation: 1,000 sentences, 1 compression"),
        TestSetSpec("qats_test", "references/qats/qats.test.orig", ("references/qats/qats.test.simp",),
                    "http://qats2016.github.io/shared.html",
                    "QATS 2016 shared task test: 126 sentence pairs, 1 simplification"),
        TestSetSpec("deplain-web_test", "references/deplain-web/DEplain-web-manual-public.test.org",
                    ("references/deplain-web/DEplain-web-manual-public.test.simp",), _DEPLAIN,
                    "DEplain-web manual test (German): 1,846 sentence pairs, 1 reference, a licence per pair",
                    lang="de", systems="system_outputs/deplain-web/test",
                    meta="references/deplain-web/DEplain-web-manual-public.test.meta", licence_column="license",
                    licence="per pair (CC-BY-4, CC-BY-NC-ND-4, CC-BY-SA-3, save_use_share): see simpeval data"),
        TestSetSpec("deplain-web-doc_test", "references/deplain-web-doc/plain-text/test.csv",
                    ("references/deplain-web-doc/plain-text/test.csv",), _DEPLAIN,
                    "DEplain-web manual document test (German): 147 documents, 1 reference, a licence per pair",
                    lang="de", systems="system_outputs/deplain-web-doc/test", licence_column="license",
                    csv_columns=("original", "simplification"),
                    licence="per document (CC-BY-4, CC-BY-NC-ND-4, CC-BY-SA-3, save_use_share): see simpeval data"),
    ]
    return {spec.name: spec for spec in specs}


TEST_SETS: dict[str, TestSetSpec] = _specs()


def named_test_sets() -> list[str]:
    """The names ``--test-set`` accepts, in EASSE's order."""
    return list(TEST_SETS)


def lookup_test_set(name: str) -> TestSetSpec:
    """The files of test set ``name``; :class:`UsageError` naming the known sets if there is none."""
    if name not in TEST_SETS:
        raise UsageError(f'unknown test set "{name}": choose one of {", ".join(TEST_SETS)} '
                         "(see `simpeval test-sets`)")
    return TEST_SETS[name]


def read_data_lines(path: Path) -> list[str]:
    """Lines of a data file (UTF-8, optional byte-order mark), without the final empty line."""
    lines = path.read_text(encoding="utf-8-sig").replace("\r\n", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def resolve_test_set_files(data_dir: Path, name: str) -> tuple[Path, list[Path]]:
    """The originals file and reference files of test set ``name``, which must all exist.

    :raises UsageError: for an unknown name, or naming a missing file and its public source.
    """
    spec = lookup_test_set(name)
    return (require_file(data_dir, spec.orig, spec.source),
            [require_file(data_dir, relative, spec.source) for relative in spec.refs])


def _csv_rows(path: Path) -> list[dict[str, str]]:
    csv.field_size_limit(1 << 30)  # a document is one field
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def _document(text: str) -> str:
    """A document on one line: its lines joined with single spaces."""
    return " ".join(line.strip() for line in text.splitlines() if line.strip())


def load_test_set(data_dir: Path, name: str) -> TestSet:
    """Read test set ``name`` from ``data_dir``.

    :raises UsageError: as :func:`resolve_test_set_files`, or when a reference file's line count
        differs from the originals'.
    """
    orig, ref_paths = resolve_test_set_files(data_dir, name)
    spec = lookup_test_set(name)
    if spec.csv_columns is not None:
        rows = _csv_rows(orig)
        original, reference = spec.csv_columns
        return TestSet(name, [_document(row[original]) for row in rows], [[_document(row[reference])] for row in rows])
    sources = read_data_lines(orig)
    columns = []
    for path in ref_paths:
        column = read_data_lines(path)
        if len(column) != len(sources):
            raise UsageError(f"{path} has {len(column)} lines but {orig} has {len(sources)}: "
                             f"re-fetch test set {name} from {lookup_test_set(name).source}")
        columns.append(column)
    return TestSet(name, sources, [list(refs) for refs in zip(*columns)])


def licence_counts(data_dir: Path, name: str) -> Counter[str]:
    """How many items of test set ``name`` carry each licence (empty where the set declares none)."""
    spec = lookup_test_set(name)
    if spec.licence_column is None:
        return Counter()
    path = require_file(data_dir, spec.meta or spec.orig, spec.source)
    return Counter(row[spec.licence_column] for row in _csv_rows(path))


def published_outputs(data_dir: Path, name: str) -> list[Path]:
    """The published system output files of test set ``name``, sorted by name (none: empty)."""
    spec = lookup_test_set(name)
    directory = data_dir / spec.systems if spec.systems else None
    if directory is None or not directory.is_dir():
        return []
    return sorted(p for p in directory.iterdir() if p.is_file() and not p.name.startswith("."))


def availability(data_dir: Path | None, name: str) -> str:
    """``ok`` when every file of ``name`` is in ``data_dir``, else ``missing N files``."""
    spec = lookup_test_set(name)
    if data_dir is None:
        return "no data dir"
    missing = [p for p in (spec.orig, *spec.refs) if not (data_dir / p).is_file()]
    return "ok" if not missing else f"missing {len(missing)} files"
