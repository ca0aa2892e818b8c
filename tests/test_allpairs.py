"""``--all-pairs``: every pair of systems, against scipy's ``ttest_rel`` and sacrebleu's ``PairedTest``."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner
from scipy import stats as sp

from simpeval import significance as sig
from simpeval.allpairs import MetricStatistics, compare_all_pairs, paired_ttest, win_tie_loss
from simpeval.metrics.bleu import Bleu

SYSTEMS = ("ACCESS", "Dress", "Hybrid")


def test_paired_ttest_equals_scipy():
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=50), rng.normal(0.3, 1, size=50)
    t, p = paired_ttest(a, b)
    expected = sp.ttest_rel(a, b)
    assert (t, p) == (pytest.approx(expected.statistic, abs=1e-12), pytest.approx(expected.pvalue, abs=1e-12))
    a[3], b[7] = np.nan, np.nan  # items missing on either side are left out of both
    keep = np.isfinite(a) & np.isfinite(b)
    expected = sp.ttest_rel(a[keep], b[keep])
    assert paired_ttest(a, b) == (pytest.approx(expected.statistic, abs=1e-12),
                                  pytest.approx(expected.pvalue, abs=1e-12))
    assert np.isnan(paired_ttest(np.arange(9.0), np.arange(9.0) + 1)[1])  # differences without spread: no test


def test_win_tie_loss_by_hand():
    a, b = np.array([1, 2, 3, 4, np.nan]), np.array([0, 2, 5, 1, 1])
    assert win_tie_loss(a, b) == (0.5, 0.25, 0.25)
    assert win_tie_loss(a, b, higher_is_better=False) == (0.25, 0.25, 0.5)  # e.g. FKGL: lower wins


@pytest.fixture(scope="module")
def bleu_statistics(data_dir):
    from simpeval.datasets.testsets import load_test_set

    test_set = load_test_set(data_dir, "turkcorpus_test")
    outputs = {name: (data_dir / "system_outputs/turkcorpus/test" / name).read_text(encoding="utf-8").splitlines()
               for name in SYSTEMS}
    bleu = Bleu()
    stats = [np.array(bleu.corpus_statistics(test_set.sources, outputs[n], test_set.references), dtype=float)
             for n in SYSTEMS]

    def scorer(totals):
        return np.array([[bleu.corpus_score_from_statistics(row)["bleu"]] for row in totals.tolist()])

    return test_set, outputs, MetricStatistics(["bleu"], [True], stats, scorer)


@pytest.mark.parametrize("test_type", ["bs", "ar"])
def test_every_pair_equals_sacrebleus_paired_test(bleu_statistics, test_type, monkeypatch):
    # sacrebleu compares each system with its first (the baseline): run it once per baseline
    from sacrebleu.metrics import BLEU
    from sacrebleu.significance import PairedTest

    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    test_set, outputs, metric = bleu_statistics
    streams = [list(column) for column in zip(*test_set.references)]
    n = 1000
    ours = compare_all_pairs(SYSTEMS, [metric], n_bootstrap=n, n_ar=n if test_type == "ar" else None,
                             use_holm=False)
    pairs = {(p.first, p.second): p for p in ours.pairs["bleu"]}
    assert len(pairs) == 3
    for baseline, others in (("ACCESS", ["Dress", "Hybrid"]), ("Dress", ["Hybrid"])):
        named = [(baseline, outputs[baseline]), *((o, outputs[o]) for o in others)]
        _, sacre = PairedTest(named, {"BLEU": BLEU(references=streams)}, None, test_type=test_type, n_samples=n,
                              n_ar_confidence=-1)()
        for position, other in enumerate(others, start=1):
            theirs = sacre["BLEU"][position]
            pair = pairs[(baseline, other)]
            assert pair.delta == pytest.approx(sacre["BLEU"][0].score - theirs.score, abs=1e-9)
            assert (pair.p_bootstrap if test_type == "bs" else pair.p_ar) == pytest.approx(theirs.p_value)
    # the same resamples as a pair-by-pair paired_bootstrap with the seed, and the same intervals
    (direct,) = sig.paired_bootstrap(metric.stats[1], metric.stats[2], metric.scorer, np.random.default_rng(12345), n)
    assert pairs[("Dress", "Hybrid")].p_bootstrap == direct.p_value
    hybrid = next(r for r in ours.rankings["bleu"] if r.system == "Hybrid")
    assert (hybrid.low, hybrid.high) == (direct.interval.low, direct.interval.high)


def test_ranking_clusters_and_holm(bleu_statistics):
    _, _, metric = bleu_statistics
    # BLEU on TurkCorpus: Dress and ACCESS are close, Hybrid far below
    result = compare_all_pairs(SYSTEMS, [metric], n_bootstrap=1000, use_holm=False)
    ranking = result.rankings["bleu"]
    assert [r.system for r in ranking] == sorted(SYSTEMS, key=lambda s: -next(r.score for r in ranking
                                                                            if r.system == s))
    p = {(x.first, x.second): x.p_bootstrap for x in result.pairs["bleu"]}
    first, second, third = (r.system for r in ranking)

    def beats(a, b):
        return p.get((a, b), p.get((b, a))) < 0.05

    # the rule applied by hand: a system opens a new cluster when a member of the current one beats it
    rank_second = 2 if beats(first, second) else 1
    current = [second] if rank_second == 2 else [first, second]
    rank_third = rank_second + 1 if any(beats(c, third) for c in current) else rank_second
    assert [r.rank for r in ranking] == [1, rank_second, rank_third]
    assert rank_third == 2 or rank_second == 2  # Hybrid is far below the other two
    holm = compare_all_pairs(SYSTEMS, [metric], n_bootstrap=1000, use_holm=True)
    raw = sorted(x.p_bootstrap for x in result.pairs["bleu"])
    adjusted = sorted(x.p_holm for x in holm.pairs["bleu"])
    assert adjusted[0] == pytest.approx(min(1.0, 3 * raw[0]))


def test_all_pairs_command(data_dir):
    from simpeval.cli import cli

    args = ["evaluate", "-t", "turkcorpus_test", "--data-dir", str(data_dir), "-m", "bleu,fkgl", "--all-pairs",
            "--paired-n", "1000", "--format", "json",
            *(x for name in SYSTEMS for x in ("--sys", str(data_dir / "system_outputs/turkcorpus/test" / name)))]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["systems"] == list(SYSTEMS) and payload["bootstrap_resamples"] == 1000 and payload["holm"]
    fkgl = payload["rankings"]["fkgl"]
    assert fkgl[0]["system"] == "Hybrid" and fkgl[0]["score"] == min(r["score"] for r in fkgl)  # lower is better
    assert all(r["low"] <= r["score"] <= r["high"] for r in fkgl)
    pairs = payload["pairs"]["fkgl"]
    assert [(p["first"], p["second"]) for p in pairs] == [("ACCESS", "Dress"), ("ACCESS", "Hybrid"),
                                                          ("Dress", "Hybrid")]
    for pair in pairs:
        assert pair["wins"] + pair["ties"] + pair["losses"] == pytest.approx(1.0)
        assert 0 < pair["p_ttest"] <= 1 and pair["p_holm"] >= pair["p_bootstrap"]
    table = CliRunner().invoke(cli, [a for a in args if a not in ("--format", "json")])
    assert table.exit_code == 0 and "rank (bleu)" in table.stdout and "pairs on fkgl" in table.stdout


def test_all_pairs_needs_two_systems(data_dir):
    from simpeval.cli import cli

    result = CliRunner().invoke(cli, ["evaluate", "-t", "turkcorpus_test", "--data-dir", str(data_dir), "-m", "fkgl",
                                      "--all-pairs", "--sys", str(data_dir / "system_outputs/turkcorpus/test/ACCESS")])
    assert result.exit_code == 2 and "two or more" in result.output


@pytest.mark.parametrize("fmt", ["markdown", "html"])
def test_report_all_pairs_section(data_dir, tmp_path, fmt):
    from simpeval.cli import cli

    out = tmp_path / f"report.{fmt}"
    args = ["report", "-t", "turkcorpus_test", "--data-dir", str(data_dir), "-m", "bleu,fkgl", "--all-pairs",
            "--paired-n", "1000", "--samples", "0", "--format", fmt, "-o", str(out),
            *(x for name in SYSTEMS for x in ("--sys", str(data_dir / "system_outputs/turkcorpus/test" / name)))]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert "All pairs of systems" in text and "rank (fkgl)" in text and "Holm-corrected" in text
    # Hybrid has the lowest FKGL: first in the FKGL column's cluster 1, last in BLEU
    assert text.count("Hybrid") >= 3


def _integer_statistics(n_items: int) -> MetricStatistics:
    """Three systems' integer statistics (sums exact in any order) and a mean scorer, two sub-scores."""
    rng = np.random.default_rng(2026)
    stats = [rng.integers(0, 5, size=(n_items, 2)).astype(float) for _ in range(3)]
    stats[1][:, 0] += rng.integers(0, 2, size=n_items)
    stats[2][:, 0] += 1
    data = [np.concatenate([s, np.ones((n_items, 1))], axis=1) for s in stats]
    return MetricStatistics(["x", "y"], [True, False], data, lambda totals: totals[:, :2] / totals[:, 2:])


# recorded by this call on the code that drew all resamples in one (n_bootstrap, n_items) array (fba75e4)
RECORDED_P = {"x": [(0.0014265335235378032, 0.0042796005706134095)] * 3,
              "y": [(0.04992867332382311, 0.09985734664764621), (0.2624821683309558, 0.2624821683309558),
                    (0.02710413694721826, 0.08131241084165478)]}
RECORDED_RANKINGS = {
    "x": [("C", 1, 3.0895571428571422, 2.9425, 3.22), ("B", 2, 2.480267857142857, 2.3375, 2.6125),
          ("A", 3, 1.9072500000000001, 1.765, 2.05)],
    "y": [("C", 1, 1.9888964285714286, 1.8525, 2.1275), ("A", 1, 2.0327964285714284, 1.9025, 2.165),
          ("B", 1, 2.1798357142857143, 2.04, 2.31)],
}


@pytest.mark.parametrize("rows_per_chunk", [None, 9])
def test_all_pairs_in_chunks_equal_the_one_array_values(monkeypatch, rows_per_chunk):
    if rows_per_chunk:  # 9 resamples a chunk: 78 chunks, the last short
        monkeypatch.setattr(sig, "_CHUNK_CELLS", 400 * rows_per_chunk)
        assert len(sig._chunks(700, 400, multiple=1)) == 78
    result = compare_all_pairs(["A", "B", "C"], [_integer_statistics(400)], n_bootstrap=700, seed=7)
    for sub in ("x", "y"):
        assert [(p.p_bootstrap, p.p_holm) for p in result.pairs[sub]] == RECORDED_P[sub]
        assert [(r.system, r.rank, r.mean, r.low, r.high) for r in result.rankings[sub]] == RECORDED_RANKINGS[sub]


def test_all_pairs_memory_does_not_grow_with_resamples_times_items(monkeypatch):
    import tracemalloc

    monkeypatch.setattr(sig, "_CHUNK_CELLS", 1 << 16)  # chunks of 65,536 draws (0.5 MB of float64)
    metric = _integer_statistics(5000)
    tracemalloc.start()
    try:
        compare_all_pairs(["A", "B", "C"], [metric], n_bootstrap=2000, seed=7)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # one array of 2,000 x 5,000 resample weights alone is 80 MB (and its draws another 80 MB)
    assert peak < 8 * 2**20, f"{peak / 2**20:.1f} MB"


@pytest.mark.parametrize("n_items", [1, 3, 5])
def test_all_pairs_on_too_few_items_claim_nothing(n_items):
    """The paired tests' rule (:data:`simpeval.significance.MIN_PAIRED_ITEMS`) holds for every pair."""
    values = [np.arange(n_items, dtype=float) + shift for shift in (0.0, 0.5, 10.0)]
    stats = [sig.mean_statistics(v)[0] for v in values]
    metric = MetricStatistics(["m"], [True], stats, sig.mean_statistics(values[0])[1],
                              [v[:, None] for v in values])
    result = compare_all_pairs(["A", "B", "C"], [metric], n_bootstrap=1000, n_ar=1000, seed=1)
    for pair in result.pairs["m"]:
        assert np.isnan(pair.p_bootstrap) and np.isnan(pair.p_ar) and np.isnan(pair.p_holm)
        assert np.isnan(pair.p_ttest) and np.isnan(pair.t)
    assert [(r.system, r.rank) for r in result.rankings["m"]] == [("C", 1), ("B", 1), ("A", 1)]
    assert result.rankings["m"][0].score == pytest.approx(10.0 + (n_items - 1) / 2)


def test_all_pairs_on_six_items_ranks(monkeypatch):
    values = [np.arange(6, dtype=float) + shift for shift in (0.0, 0.5, 10.0)]
    stats = [sig.mean_statistics(v)[0] for v in values]
    metric = MetricStatistics(["m"], [True], stats, sig.mean_statistics(values[0])[1],
                              [v[:, None] for v in values])
    result = compare_all_pairs(["A", "B", "C"], [metric], n_bootstrap=1000, seed=1, use_holm=False)
    assert all(p.p_bootstrap < 0.05 for p in result.pairs["m"])
    assert [(r.system, r.rank) for r in result.rankings["m"]] == [("C", 1), ("B", 2), ("A", 3)]


def test_all_pairs_command_on_too_few_items_says_so(tmp_path):
    from simpeval.cli import cli

    lines = {"orig": ["A long sentence .", "Another one .", "A third ."],
             "ref": ["Short .", "Another .", "Third ."], "s1": ["Short .", "One .", "A third ."],
             "s2": ["A long one .", "Another one here .", "Third ."]}
    for name, text in lines.items():
        (tmp_path / name).write_text("\n".join(text) + "\n")
    result = CliRunner().invoke(cli, ["evaluate", "--orig", str(tmp_path / "orig"), "--refs", str(tmp_path / "ref"),
                                      "--sys", str(tmp_path / "s1"), "--sys", str(tmp_path / "s2"), "-m", "bleu",
                                      "--all-pairs", "--no-cache", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert ("# note: 3 items are too few for a paired test (at least 6): p = nan, no claim of significance; "
            "every system shares rank 1") in result.stderr.splitlines()
    pair = json.loads(result.stdout)["pairs"]["bleu"][0]
    assert pair["p_bootstrap"] is None and pair["p_ttest"] is None
