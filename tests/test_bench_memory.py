"""benchmarks/bench_memory.py: the memory page's verdict names every metric as met, not met or not measured
(with the reason), and sledoc is measured with one target level for every item."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_memory  # noqa: E402


def _row(metric: str, n: int, rss: float, date: str, cpu_s: float = 1.0) -> dict:
    return {"metric": metric, "n": n, "maxrss_mb": rss, "budget_mb": "32", "date": date, "label": "after heap trim",
            "code": "abc1234", "items": "asset-valid", "status": 0, "cpu_s": cpu_s}


def test_the_verdict_names_every_metric():
    runs = [_row("sle", 3000, 575, "2026-11-27 05:21 UTC"), _row("sle", 15000, 607, "2026-11-27 05:22 UTC"),
            _row("siera", 3000, 610, "2026-11-27 05:21 UTC"), _row("siera", 15000, 700, "2026-11-27 05:25 UTC"),
            _row("judge", 60, 700, "2026-11-27 06:00 UTC", 70), _row("judge", 300, 710, "2026-11-27 06:10 UTC", 370)]
    line = bench_memory.verdict_line(runs)
    assert "met by `sle` (+32 MB); not met by `siera` (+90 MB); not measured: " in line
    # every other metric is said, the judge with why, never left out
    for name in bench_memory.METRICS:
        assert f"`{name}`" in line
    # 240 items in 300 CPU-s: 0.8 items per CPU-s, 15,000 items in 18,750 CPU-s
    assert ("`judge` (0.80 items per CPU-second between its 60- and 300-item runs, so 15,000 items would take "
            "about 5.2 CPU-hours on this shared 2-core machine; measured at 60 and 300 items instead, which does "
            "not judge the target)") in line
    assert "`bertscore` (no pair of runs at 3,000 and 15,000 items yet)" in line
    assert "`judge` (too slow for 15,000 items on this machine; no pair of runs on fewer items yet)" in (
        bench_memory.verdict_line(runs[:4]))
    # the judge's own pair is printed, without a verdict on the target
    (judge,) = [g for g in bench_memory.growth_lines(runs, True) if "`judge`" in g]
    assert judge.endswith("60 to 300 items, peak RSS 700 to 710 MB (+10 MB) (not the target's 3,000 and 15,000 "
                          "items: no verdict).")


def test_sledoc_gets_one_target_level():
    assert bench_memory.metric_spec("sledoc") == "sledoc:target=2"
    assert bench_memory.metric_spec("sle") == "sle"


def test_the_judge_section_compares_its_growth_with_its_largest_pass():
    runs = [_row("judge", 40, 1138, "2026-11-27 07:27 UTC", 43), _row("judge", 200, 1490, "2026-11-27 07:31 UTC", 193)]
    shapes = {"model": "m", "vocabulary": 49152, "batch_size": 16, "kept_positions": 16,
              "rows": [{"n": n, "rows": r, "length": t, "longest_prompt": 400, "logits_mb": r * t * 49152 * 4 / 2**20}
                       for n, r, t in ((40, 3, 284), (200, 10, 273), (3000, 16, 291), (15000, 16, 291))]}
    lines = bench_memory.judge_lines(shapes, runs)
    assert "| 200 | 10 x 273 | 512 | 400 |" in lines
    assert "computes the logits of its last 16 positions only (every position before code 4365897): rows x 16 x 49,152 float32 values (m)." in lines
    assert "Measured from 40 to 200 items (the newest pair): +352 MB of peak RSS; the largest pass's logits: +352 MB." in lines
    more = runs + [_row("judge", 1000, 2071, "2026-11-27 08:27 UTC", 893)]
    shapes["rows"].append({"n": 1000, "rows": 16, "length": 291, "longest_prompt": 400, "logits_mb": 873.0})
    assert ("Measured from 200 to 1,000 items (the newest pair): +581 MB of peak RSS; the largest pass's logits: "
            "+361 MB; the other +220 MB are not attributed (not investigated).") in bench_memory.judge_lines(shapes, more)
    assert any(line.startswith("From 3,000 to 15,000 items the largest pass's logits change by +0 MB") for line in lines)
    assert bench_memory.judge_lines(None, runs) == []
