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



def test_a_pair_measured_on_a_gpu_is_judged_apart_from_the_cpu():
    gpu = "GPU NVIDIA H100 80GB HBM3"
    runs = [_row("judge", 1000, 1080, "2026-11-27 10:30 UTC", 770), _row("judge", 3000, 1106, "2026-11-27 11:04 UTC", 2118),
            {**_row("judge", 3000, 1676, "2026-11-27 12:24 UTC"), "device": gpu},
            {**_row("judge", 15000, 1747, "2026-11-27 12:25 UTC"), "device": gpu}]
    line = bench_memory.verdict_line(runs)
    # the GPU's pair gets the GPU's verdict, named as such; the CPU's pair (rows without a device) is not mixed in
    assert f"met by `judge` on the {gpu} (+71 MB); not met by none; not measured: " in line
    assert "`judge` on the CPU (1.48 items per CPU-second between its 1,000- and 3,000-item runs" in line
    growth = [g for g in bench_memory.growth_lines(runs, True) if "`judge`" in g]
    assert growth[0].endswith("1,000 to 3,000 items, peak RSS 1080 to 1106 MB (+26 MB) (not the target's 3,000 and "
                              "15,000 items: no verdict).")
    assert growth[1].startswith(f"- `judge` (after heap trim) on the {gpu}, budget 32 MB")
    assert growth[1].endswith("3,000 to 15,000 items, peak RSS 1676 to 1747 MB (+71 MB) (target: at most +80 MB: met).")

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
    assert "Measured from 40 to 200 items (the newest pair, after heap trim): +352 MB of peak RSS; the largest pass's logits: +352 MB." in lines
    more = runs + [_row("judge", 1000, 2071, "2026-11-27 08:27 UTC", 893)]
    shapes["rows"].append({"n": 1000, "rows": 16, "length": 291, "longest_prompt": 400, "logits_mb": 873.0})
    assert ("Measured from 200 to 1,000 items (the newest pair, after heap trim): +581 MB of peak RSS; the largest pass's logits: "
            "+361 MB; the other +220 MB are not attributed (not investigated).") in bench_memory.judge_lines(shapes, more)
    assert any(line.startswith("From 3,000 to 15,000 items the largest pass's logits change by +0 MB") for line in lines)
    assert bench_memory.judge_lines(None, runs) == []


def test_the_judge_section_shows_its_per_pass_runs():
    runs = [_row("judge", 40, 984, "2026-11-27 08:59 UTC", 33), _row("judge", 1000, 1238, "2026-11-27 08:59 UTC", 715)]
    shapes = {"model": "m", "vocabulary": 49152, "batch_size": 16, "kept_positions": 16, "tokens_per_pass": 2048,
              "rows": [{"n": n, "rows": r, "length": t, "longest_prompt": p, "logits_mb": r * 16 * 49152 * 4 / 2**20}
                       for n, r, t, p in ((40, 3, 284, 354), (1000, 7, 292, 370), (3000, 7, 292, 378),
                                          (15000, 7, 292, 393))]}
    passes = [{"code": "abc1234", "label": "no token bound", "n": 400, "passes": 86, "baseline_first_mb": 946.1,
               "baseline_last_mb": 960.5, "top_pass": "14 x 273", "top_transient_mb": 266.4, "peak_mb": 1226.9,
               "passes_cpu_s": 299.3, "load": 4.0, "load_after": 5.0, "date": "2026-11-27 10:00 UTC"}]
    lines = bench_memory.judge_lines(shapes, runs, passes)
    assert any("at most 16 prompts and at most 2,048 tokens (from code" in line for line in lines)
    assert ("Measured from 40 to 1,000 items (the newest pair, after heap trim): +254 MB of peak RSS; the largest "
            "pass's logits: +12 MB; the other +242 MB: see the passes below.") in lines
    assert "| abc1234 | no token bound | 400 | 86 | 946 / 960 | - | 14 x 273 | 266 | 1227 | 299 | 4.0 / 5.0 | 2026-11-27 10:00 UTC |" in lines
    assert lines[-1] == ("From 3,000 to 15,000 items the largest pass's logits change by +0 MB (longest prompt 378 to "
                         "393 tokens): the largest pass is 7 x 292 at both, so what it adds does not grow; a prediction "
                         "from the shapes, not a measurement of those sizes.")
    assert bench_memory.pass_lines([]) == []


def test_a_per_pass_run_is_summarised_by_its_largest_pass_and_what_is_held_between_passes():
    import judge_memory_passes

    def one(rows, tokens, baseline, peak):
        return {"rows": rows, "tokens": tokens, "baseline_mb": baseline, "peak_mb": peak, "cpu_s": 1.5}

    passes = [one(1, 350, 450.0, 950.0), one(7, 292, 940.0, 1080.0), one(2, 300, 955.0, 990.0), one(1, 200, 950.0, 965.0)]
    got = judge_memory_passes.summary(passes, loading_peak_mb=700.0)
    assert got == {"passes": 4, "peak_mb": 1080.0, "top_pass": "7 x 292", "top_transient_mb": 140.0,
                   "top_baseline_mb": 940.0, "baseline_first_mb": 940.0, "baseline_last_mb": 950.0,
                   "baseline_max_mb": 955.0, "passes_cpu_s": 6.0}
    assert judge_memory_passes.summary(passes[:1], loading_peak_mb=1200.0)["peak_mb"] == 1200.0


def test_the_last_pass_where_what_is_held_grew():
    detail = [{"baseline_mb": mb} for mb in (450.0, 946.0, 946.5, 951.3, 951.4, 956.0, 956.2, 956.1)]
    assert bench_memory.last_growth(detail) == "6"  # 951.4 -> 956.0 before the sixth pass
    assert bench_memory.last_growth(detail[:3]) == "-"  # the first pass reads the weights in: left out
