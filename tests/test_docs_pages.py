"""What the documentation pages carry holds as a whole: every printed signature names its formula
(``name|formula:N|lang:xx|options|version``), in the pages and in the results files they are written from,
docs/README.md links every page, and the hand-written pages that carried measured numbers carry none."""

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


# Pages written by hand that issue 27 found carrying hand-typed measurements. What they may still print is
# listed here, each a formula constant, a setting, a tolerance, a version or an identifier; a measured number
# (a score, a difference, a time, a ratio, a count from a run) belongs on a page a script in benchmarks/
# writes, which the hand-written page links.
MEASURED_LOOKING = re.compile(
    r"(?<![\w.])(?:\d[\d,]*(?:\.\d+)? ?(?:x|ms|s|min|%)(?!\w)"  # times, ratios, shares
    r"|\d+\.\d+(?:e-?\d+)?(?!\w|\.\d)|\d+e-\d+(?!\w))"  # decimals (not versions such as 0.7.3)
)
HAND_WRITTEN_PAGES = {
    "docs/plugins/cescore.md": {
        "0.10", "0.22", "0.33", "0.45", "0.5", "0.55", "0.55 min", "0.95", "7.5",  # the formulas' constants and values
        "1e-9", "1e-16",  # the parity test's tolerance; one ulp
        "3.8", "3.9", "3.10",  # NLTK versions
    },
    "docs/meta-evaluation.md": {
        "0.05", "0.5", "1.0", "1e-9",  # --alpha, the aligner's ratio, mt-metrics-eval's sample rate, tolerance
        "90%", "95%",  # interval levels
        "2305.14324",  # an arXiv identifier
    },
    "docs/comparing-systems.md": {
        "0.05", "0.001", "0.0010", "0.0625", "2.5%", "95%",  # alpha, the tests' resolution, 2/2^5, tails, level
    },
}


def test_the_hand_written_pages_carry_no_measured_number():
    for page, allowed in HAND_WRITTEN_PAGES.items():
        text = (ROOT / page).read_text(encoding="utf-8")
        assert "do not edit by hand" not in text  # hand-written: no script rewrites it
        found = set(MEASURED_LOOKING.findall(text))
        assert found - allowed == set(), f"{page}: measured numbers? link the script-written page instead"


def test_the_measured_number_pattern_tells_measurements_from_versions():
    found = MEASURED_LOOKING.findall("12.6x faster, 20 s, 75.39, S 2.2e-16, 48% of 1,750; textstat 0.7.3, nltk 3.9.")
    assert found == ["12.6x", "20 s", "75.39", "2.2e-16", "48%", "3.9"]
