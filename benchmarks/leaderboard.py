"""Run ``simpeval leaderboard`` over every installed metric whose weights are available offline
(learned and neural ones included) and write ``docs/leaderboard.md`` and ``docs/leaderboard.html``:
the pages are the command's own output (``--record-run`` ends them with the run's time, machine,
load, and what was computed versus read from the score cache); this script chooses the options
and adds the machine and the load average before and after.

The score cache makes the run resumable and cheap to repeat: ``--cache-dir DIR`` keeps it (the
default is a fresh temporary directory, a cold run). A metric whose weights or code changed gets
new cache keys, so with a kept cache only its scorings and the cells are recomputed.

With ``--level document`` it runs ``simpeval leaderboard --level document`` (dwiki-2025's aspects,
cochrane-pairs, the perturbation checks) and writes that page as the document section at the end of
``docs/leaderboard.md``, between two HTML comments, replacing the previous one; ``--level languages``
does the same for the languages section (``simpeval leaderboard --level languages``: the rated German
data and the readability of single texts in German and the ReadMe++ languages); the sentence-level run
keeps the sections that are there. ``docs/leaderboard.html`` gets the same sections, each the body of the
level's own ``--html`` page, at the end of the page's ``<main>``.

Usage: ``SIMPEVAL_DATA_DIR=../shared/data python benchmarks/leaderboard.py [--level document|languages]
[--jobs N] [--cache-dir DIR]``
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from machine import load_average, machine_lines  # noqa: E402


DOCUMENT_START = "<!-- document level: written by python benchmarks/leaderboard.py --level document -->"
DOCUMENT_END = "<!-- end of the document level -->"
#: the sections other runs than the sentence-level one write, in page order: level -> (start, end) markers
SECTIONS = {"document": (DOCUMENT_START, DOCUMENT_END),
            "languages": ("<!-- languages: written by python benchmarks/leaderboard.py --level languages -->",
                          "<!-- end of the languages -->")}


def document_section(page: str, level: str = "document") -> str:
    """The section of ``level`` in ``page`` (markers included), or "" when it has none."""
    start, end = SECTIONS[level]
    if start not in page or end not in page:
        return ""
    return page[page.index(start):page.index(end) + len(end)] + "\n"


def without_document_section(page: str, level: str = "document") -> str:
    section = document_section(page, level)
    return page.replace(section, "").rstrip() + "\n" if section else page


def html_section(page: str, level: str) -> str:
    """The section of ``level`` in the HTML page (markers included), or "" when it has none."""
    return document_section(page, level)


def section_html(rendered: str, level: str, footer: list[str]) -> str:
    """A level's own rendered HTML page cut to a section of the main page: what its ``<main>`` holds (its
    ``h1`` title, tables, notes, signatures) and ``footer``, between the level's markers."""
    from html import escape

    body = rendered[rendered.index("<main>") + len("<main>"):rendered.rindex("</main>")].strip()
    start, end = SECTIONS[level]
    meta = "".join(f"<p>{escape(line)}</p>" for line in footer if line.strip())
    return f'{start}\n<section id="{level}">\n{body}\n<div class="meta">{meta}</div>\n</section>\n{end}\n'


def with_html_sections(page: str, sections: dict[str, str]) -> str:
    """``page`` (a rendered HTML leaderboard) with its level sections replaced by ``sections`` (level -> section,
    "" for none), in page order, at the end of its ``<main>``."""
    for level in SECTIONS:
        old = html_section(page, level)
        if old:
            page = page.replace(old, "")
    added = "".join(sections.get(level, "") for level in SECTIONS)
    at = page.rindex("</main>")
    return page[:at].rstrip("\n") + "\n" + added + page[at:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--docs", type=Path, default=ROOT / "docs")
    parser.add_argument("--level", choices=("sentence", *SECTIONS), default="sentence")
    parser.add_argument("--no-neural", action="store_true", help="leave neural metrics out (the page names them)")
    parser.add_argument("--cache-dir", type=Path, default=None,
                        help="score cache to read and extend (default: a fresh temporary one: a cold run)")
    args = parser.parse_args()
    load = load_average()
    page = args.docs / "leaderboard.md"
    old = page.read_text(encoding="utf-8") if page.exists() else ""
    #: a --cache-dir that holds nothing yet (kept only to resume an interrupted run) still makes a cold run
    was_empty = not args.cache_dir or not args.cache_dir.exists() or not any(args.cache_dir.iterdir())
    with tempfile.TemporaryDirectory() as fresh:
        cache = args.cache_dir or Path(fresh)
        written = Path(fresh) / "section.md" if args.level in SECTIONS else page
        html = args.docs / "leaderboard.html"
        old_html = html.read_text(encoding="utf-8") if html.exists() else ""
        written_html = Path(fresh) / "section.html" if args.level in SECTIONS else html
        outputs = ["-o", str(written), "--html", str(written_html)]
        subprocess.run([sys.executable, "-m", "simpeval", "leaderboard", "--level", args.level, "--jobs",
                        str(args.jobs), "--progress", "--cache-dir", str(cache), "--record-run", *outputs,
                        *(["--no-neural"] if args.no_neural else [])],
                       check=True)
        kind = ("a fresh score cache (a cold run)" if not args.cache_dir or was_empty
                else "a kept score cache (`--cache-dir`)")
        command = "python benchmarks/leaderboard.py" + (f" --level {args.level}" if args.level in SECTIONS else "")
        footer = [f"Load average when the run started: {load:.1f}, when it ended: {load_average():.1f} "
                  f"(a shared machine); run with {kind}. `{command}` wrote this "
                  f"{'section' if args.level in SECTIONS else 'page'}.", "", *machine_lines()]
        text = written.read_text(encoding="utf-8") + "\n" + "\n".join(footer) + "\n"
        html_sections = {level: html_section(old_html, level) for level in SECTIONS}
        if args.level in SECTIONS:  # into the sentence-level page (written by a sentence-level run)
            html_sections[args.level] = section_html(written_html.read_text(encoding="utf-8"), args.level, footer)
        base = html.read_text(encoding="utf-8") if html.exists() else ""
        if "</main>" in base:
            html.write_text(with_html_sections(base, html_sections), encoding="utf-8")
    sections = {level: document_section(old, level) for level in SECTIONS}
    if args.level in SECTIONS:
        start, end = SECTIONS[args.level]
        sections[args.level] = start + "\n\n" + text.rstrip() + "\n\n" + end + "\n"
        text = old
        for level in SECTIONS:
            text = without_document_section(text, level)
    text = "\n\n".join([text.rstrip(), *(s.rstrip() for s in sections.values() if s)]) + "\n"
    page.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
