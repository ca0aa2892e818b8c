"""``meta-evaluate --bootstrap N``: the intervals reach every format, not only JSON."""

from __future__ import annotations

import csv
import json

import pytest

from test_metaeval_cli import published  # tests/ is on the path (conftest.py)


def _intervals(data_dir):
    """The JSON records' intervals (bootstrap 100, seed 0): what every other format must show."""
    result = published(data_dir, "--bootstrap", "100", "--format", "json")
    assert result.exit_code == 0, result.output
    return {(r["metric"], r["split"]): (r["ci_low"], r["ci_high"]) for r in json.loads(result.stdout)}


@pytest.mark.parametrize("fmt", ["table", "markdown", "latex"])
def test_every_table_format_shows_each_interval_beside_its_r(data_dir, fmt):
    intervals = _intervals(data_dir)
    result = published(data_dir, "--bootstrap", "100", "--format", fmt)
    assert result.exit_code == 0, result.output
    text = result.stdout
    percent = "\\%" if fmt == "latex" else "%"
    for split in ("Low", "High", "All"):
        assert f"95{percent} CI ({split})" in text
    low, high = intervals[("bleu", "All")]
    row = next(line for line in text.splitlines() if line.lstrip("| ").startswith("bleu"))
    assert f"({low:.3f}, {high:.3f})" in row
    assert "bootstrap=100 seed=0" in text  # the settings say how the intervals were drawn


def test_csv_has_both_bounds_at_full_precision(data_dir):
    intervals = _intervals(data_dir)
    result = published(data_dir, "--bootstrap", "100", "--format", "csv")
    rows = list(csv.DictReader(result.stdout.splitlines()))
    bleu = next(row for row in rows if row["metric"] == "bleu")
    for split in ("Low", "High", "All"):
        low, high = intervals[("bleu", split)]
        assert float(bleu[f"95% CI low ({split})"]) == low and float(bleu[f"95% CI high ({split})"]) == high


def test_no_interval_columns_without_bootstrap(data_dir):
    assert "CI" not in published(data_dir, "--format", "csv").stdout.splitlines()[0]
    assert "CI" not in published(data_dir).stdout
