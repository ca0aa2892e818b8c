"""What the documentation pages carry holds as a whole: every printed signature names its formula
(``name|formula:N|lang:xx|options|version``), in the pages and in the results files they are written from,
and docs/README.md links every page."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SIGNATURE = re.compile(r"[a-z0-9][a-z0-9-]*(?:\|[^|\s`\"']+)*\|version:[0-9][^\s`\"'|,;)]*")


def _signatures(path: Path) -> list[str]:
    return SIGNATURE.findall(path.read_text(encoding="utf-8", errors="replace"))


def test_every_signature_in_docs_and_results_names_its_formula():
    pages = [*ROOT.glob("docs/**/*.md"), ROOT / "README.md", *ROOT.glob("benchmarks/results/*.json")]
    found = {path: _signatures(path) for path in pages}
    assert sum(map(len, found.values())) > 10  # the pattern sees signatures at all
    stale = [f"{path.relative_to(ROOT)}: {s}" for path, signatures in found.items() for s in signatures
             if "|formula:" not in s]
    assert not stale, "signatures in the format before formula versions (regenerate the page by its script):\n" + \
        "\n".join(stale[:20])


def test_the_signature_pattern_tells_old_from_new():
    assert SIGNATURE.findall("`fkgl|formula:2|lang:en|tok:13a|version:0.1.0`") == \
        ["fkgl|formula:2|lang:en|tok:13a|version:0.1.0"]
    assert SIGNATURE.findall('"meaningbert|model:x@c153|clip:no|version:0.1.0",') == ["meaningbert|model:x@c153|clip:no|version:0.1.0"]


def test_every_page_is_linked_from_the_docs_index():
    """docs/README.md links each page under docs/ (a page nobody can find from the index is lost)."""
    index = ROOT / "docs" / "README.md"
    linked = {(index.parent / target).resolve()
              for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", index.read_text(encoding="utf-8"))}
    pages = [p for p in sorted((ROOT / "docs").rglob("*.md")) if p != index]
    assert len(pages) > 40
    missing = [str(p.relative_to(ROOT)) for p in pages if p.resolve() not in linked]
    assert not missing, "not linked from docs/README.md: " + ", ".join(missing)
    broken = sorted(str(t.relative_to(ROOT)) for t in linked if str(t).startswith(str(ROOT)) and not t.exists())
    assert not broken, "docs/README.md links pages that do not exist: " + ", ".join(broken)
