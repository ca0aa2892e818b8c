"""A learned metric's judged record: one small JSON beside its model card, and what is rendered from it.

The record holds, per section (``heldout``: the shipped checkpoint on rated data outside its
training data, written by ``benchmarks/learned_heldout.py``; ``trainer``: its trainer's
leave-one-dataset-out folds, written by the trainer's benchmark), every judged row
(:class:`simpeval.learning.verdict.Row`) with the script that wrote it. The metric card
(``docs/plugins/cards/NAME.md``, one fixed shape with front matter as Hugging Face ``evaluate``
metric cards have) and ``simpeval metrics show NAME`` are both rendered from it, so neither can
say more than the judge did.

The record lives at ``<model card's folder>/<metric>.judged.json`` (:func:`record_path`) and is
shipped with the plugin.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

from simpeval.learning.verdict import Row

__all__ = ["CARD_DIR", "SECTIONS", "card_markdown", "load_record", "record_path", "row_cells", "show_lines",
           "table_lines", "update_record"]

SECTIONS = {
    "heldout": "The shipped checkpoint on rated data outside its training data",
    "trainer": "Its trainer, leave-one-dataset-out (each fold trained without the dataset it is judged on)",
}
LABELS = {"heldout": "shipped checkpoint", "trainer": "trainer"}
CARD_DIR = Path("docs") / "plugins" / "cards"
BASELINES = ("every installed non-learned metric and sub-score of the registry (`simpeval.learning.baselines`), "
             "each in its best orientation")


def record_path(cls: type) -> Path | None:
    """Where ``cls``'s record is: beside its model card (None for a metric without one)."""
    return Path(cls.model_card).parent / f"{cls.name}.judged.json" if cls.model_card else None


def load_record(cls: type) -> dict | None:
    """``cls``'s record, or None when it has none (or it cannot be read)."""
    path = record_path(cls)
    try:
        return json.loads(path.read_text(encoding="utf-8")) if path is not None else None
    except (OSError, ValueError):
        return None


def update_record(cls: type, section: str, rows: Sequence[Row], written_by: str, notes: Sequence[str] = (),
                  data: Mapping | None = None) -> dict:
    """Replace one section of ``cls``'s record (the others kept) and write it; returns the record.

    :param data: figures of the section other than judged rows (JSON values) that the cards render from
        (e.g. ``sledoc``'s test-article baseline), kept under the section's ``"data"``.
    """
    from simpeval.cache import write_atomic

    if section not in SECTIONS:
        raise ValueError(f"unknown record section {section!r}: one of {', '.join(SECTIONS)}")
    record = load_record(cls) or {}
    record.update({"metric": cls.name, "higher_is_better": bool(cls.higher_is_better),
                   "trained_on": list(cls.trained_on), "baselines": BASELINES})
    record.setdefault("sections", {})[section] = {"written_by": written_by, "rows": [r.to_json() for r in rows],
                                                  "notes": list(notes), **({"data": dict(data)} if data else {})}
    write_atomic(record_path(cls), json.dumps(record, indent=1, sort_keys=True) + "\n")
    return record


def rows_of(record: Mapping, section: str) -> list[Row]:
    return [Row.from_json(r) for r in record.get("sections", {}).get(section, {}).get("rows", [])]


def _signed(value: float) -> str:
    return "n/a" if value != value else f"{value:+.3f}"


def _items(row: Row) -> str:
    return f"{row.n} unseen" if row.items == "unseen" else str(row.n)


def _verdict(row: Row) -> str:
    if row.verdict == "contaminated":
        return f"contaminated ({row.shared} items shared with its training data: not a test result)"
    return f"{row.verdict} ({row.margin:+.3f})" if row.verdict in ("win", "loss") else row.verdict


def _baseline(row: Row) -> str:
    """The strongest baseline's name, ``-name`` where it reaches its r with its sign flipped."""
    return f"{'-' if row.baseline_sign < 0 else ''}{row.baseline}"


def row_cells(row: Row) -> list[str]:
    """The judged cells of a row: r, the strongest baseline with its r (as oriented), the verdict."""
    baseline = "none" if row.baseline == "none" else f"{_baseline(row)} (of {row.baselines_compared})"
    return [_signed(row.r), baseline, _signed(row.baseline_r), _verdict(row)]


JUDGED_HEADER = ["r (its direction)", "strongest baseline", "its r", "verdict"]
"""A baseline named ``-x`` reaches its r with its sign flipped (lower x goes with higher ratings)."""


def table_lines(rows: Sequence[Row]) -> list[str]:
    """A Markdown table of judged rows."""
    header = ["dataset", "aspect", "score", "items", *JUDGED_HEADER]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in rows:
        lines.append("| " + " | ".join([row.dataset, row.aspect, row.score, _items(row), *row_cells(row)]) + " |")
    return lines


PLURALS = {"win": "wins", "loss": "losses", "contaminated": "contaminated", "undefined": "undefined"}


def _tally(rows: Sequence[Row]) -> str:
    counts = {v: sum(r.verdict == v for r in rows) for v in PLURALS}
    return ", ".join(f"{n} {v if n == 1 else PLURALS[v]}" for v, n in counts.items() if n) or "no rows"


def show_lines(cls: type) -> list[str]:
    """What ``simpeval metrics show`` prints about a learned metric: training data, then every judged row."""
    lines = [f"trained on: {', '.join(cls.trained_on)}"] if cls.trained_on else []
    record = load_record(cls)
    if record is None:
        path = record_path(cls)
        return [*lines, f"judged record: {path} is missing (reinstall the plugin)"] if path else lines
    lines.append(f"judged against {record['baselines']}; r in the metric's direction (higher is "
                 f"{'better' if record['higher_is_better'] else 'worse'}):")
    for key, title in SECTIONS.items():
        section = record.get("sections", {}).get(key)
        if section is None:
            continue
        rows = rows_of(record, key)
        lines.append(f"{title} ({section['written_by']}): {_tally(rows)}")
        for row in rows:
            r, baseline, value, verdict = row_cells(row)
            lines.append(f"  {row.dataset} / {row.aspect} ({row.score}, {_items(row)} items): r {r}; "
                         f"strongest baseline {baseline} {value}: {verdict}")
        lines += [f"  note: {note}" for note in section.get("notes", [])]
    lines.append(f"card: {CARD_DIR / (cls.name + '.md')}")
    return lines


def card_markdown(cls: type, record: Mapping | None, papers: str, limitations: Sequence[str] = ()) -> str:
    """The metric card, one fixed shape: front matter, description, inputs, outputs, training data, the judged
    rows per section, values from papers, limitations (every loss and contaminated row, then ``limitations``)."""
    doc = (cls.description or cls.__doc__ or "").strip().splitlines()
    inputs = ["sources", "outputs", *(["references"] if cls.requires_references else [])]
    front = ["---", f"title: {cls.name}", f"level: {cls.level}",
             f"inputs: [{', '.join(inputs)}]", f"outputs: [{', '.join(cls.score_names())}]",
             f"higher_is_better: {'true' if cls.higher_is_better else 'false'}",
             f"trained_on: [{', '.join(cls.trained_on)}]", f"record: {record_path(cls).name}", "---"]
    body = [f"# {cls.name}", "", "Written from the metric's judged record (`simpeval.learning.record`) by the "
            "benchmark that judged it; do not edit by hand.", "",
            "## Metric description", doc[0] if doc else "", "",
            "## Inputs",
            f"- sources and outputs: aligned lists of strings ({cls.level} level)",
            f"- references: {'needed' if cls.requires_references else 'not used'}", "",
            "## Outputs", f"- `{cls.name}` (primary; {'higher' if cls.higher_is_better else 'lower'} is better)",
            *[f"- `{s}`" for s in cls.score_names() if s != cls.name], "",
            "## Training data", f"- Trained on: {', '.join(cls.trained_on) or 'nothing'}.",
            "- A rated dataset sharing (source, output) items with these (the leaderboard's item key) is "
            "contaminated: its row over all items is no test result; a row over its unseen items follows.", ""]
    rows_all: list[tuple[str, Row]] = []
    for key, title in SECTIONS.items():
        section = (record or {}).get("sections", {}).get(key)
        if section is None:
            continue
        rows = rows_of(record, key)
        rows_all += [(LABELS[key], row) for row in rows]
        body += [f"## {title}", f"Written by `{section['written_by']}`; baselines: {record['baselines']}; "
                 f"{_tally(rows)}.", "", *table_lines(rows), "",
                 *[f"- {note}" for note in section.get("notes", [])], ""]
    body += ["## Values from papers", papers, "", "## Limitations"]
    body += [f"- {label}, {r.dataset} / {r.aspect} ({_items(r)} items): {_verdict(r)} against {_baseline(r)}"
             + (" (its r points the wrong way)" if r.r < 0 else "") for label, r in rows_all if r.verdict != "win"]
    body += [f"- {line}" for line in limitations]
    return "\n".join([*front, "", *body, ""])
