"""Paired significance tests on constructed cases whose answers are known."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from simpeval import significance as sig
from simpeval.metrics.bleu import Bleu


def test_mean_statistics_give_the_mean_without_nan():
    stats, scorer = sig.mean_statistics(np.array([[1.0, 2.0], [3.0, np.nan], [5.0, 4.0]]))
    assert scorer(stats.sum(axis=0, keepdims=True)).tolist() == [[3.0, 3.0]]


@pytest.mark.parametrize("test", [sig.paired_bootstrap, sig.approximate_randomization])
def test_a_system_against_itself_has_p_one(test):
    stats, scorer = sig.mean_statistics(np.random.default_rng(1).random(50))
    (result,) = test(stats, stats, scorer, np.random.default_rng(2), 500)
    assert result.p_value == 1.0 and result.score == result.baseline


def test_bootstrap_of_a_constant_shift_is_always_significant():
    # every resample shows exactly the observed difference, so the centred null never reaches it
    base = np.random.default_rng(3).random(40)
    base_stats, scorer = sig.mean_statistics(base)
    sys_stats, _ = sig.mean_statistics(base + 0.25)
    (result,) = sig.paired_bootstrap(base_stats, sys_stats, scorer, np.random.default_rng(4), 1000)
    assert result.p_value == pytest.approx(1 / 1001)
    assert result.score - result.baseline == pytest.approx(0.25)


def test_approximate_randomization_matches_the_exact_permutation_test():
    rng = np.random.default_rng(5)
    base, system = rng.random(10), rng.random(10) + 0.2
    observed = abs(system.mean() - base.mean())
    diffs = system - base
    flips = np.array(list(itertools.product([1, -1], repeat=10)))
    exact = np.mean(np.abs(flips @ diffs) / 10 >= observed - 1e-12)
    base_stats, scorer = sig.mean_statistics(base)
    sys_stats, _ = sig.mean_statistics(system)
    (result,) = sig.approximate_randomization(base_stats, sys_stats, scorer, np.random.default_rng(6), 20000)
    standard_error = np.sqrt(exact * (1 - exact) / 20000)
    assert abs(result.p_value - exact) < 4 * standard_error + 1e-4
    assert 0.01 < exact < 0.2  # a case that is neither trivial nor certain


def test_bootstrap_interval_equals_direct_resampling():
    values = np.random.default_rng(7).normal(size=30)
    stats, scorer = sig.mean_statistics(values)
    (interval,) = sig.bootstrap_interval(stats, scorer, np.random.default_rng(8), 400)
    draws = np.random.default_rng(8).integers(0, 30, size=(400, 30))
    means = np.sort(values[draws].mean(axis=1))
    assert interval.mean == pytest.approx(means.mean())
    assert (interval.low, interval.high) == pytest.approx((means[10], means[389]))


def test_interval_of_cuts_two_and_a_half_percent_each_side():
    interval = sig.interval_of(np.arange(1000.0)[::-1])
    assert (interval.low, interval.high, interval.mean) == (25.0, 974.0, 499.5)


def test_p_value_counts_ties_and_adds_one():
    assert sig.p_value(np.array([0.0, 1.0, 2.0, 3.0]), 2.0) == 3 / 5


def test_corpus_bleu_is_recomputed_from_resampled_counts_not_averaged():
    outputs = ["the cat sat on the mat", "a dog barked", "it rained all day long today", "hello"]
    refs = [["the cat sat on a mat"], ["the dog barked"], ["it rained all day"], ["hello there"]]
    sources = ["x"] * 4
    bleu = Bleu()
    stats = np.array(bleu.corpus_statistics(sources, outputs, refs), dtype=float)
    weights = sig.bootstrap_weights(4, 5, np.random.default_rng(9))
    for row in weights:
        picked = [i for i, count in enumerate(row) for _ in range(int(count))]
        direct = bleu.corpus_score([sources[i] for i in picked], [outputs[i] for i in picked], [refs[i] for i in picked])
        assert bleu.corpus_score_from_statistics(row @ stats)["bleu"] == pytest.approx(direct["bleu"])
    mean_of_sentences = np.mean(bleu.sentence_scores(sources, outputs, refs)["bleu"])
    corpus = bleu.corpus_score_from_statistics(stats.sum(axis=0))["bleu"]
    assert corpus == pytest.approx(bleu.corpus_score(sources, outputs, refs)["bleu"])
    assert abs(corpus - mean_of_sentences) > 1


def test_paired_shapes_must_agree():
    stats, scorer = sig.mean_statistics(np.zeros(3))
    with pytest.raises(ValueError, match="one shape"):
        sig.paired_bootstrap(stats, stats[:2], scorer, np.random.default_rng(0))


@pytest.fixture(scope="module")
def bleu_systems(data_dir):
    from simpeval.datasets.testsets import load_test_set

    test_set = load_test_set(data_dir, "turkcorpus_test")
    outputs = {name: (data_dir / "system_outputs/turkcorpus/test" / name).read_text(encoding="utf-8").splitlines()
               for name in ("ACCESS", "Dress", "Hybrid")}
    return test_set, outputs


@pytest.mark.parametrize("test_type", ["bs", "ar"])
@pytest.mark.slow
def test_bleu_paired_tests_equal_sacrebleus(bleu_systems, test_type, monkeypatch):
    # sacrebleu's PairedTest with its default seed draws the same resamples (bs) and swaps (ar)
    from sacrebleu.metrics import BLEU
    from sacrebleu.significance import PairedTest

    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    test_set, outputs = bleu_systems
    streams = [list(column) for column in zip(*test_set.references)]
    n = 1000 if test_type == "bs" else 2000
    paired = PairedTest(list(outputs.items()), {"BLEU": BLEU(references=streams)}, None, test_type=test_type,
                        n_samples=n, n_ar_confidence=-1)
    _, sacre = paired()
    bleu = Bleu()
    stats = {name: np.array(bleu.corpus_statistics(test_set.sources, out, test_set.references), dtype=float)
             for name, out in outputs.items()}

    def scorer(totals):
        return np.array([[bleu.corpus_score_from_statistics(row)["bleu"]] for row in totals.tolist()])

    for position, name in enumerate(["Dress", "Hybrid"], start=1):
        test = sig.paired_bootstrap if test_type == "bs" else sig.approximate_randomization
        (ours,) = test(stats["ACCESS"], stats[name], scorer, np.random.default_rng(12345), n)
        theirs = sacre["BLEU"][position]
        assert ours.score == pytest.approx(theirs.score, abs=1e-9)
        assert ours.p_value == pytest.approx(theirs.p_value)
        if test_type == "bs":
            assert ours.interval.mean == pytest.approx(theirs.mean, abs=1e-3)  # sacrebleu sums in float32
            assert (ours.interval.high - ours.interval.low) / 2 == pytest.approx(theirs.ci, abs=1e-3)


def test_chunked_swaps_equal_one_draw(monkeypatch):
    # a corpus large enough to be chunked still gets the swaps of a single draw (sacrebleu's)
    monkeypatch.setattr(sig, "_CHUNK_CELLS", 5000)
    base, system = np.random.default_rng(10).random((2, 333))
    base_stats, scorer = sig.mean_statistics(base)
    sys_stats, _ = sig.mean_statistics(system)
    (chunked,) = sig.approximate_randomization(base_stats, sys_stats, scorer, np.random.default_rng(3), 100, 10)
    swaps = np.random.default_rng(3).integers(2, size=(100, 333), dtype=bool)
    pseudo_a = np.where(swaps, base, system).mean(axis=1)
    pseudo_b = np.where(swaps, system, base).mean(axis=1)
    expected = sig.p_value(np.abs(pseudo_a - pseudo_b), abs(system.mean() - base.mean()))
    assert chunked.p_value == expected


@pytest.mark.parametrize("test", [sig.paired_bootstrap, sig.approximate_randomization])
@pytest.mark.parametrize("n_items", [1, 3, 5])
def test_too_few_items_give_no_claim(test, n_items):
    """One to five items: every resample is (nearly) the sample itself, so resampling would say
    p = 0.001; the exact permutation test cannot go below 2/2**n >= 0.0625. No claim: p is NaN."""
    base_stats, scorer = sig.mean_statistics(np.arange(n_items, dtype=float))
    sys_stats, _ = sig.mean_statistics(np.arange(n_items, dtype=float) + 0.5)
    (result,) = test(base_stats, sys_stats, scorer, np.random.default_rng(1), 1000)
    assert np.isnan(result.p_value) and not result.significant()
    assert result.score - result.baseline == pytest.approx(0.5)


@pytest.mark.parametrize("test", [sig.paired_bootstrap, sig.approximate_randomization])
def test_six_items_are_enough_for_a_claim(test):
    base_stats, scorer = sig.mean_statistics(np.arange(6, dtype=float))
    sys_stats, _ = sig.mean_statistics(np.arange(6, dtype=float) + 0.5)
    (result,) = test(base_stats, sys_stats, scorer, np.random.default_rng(1), 1000)
    assert result.p_value < 0.05 and result.significant()


def test_bootstrap_in_chunks_equals_bootstrap_in_one_draw(monkeypatch):
    rng = np.random.default_rng(11)
    base_stats, scorer = sig.mean_statistics(rng.random((300, 2)))
    sys_stats, _ = sig.mean_statistics(rng.random((300, 2)))
    whole = sig.paired_bootstrap(base_stats, sys_stats, scorer, np.random.default_rng(12), 500)
    interval = sig.bootstrap_interval(sys_stats, scorer, np.random.default_rng(12), 500)
    monkeypatch.setattr(sig, "_CHUNK_CELLS", 300 * 7)  # 7 resamples a chunk: 72 chunks, the last short
    assert len(sig._chunks(500, 300, multiple=1)) == 72
    chunked = sig.paired_bootstrap(base_stats, sys_stats, scorer, np.random.default_rng(12), 500)
    assert [t.p_value for t in chunked] == [t.p_value for t in whole]  # the same resamples
    flat = [(t.score, t.baseline, t.interval.mean, t.interval.low, t.interval.high) for t in whole]
    assert [(t.score, t.baseline, t.interval.mean, t.interval.low, t.interval.high) for t in chunked] == \
        [pytest.approx(row, rel=1e-12) for row in flat]  # matrix products may round in another order
    again = sig.bootstrap_interval(sys_stats, scorer, np.random.default_rng(12), 500)
    assert [(i.mean, i.low, i.high) for i in again] == \
        [pytest.approx((i.mean, i.low, i.high), rel=1e-12) for i in interval]
    draws = np.random.default_rng(12).integers(0, 300, size=(500, 300))  # the one draw, by hand
    means = np.sort(sys_stats[:, 0][draws].mean(axis=1))
    assert interval[0].low == pytest.approx(means[12]) and interval[0].high == pytest.approx(means[487])


def test_bootstrap_memory_does_not_grow_with_resamples_times_items():
    """20,000 items x 1,000 resamples: one draw of all needs over 600 MB (draws, counts, weights)."""
    import tracemalloc

    stats, scorer = sig.mean_statistics(np.random.default_rng(13).random(20000))
    tracemalloc.start()
    try:
        sig.paired_bootstrap(stats, stats[::-1].copy(), scorer, np.random.default_rng(14), 1000)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 200 * 2**20, f"peak {peak / 2**20:.0f} MiB"
