"""The tie-aware correlations and ``--average-by`` (issue 19) against their definitions and mt-metrics-eval.

Three kinds of checks:

1. values worked out by hand from Deutsch et al. (2023, arXiv 2305.14324, §3-4) and Kocmi et al.
   (2021) on hand-made vectors with ties, constant groups and missing items;
2. the same vectors through mt-metrics-eval's own functions, run outside the project;
3. ``simpeval meta-evaluate`` on real data (Simplicity-DA's human z-scores and raw means against
   the published per-item scores in ``metaeval/metrics_simplicity_DA.csv``; Structural
   Simplicity against simpeval's bleu/sari/fkgl) equal to mt-metrics-eval to 1e-9.

How the mt-metrics-eval values were obtained (google-research/mt-metrics-eval, commit
0b82d96b9a75ac392ddc44587fff2acae2c3c63e, Apache-2.0; not on PyPI, so its ``stats.py`` and
``tau_optimization.py`` were saved under /tmp/mtme/mt_metrics_eval/ and never enter this project)::

    # hand-made vectors (the values in test_hand_vectors_equal_mt_metrics_eval)
    cd /tmp/mtme && env -u PYTHONPATH /work/main/.venv/bin/python oracle_hand.py
    # real data: simpeval writes the vectors, mt-metrics-eval correlates them
    cd /work/wt-metaeval && source /work/wt-env.sh && python /tmp/mtme/dump_simplicity_da.py \
        && python /tmp/mtme/dump_structural.py
    cd /tmp/mtme && env -u PYTHONPATH /work/main/.venv/bin/python oracle_real.py
    cd /tmp/mtme && env -u PYTHONPATH /work/main/.venv/bin/python oracle_structural.py

``oracle_real.py`` packs each vector into mt-metrics-eval's systems x items matrix (6 systems x
302 sources, ``None`` where a system has no rated output for a source) and calls
``stats.KendallVariants(h, m, variant=..., epsilon=...)``,
``stats.AverageCorrelation(fn, 6, 'item'|'sys', ...)(H, M)`` with fn = ``scipy.stats.pearsonr``,
``spearmanr``, ``kendalltau`` or ``stats.KendallVariants`` (``variant='acc23'|'23'``),
``stats.KendallWithTiesOpt(H, M, variant='acc23', num_sys=6, average_by=..., sample_rate=1.0)``
and, on the system means, ``stats.Agreement(h, m)`` (agree / pairs).
"""

from __future__ import annotations

import json

import click
import numpy as np
import pytest
from click.testing import CliRunner

from simpeval.cli import SimpevalGroup
from simpeval.cli.meta_evaluate import meta_evaluate
from simpeval.metaeval import grouped, ties

PUBLISHED = "metaeval/metrics_simplicity_DA.csv"


@click.group(cls=SimpevalGroup)
def root() -> None:
    """meta-evaluate behind the core's error handling."""


root.add_command(meta_evaluate)


def run(*args):
    return CliRunner().invoke(root, [str(a) for a in args])


# --- 1. by hand from the definitions ---------------------------------------------------------

H = np.array([1, 2, 2, 3, np.nan, 4])
M = np.array([0.1, 0.3, 0.3, 0.2, 0.9, 0.5])


def test_pair_classes_by_hand():
    # the nan item is dropped; of the 10 pairs of the other 5: (1,2) tied in both, (1,3) and
    # (2,3) discordant, the other 7 concordant
    counts = ties.pair_counts(H, M)
    assert (counts.con, counts.dis, counts.ties_human, counts.ties_metric, counts.ties_both) == (7, 2, 0, 0, 1)
    assert ties.acc23(H, M) == pytest.approx(8 / 10, abs=1e-15)
    assert ties.kendall_23(H, M) == pytest.approx((7 + 1 - 2) / 10, abs=1e-15)


def test_tie_epsilon_by_hand():
    # epsilon 0.15 ties the three pairs 0.1 apart: (0,3) was concordant, (1,3), (2,3) discordant
    counts = ties.pair_counts(H, M, epsilon=0.15)
    assert (counts.con, counts.dis, counts.ties_metric, counts.ties_both) == (6, 0, 3, 1)
    assert ties.acc23(H, M, 0.15) == pytest.approx(0.7, abs=1e-15)
    assert ties.kendall_23(H, M, 0.15) == pytest.approx(0.4, abs=1e-15)
    with pytest.raises(ValueError, match="epsilon"):
        ties.pair_counts(H, M, -1)


def test_tie_calibration_by_hand():
    # humans tie (0,1) and (2,3); the metric nearly does (0.05 and 0.02 apart); the 4 cross pairs
    # are concordant. epsilon 0: 4/6; 0.02: 5/6; 0.05: 6/6; from ~0.95 the cross pairs become ties
    result = ties.acc23_opt([1, 1, 2, 2], [0.0, 0.05, 1.0, 1.02])
    assert result.value == pytest.approx(1.0, abs=1e-15)
    assert result.threshold == pytest.approx(0.05, abs=1e-15)
    tau = ties.acc23_opt([1, 1, 2, 2], [0.0, 0.05, 1.0, 1.02], variant="23")
    assert (tau.value, tau.threshold) == (pytest.approx(1.0), pytest.approx(0.05))


def test_tie_calibration_sampling_is_seeded():
    rng = np.random.default_rng(0)
    human, metric = rng.integers(0, 5, 200).astype(float), rng.normal(size=200)
    a = ties.acc23_opt(human, metric, sample_rate=0.3, rng=np.random.default_rng(7))
    b = ties.acc23_opt(human, metric, sample_rate=0.3, rng=np.random.default_rng(7))
    full = ties.acc23_opt(human, metric)
    assert a == b
    assert a.value != full.value  # a sample of the pairs, not all of them
    with pytest.raises(ValueError, match="rng"):
        ties.acc23_opt(human, metric, sample_rate=0.5)


# 3 systems x 3 items; the third item's human scores are constant; one human score missing
GRID_H = np.array([1, 2, 5, 2, 3, 5, np.nan, 4, 5], dtype=float)
GRID_M = np.array([0.1, 0.2, 1.0, 0.3, 0.1, 2.0, 0.7, 0.4, 3.0])
BY_SYSTEM = np.repeat([0, 1, 2], 3)
BY_ITEM = np.tile([0, 1, 2], 3)


def test_average_by_item_and_system_by_hand():
    kendall = grouped.plain_correlation("kendall")
    # items: item 0 has 2 outputs, concordant (tau 1); item 1: 2 concordant, 1 discordant (1/3);
    # item 2 is constant for the humans: dropped
    by_item = grouped.average_correlation(GRID_H, GRID_M, BY_ITEM, kendall)
    assert (by_item.value, by_item.used, by_item.dropped) == (pytest.approx(2 / 3, abs=1e-15), 2, 1)
    # systems: taus 1, 1/3 and 1 (the third system has two scored items)
    by_system = grouped.average_correlation(GRID_H, GRID_M, BY_SYSTEM, kendall)
    assert (by_system.value, by_system.used, by_system.dropped) == (pytest.approx(7 / 9, abs=1e-15), 3, 0)
    # acc23 is defined on the constant item (3 pairs tied for the humans only: 0), so it stays in
    acc = grouped.average_correlation(GRID_H, GRID_M, BY_ITEM, ties.acc23)
    assert (acc.value, acc.used) == (pytest.approx((1 + 2 / 3 + 0) / 3, abs=1e-15), 3)


def test_pairwise_accuracy_by_hand():
    # pairs of 4 systems: 3 ordered alike, the metric's tie matches the humans' (agreement), 2 reversed
    assert ties.pairwise_accuracy([1, 2, 2, 3], [0.5, 0.7, 0.7, 0.6]) == pytest.approx(4 / 6, abs=1e-15)


# --- 2. the same vectors through mt-metrics-eval (oracle_hand.py) -----------------------------

def test_hand_vectors_equal_mt_metrics_eval():
    h, m = H[np.isfinite(H)], M[np.isfinite(H)]
    assert ties.acc23(h, m) == pytest.approx(0.8, abs=1e-12)
    assert ties.kendall_23(h, m) == pytest.approx(0.6, abs=1e-12)
    assert ties.acc23(h, m, 0.15) == pytest.approx(0.7, abs=1e-12)
    assert ties.kendall_23(h, m, 0.15) == pytest.approx(0.4, abs=1e-12)
    opt = ties.acc23_opt([1, 1, 2, 2], [0.0, 0.05, 1.0, 1.02])
    assert (opt.value, opt.threshold) == (pytest.approx(1.0, abs=1e-12), 0.05)
    # AverageCorrelation(kendalltau | KendallVariants acc23, 3, avg) and KendallWithTiesOpt
    expected = {BY_ITEM.tobytes(): (0.6666666666666667, 2, 0.5555555555555555, 3),
                BY_SYSTEM.tobytes(): (0.7777777777777778, 3, 0.8888888888888888, 3)}
    for keys in (BY_ITEM, BY_SYSTEM):
        tau, n_tau, acc, n_acc = expected[keys.tobytes()]
        got = grouped.average_correlation(GRID_H, GRID_M, keys, grouped.plain_correlation("kendall"))
        assert (got.value, got.used) == (pytest.approx(tau, abs=1e-12), n_tau)
        got = grouped.average_correlation(GRID_H, GRID_M, keys, ties.acc23)
        assert (got.value, got.used) == (pytest.approx(acc, abs=1e-12), n_acc)
        opt = ties.acc23_opt(GRID_H, GRID_M, keys)
        assert (opt.value, opt.threshold) == (pytest.approx(acc, abs=1e-12), 0.0)


# --- 3. real data through the command line -----------------------------------------------------

# Recorded from oracle_real.py (see the module docstring), one row per setting:
# (correlation, average-by, level, raw human means?, tie epsilon, value of each of ORACLE_METRICS).
# acc23-opt chose the threshold 0 everywhere here; the groups used are derived (see _groups_used).
ORACLE_METRICS = ("bertscore-p", "bleu", "sari", "fkgl")
SIMPLICITY_DA_ORACLE = [
    ('kendall-23', 'none', 'sentence', False, 0.0, (0.4590651085141903, 0.32576516416249307, 0.22237061769616026, 0.07048414023372288)),
    ('acc23', 'none', 'sentence', False, 0.0, (0.7295325542570952, 0.6628825820812465, 0.6111853088480801, 0.5352420701168614)),
    ('acc23', 'none', 'sentence', False, 0.5, (0.05485253199777407, 0.6570895937673901, 0.5942014468558708, 0.5017863105175292)),
    ('kendall-23', 'none', 'sentence', False, 0.5, (-0.8902949360044519, 0.3141791875347802, 0.1884028937117418, 0.0035726210350584308)),
    ('acc23-opt', 'none', 'sentence', False, 0.0, (0.7295325542570952, 0.6628825820812465, 0.6111853088480801, 0.5352420701168614)),
    ('acc23-opt', 'item', 'sentence', False, 0.0, (0.7937394247038917, 0.7194585448392555, 0.6678510998307953, 0.5395939086294416)),
    ('pearson', 'item', 'sentence', False, 0.0, (0.6296051674229336, 0.5113496051209403, 0.3813339604707705, 0.1091854117901968)),
    ('spearman', 'item', 'sentence', False, 0.0, (0.620734738680572, 0.47496533011707, 0.3674014053472388, 0.12642136619970878)),
    ('kendall', 'item', 'sentence', False, 0.0, (0.6057963935555908, 0.4649328010825097, 0.3514374191966166, 0.10987080610124414)),
    ('acc23', 'item', 'sentence', False, 0.0, (0.7937394247038917, 0.7194585448392555, 0.6678510998307953, 0.5395939086294416)),
    ('kendall-23', 'item', 'sentence', False, 0.0, (0.5874788494077834, 0.438917089678511, 0.33570219966159054, 0.07918781725888326)),
    ('acc23-opt', 'system', 'sentence', False, 0.0, (0.7006060606060606, 0.6239057239057239, 0.5826262626262627, 0.5194612794612795)),
    ('pearson', 'system', 'sentence', False, 0.0, (0.5773556971165383, 0.4145284613401497, 0.27852412483963335, 0.0643886796517598)),
    ('spearman', 'system', 'sentence', False, 0.0, (0.5610308968253467, 0.38148189738544036, 0.2405000500050005, 0.060797982712749304)),
    ('kendall', 'system', 'sentence', False, 0.0, (0.40149159151931907, 0.26562159925250256, 0.1652525252525253, 0.0431809865659866)),
    ('acc23', 'system', 'sentence', False, 0.0, (0.7006060606060606, 0.6239057239057239, 0.5826262626262627, 0.5194612794612795)),
    ('kendall-23', 'system', 'sentence', False, 0.0, (0.4012121212121212, 0.2478114478114478, 0.16525252525252526, 0.03892255892255892)),
    ('acc23-opt', 'none', 'sentence', True, 0.0, (0.7276627712854757, 0.660929326655537, 0.604268224819143, 0.5339120756816917)),
    ('acc23-opt', 'item', 'sentence', True, 0.0, (0.7764805414551609, 0.6994923857868021, 0.6631133671742808, 0.5191201353637902)),
    ('acc23', 'item', 'sentence', True, 0.0, (0.7764805414551609, 0.6994923857868021, 0.6631133671742808, 0.5191201353637902)),
    ('pairwise-accuracy', 'none', 'system', False, 0.0, (0.9333333333333333, 1.0, 0.6666666666666666, 0.6)),
]
# sources whose human and metric scores both vary across systems (pearson, spearman, kendall by item)
VARYING_SOURCES = {"bertscore-p": 195, "bleu": 194, "sari": 195, "fkgl": 193}


def _groups_used(metric: str, correlation: str, average_by: str) -> int | None:
    """The groups mt-metrics-eval averaged over, as recorded (None: not averaged, or not recorded for
    acc23-opt): by system all 6; by item 197 for acc23 and kendall-23, and for pearson, spearman and
    kendall the metric's count of :data:`VARYING_SOURCES` (groups with a constant vector dropped)."""
    if average_by == "none" or correlation == "acc23-opt":
        return None
    if average_by == "system":
        return 6
    return 197 if correlation in ("acc23", "kendall-23") else VARYING_SOURCES[metric]


@pytest.mark.parametrize("row", SIMPLICITY_DA_ORACLE, ids=lambda row: "-".join(map(str, row[:5])))
def test_simplicity_da_equals_mt_metrics_eval(data_dir, row):
    correlation, average_by, level, raw, epsilon, values = row
    args = ["meta-evaluate", "--dataset", "simplicity-da", "--data-dir", data_dir, "--scores", data_dir / PUBLISHED,
            "--score-columns", ",".join(ORACLE_METRICS), "--split", "none", "--correlation", correlation,
            "--average-by", average_by, "--level", level, "--tie-epsilon", epsilon, "--significance", "none",
            "--format", "json", *(["--raw"] if raw else [])]
    result = run(*args)
    assert result.exit_code == 0, result.output
    records = {r["metric"]: r for r in json.loads(result.stdout)}
    for metric, value in zip(ORACLE_METRICS, values, strict=True):
        rec = records[metric]
        assert rec["r"] == pytest.approx(value, abs=1e-9), metric
        assert rec["average_by"] == average_by
        if correlation == "acc23-opt":
            assert rec["threshold"] == 0.0
        groups = _groups_used(metric, correlation, average_by)
        if groups is not None:
            assert rec["groups"] == groups
            unique = 302 if average_by == "item" else 6
            assert rec["groups_dropped"] == unique - groups


# oracle_structural.py: simpeval's bleu/sari/fkgl (HSplit references) against Structural
# Simplicity's human scores; 70 sources x 25 systems, many human ties, so the thresholds are not 0
STRUCTURAL_ORACLE = {
    ("item", "bleu"): (0.33604761904761904, 1.5758002473499033),
    ("system", "bleu"): (0.3538219461697971, 30.957502590430238),
    ("item", "sari"): (0.38342857142857145, 0.0),
    ("system", "sari"): (0.42404968944099297, 7.1437198782634255),
    ("item", "fkgl"): (0.35890476190476256, 1.8631578947368403),  # FKGL after the Punkt-identical splitter
    ("system", "fkgl"): (0.33406211180125406, 23.02),
}


@pytest.mark.parametrize("average_by", ["item", "system"])
def test_structural_simplicity_thresholds_equal_mt_metrics_eval(data_dir, average_by):
    result = run("meta-evaluate", "--dataset", "structural-simplicity", "--data-dir", data_dir, "-m", "bleu,sari,fkgl",
                 "--split", "none", "--correlation", "acc23-opt", "--average-by", average_by,
                 "--significance", "none", "--format", "json")
    assert result.exit_code == 0, result.output
    for rec in json.loads(result.stdout):
        value, threshold = STRUCTURAL_ORACLE[(average_by, rec["metric"])]
        assert rec["r"] == pytest.approx(value, abs=1e-9)
        assert rec["threshold"] == pytest.approx(threshold, abs=1e-12)


def test_table_names_the_averaging_and_thresholds(data_dir):
    result = run("meta-evaluate", "--dataset", "simplicity-da", "--data-dir", data_dir,
                 "--scores", data_dir / PUBLISHED,
                 "--score-columns", "bleu,fkgl", "--split", "none", "--correlation", "pearson", "--average-by", "item",
                 "--significance", "none")
    assert result.exit_code == 0, result.output
    assert "average-by=item" in result.stdout
    assert "groups-dropped=bleu/All:108,fkgl/All:109" in result.stdout  # 302 sources, 194 and 193 used


@pytest.mark.parametrize("args, message", [
    (["--correlation", "pairwise-accuracy"], "--level system"),
    (["--average-by", "item", "--level", "system", "--correlation", "spearman"], "--level sentence"),
    (["--average-by", "item", "--correlation", "pearson", "--significance", "williams"], "Williams"),
    (["--average-by", "system", "--correlation", "wmt-kendall"], "does its own pairing"),
])
def test_bad_combinations_are_one_line_exit_2(data_dir, args, message):
    result = run("meta-evaluate", "--dataset", "simplicity-da", "--data-dir", data_dir,
                 "--scores", data_dir / PUBLISHED,
                 "--score-columns", "bleu", "--split", "none", *args)
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output
