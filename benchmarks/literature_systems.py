"""Score the published outputs of the literature systems on ``turkcorpus_test`` and ``asset_test``
and write ``docs/literature-systems.md``.

One command behind the docs' table: every file of ``system_outputs/turkcorpus/test`` (the
outputs EASSE collected from the systems' authors; the TurkCorpus test originals are ASSET's, so
the same outputs serve ``asset_test``) is scored with BLEU, SARI, FKGL, the quality-estimation
features and the word-level operations, through :func:`simpeval.runner.compare_systems`,
the library behind ``simpeval evaluate --test-set NAME --sys-dir DIR --paired-bs``. Each system
is tested against ACCESS (paired bootstrap, 1,000 resamples, seed 12345).

Usage: ``SIMPEVAL_DATA_DIR=../shared/data python benchmarks/literature_systems.py [-o docs/literature-systems.md]``
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from datetime import datetime, timezone
from pathlib import Path

from simpeval.cli.systems import system_names
from simpeval.datasets.testsets import load_test_set
from simpeval.registry import load_registry
from simpeval.runner import compare_systems, resolve_metrics
from simpeval.tables import render

TEST_SETS = ("turkcorpus_test", "asset_test")
BASELINE = "ACCESS"
METRICS = "bleu,sari,fkgl,qe-compression,qe-splits,qe-exact-copies,ops-deleted,ops-added"
COLUMNS = {  # sub-score -> (column title, tested against the baseline)
    "bleu": ("BLEU", True), "sari": ("SARI", True), "fkgl": ("FKGL", True),
    "qe-compression": ("compression", False), "qe-splits": ("splits", False),
    "qe-exact-copies": ("copies", False), "ops-deleted": ("deleted", False), "ops-added": ("added", False),
}
# Published EASSE values: (what, simpeval metric, sub-score, test set, system file, EASSE's value, source)
EASSE_VALUES = [
    ("SARI", "sari", "sari", "turkcorpus_test", "ACCESS", 41.381013, "EASSE tests/test_sari.py (from MUSS)"),
    ("compression ratio", "qe", "qe-compression", "turkcorpus_test", "ACCESS", 0.94079, "EASSE -q, quoted in issue 12"),
    ("compression ratio", "length", "length-compression", "turkcorpus_test", "ACCESS", 0.94079, "EASSE -q, quoted in issue 12"),
    *((what, metric, sub, "turkcorpus_test", "ACCESS", 1.2000928505106778,
       "EASSE's count_sentence_splits with NLTK's Punkt (issue 12's 1.2015 kept '. . .' as one sentence)")
      for what, metric, sub in [("sentence splits", "qe", "qe-splits"), ("sentence splits", "length", "length-splits")]),
    *(("FKGL", "fkgl", "fkgl", "asset_test", name, value,
       "EASSE's corpus_fkgl with NLTK's Punkt (tests/test_metric_fkgl.py)")
      for name, value in [("DMASS-DCSS", 7.7298081231361131), ("PBMT-R", 8.8463466533466537)]),
    *(("SARI legacy", "sari-legacy", "sari-legacy", "turkcorpus_test_legacy", f"tok.low/{name}.tok.low", value,
       "EASSE tests/test_sari.py, test_corpus_sari_legacy")
      for name, value in [("Dress-Ls", 37.266058818588216), ("Dress", 37.08210095744638),
                          ("EncDecA", 35.65754396121206), ("Hybrid", 31.39665078989411),
                          ("PBMT-R", 38.558843050332037), ("SBMT-SARI", 39.964857928109127)]),
]


def system_files(data_dir: Path) -> list[Path]:
    """The system output files, the baseline first, then by name."""
    files = sorted(p for p in (data_dir / "system_outputs/turkcorpus/test").iterdir() if p.is_file())
    return sorted(files, key=lambda p: p.name != BASELINE)


def score(data_dir: Path, name: str, files: list[Path]):
    test_set = load_test_set(data_dir, name)
    systems = list(zip(system_names([str(p) for p in files]),
                       (p.read_text(encoding="utf-8").splitlines() for p in files)))
    requests = resolve_metrics(load_registry(), [METRICS])
    return compare_systems(requests, test_set.sources, systems, test_set.references, test="bs"), test_set


def easse_checks(data_dir: Path) -> str:
    """simpeval beside every published EASSE value it can be checked against, as a Markdown table."""
    registry = load_registry()
    rows = []
    for what, metric, sub, name, system, expected, source in EASSE_VALUES:
        test_set = load_test_set(data_dir, name)
        outputs = (data_dir / "system_outputs/turkcorpus/test" / system).read_text(encoding="utf-8").splitlines()
        value = registry.create_metric(metric).corpus_score(test_set.sources, outputs, test_set.references)[sub]
        rows.append([what, f"`{sub}`", name, system, f"{value:.6f}", f"{expected}", f"{value - expected:+.1e}", source])
    return render(["value", "simpeval sub-score", "test set", "system", "simpeval", "EASSE", "difference", "EASSE source"],
                  rows, "markdown")


def table(comparison) -> str:
    rows = []
    for system in comparison.systems:
        row = [system.name]
        for sub, (_, tested) in COLUMNS.items():
            cell = f"{system.result.corpus_scores[sub]:.2f}"
            paired = system.tests.get(sub)
            if tested and paired is not None and not paired.significant():
                cell += " ="
            row.append(cell)
        rows.append(row)
    return render(["system", *(title for title, _ in COLUMNS.values())], rows, "markdown")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", default=str(Path(__file__).resolve().parents[1] / "docs/literature-systems.md"))
    args = parser.parse_args()
    data_dir = Path(os.environ["SIMPEVAL_DATA_DIR"])
    files = system_files(data_dir)
    started, load = time.perf_counter(), os.getloadavg()
    sections = []
    for name in TEST_SETS:
        comparison, test_set = score(data_dir, name, files)
        signatures = sorted(set(comparison.signatures.values()))
        sections += [f"## `{name}` ({len(test_set.sources)} sentences, {test_set.n_references} references)", "",
                     table(comparison), "Signatures:", "",
                     *(f"- `{s}`" for s in signatures), ""]
    elapsed = time.perf_counter() - started
    header = [
        "# Literature systems on TurkCorpus and ASSET",
        "",
        f"The published outputs of {len(files)} simplification systems (collected by EASSE from their authors, in",
        "`system_outputs/turkcorpus/test` of the data directory), scored on both test sets with one command:",
        "",
        "```bash",
        "SIMPEVAL_DATA_DIR=../shared/data python benchmarks/literature_systems.py",
        "```",
        "",
        "which runs what `simpeval evaluate --test-set NAME --sys-dir DIR -m "
        f"{METRICS} --paired-bs` runs, with {BASELINE} first. BLEU, SARI and FKGL are corpus scores "
        "(recomputed from resampled statistics in the bootstrap); compression, splits and copies are "
        "`qe`'s (EASSE's quality estimation), deleted and added `ops`' word-level proportions. ",
        f"**=** marks a BLEU, SARI or FKGL not significantly different from {BASELINE}'s (paired bootstrap, "
        "1,000 resamples, p >= 0.05); every other value of those three columns differs significantly.",
        "",
        "## Checks against EASSE's published values",
        "",
        "EASSE's values rounded as published; the figures of `-q` are rounded in EASSE's output.",
        "",
        easse_checks(data_dir),
        f"Recorded {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC on {platform.node() or 'unknown'} "
        f"({os.cpu_count()} CPUs, load average {load[0]:.2f} at the start), {elapsed:.0f} s for both test sets.",
        "",
    ]
    Path(args.output).write_text("\n".join(header + sections), encoding="utf-8")
    print(f"wrote {args.output} in {elapsed:.0f} s")


if __name__ == "__main__":
    main()
