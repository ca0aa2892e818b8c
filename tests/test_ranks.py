"""Significance clusters (WMT's rule) and Holm's correction, on hand-made p-values, and ``meta-evaluate --rank``."""

from __future__ import annotations

import json

import numpy as np

from simpeval.ranks import cluster_ranks, holm
from test_metaeval_ties import PUBLISHED, run  # tests/ is on sys.path (pytest rootdir-relative import); a
# package named "tests" may be installed (textstat 0.7 ships one), so no "tests." prefix

NAN = np.nan


def test_cluster_rule_by_hand():
    # sorted 0 > 1 > 2 > 3; 0 beats 2 and 3 significantly, 1 beats 3 (p 0.04), 2 does not beat 3
    p = np.array([[NAN, 0.3, 0.01, 0.01, NAN],
                  [NAN, NAN, 0.2, 0.04, NAN],
                  [NAN, NAN, NAN, 0.5, NAN],
                  [NAN, NAN, NAN, NAN, NAN],
                  [NAN, NAN, NAN, NAN, NAN]])
    # 1 joins cluster 1; 2 is beaten by 0 (in cluster 1): new cluster 2; 3 is beaten only by members
    # of cluster 1, not by 2 (its own cluster), so it stays in cluster 2; nan is unranked
    assert cluster_ranks([0.9, 0.85, 0.6, 0.55, NAN], p) == [1, 1, 2, 2, None]
    # listed in another order, the same ranks follow the values
    order = [3, 1, 0, 2]
    assert cluster_ranks(np.array([0.9, 0.85, 0.6, 0.55])[order], p[np.ix_(order, order)]) == [2, 1, 1, 2]
    # p < alpha, strictly: p = 0.3 is not significant at alpha 0.3, but is at 0.31
    assert cluster_ranks([0.9, 0.85, 0.6, 0.55], p[:4, :4], alpha=0.3) == [1, 1, 2, 2]
    assert cluster_ranks([0.9, 0.85, 0.6, 0.55], p[:4, :4], alpha=0.31) == [1, 2, 3, 3]


def test_holm_by_hand():
    # sorted .01 .03 .04 .2 (m = 4): 4 x .01 = .04; 3 x .03 = .09; 2 x .04 = .08 -> .09 (monotone); .2
    adjusted = holm(np.array([0.01, 0.04, 0.03, 0.2, NAN]))
    np.testing.assert_allclose(adjusted[:4], [0.04, 0.09, 0.09, 0.2], rtol=0, atol=1e-15)
    assert np.isnan(adjusted[4])


def test_meta_evaluate_rank_column(data_dir):
    args = ["meta-evaluate", "--dataset", "simplicity-da", "--data-dir", data_dir, "--scores", data_dir / PUBLISHED,
            "--score-columns", "bertscore-p,bertscore-f1,bleu,fkgl", "--split", "none", "--rank"]
    records = {r["metric"]: r for r in json.loads(run(*args, "--format", "json").stdout)}
    # Williams test on Pearson: BERTScore-P beats F1 (0.617 vs 0.573), F1 beats BLEU, BLEU beats FKGL
    assert [records[m]["rank"] for m in ("bertscore-p", "bertscore-f1", "bleu", "fkgl")] == [1, 2, 3, 4]
    for fmt, header in (("table", "rank (All)"), ("markdown", "| rank (All) |"), ("csv", "rank (All)"),
                        ("latex", "rank (All)")):
        result = run(*args, "--format", fmt)
        assert result.exit_code == 0 and header in result.stdout, (fmt, result.output)
    bad = run(*args, "--significance", "none")
    assert bad.exit_code == 2 and "--rank" in bad.output


def test_rank_labels_the_plots(data_dir, tmp_path):
    result = run("meta-evaluate", "--dataset", "simplicity-da", "--data-dir", data_dir,
                 "--scores", data_dir / PUBLISHED,
                 "--score-columns", "bleu,fkgl", "--split", "none", "--rank", "--plots", tmp_path)
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scatter-bleu.png", "scatter-fkgl.png",
                                                          "significance-All.png"]


def test_plot_labels_carry_the_rank():
    from simpeval.metaeval.engine import MetaEvaluation, Record
    from simpeval.metaeval.plots import _ranked

    result = MetaEvaluation([Record("bleu", "All", 10, 0.5, 0.01, True, rank=1),
                             Record("fkgl", "All", 10, 0.1, 0.5, False)], {})
    assert (_ranked(result, "bleu", "All"), _ranked(result, "fkgl", "All")) == ("bleu [1]", "fkgl")
