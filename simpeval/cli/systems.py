"""``simpeval evaluate`` with a named test set and with several systems (``--sys A --sys B``,
``--sys-dir``), each compared with the first by ``--paired-bs`` or ``--paired-ar``: the
options that name the inputs, and the comparison's layout."""

from __future__ import annotations

from pathlib import Path

import click

from simpeval.fileio import check_same_length, read_lines
from simpeval.errors import UsageError


def resolve_inputs(orig_path, refs_paths, test_set, data_dir, sys_paths, sys_dir, paired_bs, paired_ar):
    """The originals, references and system files the options name, and the paired test asked for.

    ``--test-set`` stands for ``--orig`` and ``--refs``; ``--sys-dir`` adds every regular,
    non-hidden file of the directory (sorted by name) after the ``--sys`` files.
    """
    if test_set is not None:
        if orig_path is not None or refs_paths:
            raise UsageError("--test-set supplies --orig and --refs: give either the test set or the files")
        from simpeval.datadir import resolve_data_dir
        from simpeval.datasets.testsets import resolve_test_set_files

        orig, refs = resolve_test_set_files(resolve_data_dir(data_dir), test_set)
        orig_path, refs_paths = str(orig), tuple(str(p) for p in refs)
    elif orig_path is None:
        raise UsageError("no originals: pass --orig FILE or --test-set NAME (see `simpeval test-sets`)")
    paths = list(sys_paths)
    if sys_dir is not None:
        directory = Path(sys_dir)
        if not directory.is_dir():
            raise UsageError(f"--sys-dir {sys_dir} is not a directory: give a directory of system output files")
        found = sorted(p for p in directory.iterdir() if p.is_file() and not p.name.startswith("."))
        if not found:
            raise UsageError(f"--sys-dir {sys_dir} has no files: put one output file per system there")
        paths += [str(p) for p in found]
    if paired_bs and paired_ar:
        raise UsageError("--paired-bs and --paired-ar are two tests: choose one")
    test = "bs" if paired_bs else "ar" if paired_ar else None
    return orig_path, tuple(refs_paths), tuple(paths) or ("-",), test


def csv_test_set_of(orig_path) -> tuple[Path, str] | None:
    """``(data directory, name)`` of the test set whose originals are the CSV ``orig_path`` (DEplain-web's
    documents, one pair per row); None for any other file. ``-t`` passes that CSV as the originals, so
    every command that reads systems (evaluate, all-pairs, report) reads its documents, not its lines."""
    from simpeval.datasets.testsets import TEST_SETS

    path = Path(orig_path).as_posix() if orig_path not in (None, "-") else ""
    for spec in TEST_SETS.values():
        if spec.csv_columns is not None and path.endswith("/" + spec.orig):
            return Path(path[: -len(spec.orig)]), spec.name
    return None


def with_analysis(metric_specs, has_references: bool) -> tuple[str, ...]:
    """The ``-m`` specs (or the default ones) plus the word-level operations of ``--analysis``."""
    from simpeval.engine.metrics import default_specs

    return (*default_specs(metric_specs, has_references), "ops", *(("ops-f1",) if has_references else ()))


def system_names(paths) -> list[str]:
    """A short, unique name per system file: its file name, its path where names repeat, and
    ``#2``, ``#3``... after a path given more than once."""
    short = [Path(p).name if p != "-" else "stdin" for p in paths]
    names = [name if short.count(name) == 1 else str(p) for name, p in zip(short, paths)]
    return [name if names[:i].count(name) == 0 else f"{name}#{names[:i].count(name) + 1}"
            for i, name in enumerate(names)]


def read_systems(orig_path, sys_paths, refs_paths):
    """The originals, ``(name, outputs)`` per system and the item-major references (None without),
    all checked to have one line per item. For a CSV test set (:func:`csv_test_set`) a ``--sys`` that
    is the CSV itself scores its originals (the copy baseline)."""
    found = csv_test_set_of(orig_path)
    if found is not None:
        from simpeval.datasets.testsets import load_test_set

        loaded = load_test_set(*found)
        same = Path(orig_path).resolve()
        systems = [(name, loaded.sources if p != "-" and Path(p).resolve() == same else read_lines(p, "--sys"))
                   for name, p in zip(system_names(sys_paths), sys_paths)]
        check_same_length([(f"-t {loaded.name}", loaded.sources),
                           *((f"--sys {p}", outputs) for p, (_, outputs) in zip(sys_paths, systems))])
        return loaded.sources, systems, loaded.references
    sources = read_lines(orig_path, "--orig")
    systems = list(zip(system_names(sys_paths), (read_lines(p, "--sys") for p in sys_paths)))
    ref_columns = [read_lines(path, "--refs") for path in refs_paths]
    check_same_length([(f"--orig {orig_path}", sources),
                       *((f"--sys {p}", outputs) for p, (_, outputs) in zip(sys_paths, systems)),
                       *((f"--refs {p}", lines) for p, lines in zip(refs_paths, ref_columns))])
    references = [list(refs) for refs in zip(*ref_columns)] if ref_columns else None
    return sources, systems, references


def echo_comparison_notes(comparison, fmt: str) -> None:
    """After the comparison's table: each sub-score's signature and the paired test's settings,
    on standard error (CSV and JSON carry them in their records)."""
    if fmt in ("json", "csv"):
        return
    from simpeval.cli.easse_notes import bleu_casing_note

    for name in comparison.score_names:
        click.echo(f"# {name}: {comparison.signatures[name]}", err=True)
    note = bleu_casing_note(comparison.signatures.values())
    if note:
        click.echo(note, err=True)
    if comparison.test is not None and len(comparison.systems) == 1:
        click.echo(f"# bootstrap, {comparison.n_resamples} resamples, seed {comparison.seed}: "
                   "score (95% percentile interval)", err=True)
    elif comparison.test is not None:
        label = "paired bootstrap" if comparison.test == "bs" else "approximate randomization"
        from simpeval.systems_table import LEGEND, TERMINAL_LEGEND

        click.echo(f"# {label}, {comparison.n_resamples} resamples, seed {comparison.seed}: "
                   "score (95% interval) p-value against the first system", err=True)
        click.echo(f"# {LEGEND if fmt in ('markdown', 'latex') else TERMINAL_LEGEND}", err=True)
        echo_few_items_note(comparison.baseline.result.n_items)


def echo_few_items_note(n_items: int, consequence: str = "") -> None:
    """One line on standard error when ``n_items`` are too few for any paired test to make a claim
    (:data:`simpeval.significance.MIN_PAIRED_ITEMS`); nothing otherwise."""
    from simpeval.significance import MIN_PAIRED_ITEMS, enough_items

    if not enough_items(n_items):
        click.echo(f"# note: {n_items} items are too few for a paired test (at least {MIN_PAIRED_ITEMS}): "
                   f"p = nan, no claim of significance{consequence}", err=True)


def comparison_records(comparison) -> list[dict]:
    """One record per (system, sub-score): score, signature and, with a test, p-value and interval."""
    records = []
    for position, system in enumerate(comparison.systems):
        for name in comparison.score_names:
            record = {"system": system.name, "baseline": position == 0, "metric": name,
                      "score": system.result.corpus_scores[name], "signature": comparison.signatures[name]}
            interval = system.intervals.get(name)
            if interval is not None:
                record.update(mean=interval.mean, low=interval.low, high=interval.high)
            paired = system.tests.get(name)
            if paired is not None:
                record.update(p_value=paired.p_value, significant=paired.significant(),
                              verdict=paired.verdict(comparison.higher_is_better[name]))
            records.append(record)
    return records


def format_comparison(comparison, fmt: str, width: int | None = None) -> str:
    """Rows of systems, columns of sub-scores (CSV and JSON: one record per system and sub-score);
    the terminal table becomes a long one where it is wider than ``width``."""
    from simpeval.jsontext import dumps
    from simpeval.systems_table import format_systems
    from simpeval.tables import render

    records = comparison_records(comparison)
    if fmt == "json":
        payload = {"test": comparison.test, "resamples": comparison.n_resamples, "seed": comparison.seed,
                   "signatures": comparison.signatures, "results": records}
        return dumps(payload, indent=2) + "\n"
    if fmt == "csv":
        columns = ["system", "baseline", "metric", "score", "mean", "low", "high", "p_value", "significant", "verdict",
                   "signature"]
        return render(columns, [[r.get(c) for c in columns] for r in records], "csv")
    return format_systems(comparison, fmt, width)
