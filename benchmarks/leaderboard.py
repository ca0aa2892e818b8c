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
``docs/leaderboard.md``, between two HTML comments, replacing the previous one; the sentence-level run
keeps the document section that is there.

Usage: ``SIMPEVAL_DATA_DIR=../shared/data python benchmarks/leaderboard.py [--level document] [--jobs N]
[--cache-dir DIR]``
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


def document_section(page: str) -> str:
    """The document section of ``page`` (markers included), or "" when it has none."""
    if DOCUMENT_START not in page or DOCUMENT_END not in page:
        return ""
    return page[page.index(DOCUMENT_START):page.index(DOCUMENT_END) + len(DOCUMENT_END)] + "\n"


def without_document_section(page: str) -> str:
    section = document_section(page)
    return page.replace(section, "").rstrip() + "\n" if section else page


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--docs", type=Path, default=ROOT / "docs")
    parser.add_argument("--level", choices=("sentence", "document"), default="sentence")
    parser.add_argument("--no-neural", action="store_true", help="leave neural metrics out (the page names them)")
    parser.add_argument("--cache-dir", type=Path, default=None,
                        help="score cache to read and extend (default: a fresh temporary one: a cold run)")
    args = parser.parse_args()
    load = load_average()
    page = args.docs / "leaderboard.md"
    old = page.read_text(encoding="utf-8") if page.exists() else ""
    with tempfile.TemporaryDirectory() as fresh:
        cache = args.cache_dir or Path(fresh)
        written = Path(fresh) / "document.md" if args.level == "document" else page
        outputs = ["-o", str(written)] + (["--html", str(args.docs / "leaderboard.html")]
                                          if args.level == "sentence" else [])
        subprocess.run([sys.executable, "-m", "simpeval", "leaderboard", "--level", args.level, "--jobs",
                        str(args.jobs), "--progress", "--cache-dir", str(cache), "--record-run", *outputs,
                        *(["--no-neural"] if args.no_neural else [])],
                       check=True)
        kind = "a kept score cache (`--cache-dir`)" if args.cache_dir else "a fresh score cache (a cold run)"
        command = "python benchmarks/leaderboard.py" + (" --level document" if args.level == "document" else "")
        text = (written.read_text(encoding="utf-8")
                + f"\nLoad average when the run started: {load:.1f}, when it ended: {load_average():.1f} "
                  f"(a shared machine); run with {kind}. `{command}` wrote this "
                  f"{'section' if args.level == 'document' else 'page'}.\n\n"
                + "\n".join(machine_lines()) + "\n")
    if args.level == "document":
        text = (without_document_section(old).rstrip() + "\n\n" + DOCUMENT_START + "\n\n" + text.rstrip()
                + "\n\n" + DOCUMENT_END + "\n")
    else:
        text = text.rstrip() + "\n\n" + document_section(old) if document_section(old) else text
    page.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
