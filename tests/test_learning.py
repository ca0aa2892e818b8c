"""simpeval.learning: rated datasets normalised per dataset, leave-one-dataset-out, the baselines."""

import numpy as np
import pytest

import simpeval
from simpeval.learning import loo
from simpeval.learning.baselines import baseline_scores
from simpeval.learning.rated import LABELS, aspect_sets, check_trainable, load_rated, zscore


def test_leave_one_out_never_fits_on_the_left_out_rows():
    rng = np.random.default_rng(0)
    x = [rng.normal(size=(40, 2)) for _ in range(3)]
    y = [xi[:, 1] for xi in x]
    fitted_on = []

    def fit(features, labels):
        fitted_on.append({float(v) for v in labels})
        return loo.fit_ridge(features, labels, 0.0)

    folds = loo.leave_one_out(x, y, ["a", "b", "c"], fit, lambda m, f: m.predict(f), [{"x0": xi[:, 0]} for xi in x])
    for i, rows in enumerate(fitted_on):
        assert rows.isdisjoint(float(v) for v in y[i]) and len(rows) == 80
    assert all(f.r == pytest.approx(1.0) for f in folds) and all(f.beats_baselines for f in folds)
    assert [f.left_out for f in folds] == ["a", "b", "c"] and folds[0].n == 40


def test_a_fold_never_trains_on_the_items_other_datasets_share_with_the_one_it_leaves_out():
    rng = np.random.default_rng(1)
    x = [rng.normal(size=(30, 2)) for _ in range(3)]
    y = [xi[:, 0] for xi in x]
    keys = [[f"{name}{i}" for i in range(30)] for name in "abc"]
    keys[1][:5] = keys[0][:5]  # b rates five of a's items again; c shares two with b
    keys[2][10:12] = keys[1][20:22]
    fitted_rows = []

    def fit(features, labels):
        fitted_rows.append(len(labels))
        return loo.fit_ridge(features, labels, 0.0)

    folds = loo.leave_one_out(x, y, ["a", "b", "c"], fit, lambda m, f: m.predict(f), keys=keys)
    assert [f.dropped for f in folds] == [5, 7, 2] and fitted_rows == [55, 53, 58]
    assert loo.unseen(["p", "q", "r"], {"q"}).tolist() == [True, False, True]
    selection = loo.select(loo.ridge_candidates([0.0]), x, y, ["a", "b", "c"], keys=keys)
    assert [f.dropped for f in selection.tables[selection.chosen]] == [5, 7, 2]
    assert [f.dropped for f in selection.folds] == [5, 7, 2]
    assert [f.dropped for f in loo.leave_one_out(x, y, ["a", "b", "c"], fit, lambda m, f: m.predict(f))] == [0, 0, 0]
    with pytest.raises(ValueError, match="nothing to train on without a: every other dataset.s items are a.s"):
        loo.leave_one_out(x[:2], y[:2], ["a", "b"], fit, lambda m, f: m.predict(f), keys=[keys[0], keys[0]])


def test_select_reports_each_dataset_with_the_candidate_chosen_on_the_others():
    # "b" alone rewards the second feature: its row must not be the candidate chosen because of b.
    rng = np.random.default_rng(3)
    x = [rng.normal(size=(80, 2)) for _ in range(3)]
    y = [x[0][:, 0], x[1][:, 1], x[2][:, 0]]
    candidates = loo.single_feature_candidates(["first", "second"])
    selection = loo.select(candidates, x, y, ["a", "b", "c"], [{"x1": xi[:, 1]} for xi in x])
    table = {c: {f.left_out: f.r for f in folds} for c, folds in selection.tables.items()}
    for fold in selection.folds:
        others = [n for n in "abc" if n != fold.left_out]
        assert fold.chosen == max(table, key=lambda c: np.mean([table[c][n] for n in others]))
        assert fold.r == pytest.approx(table[fold.chosen][fold.left_out])
    assert [f.chosen for f in selection.folds] == ["only(first)", "only(first)", "only(first)"]
    assert selection.folds[1].r < 0.2 and selection.folds[1].baselines["x1"] == pytest.approx(1.0)
    assert selection.chosen == "only(first)"


def test_choose_by_others_reads_the_other_datasets_without_the_left_out_ones_items():
    # b rates a's first four items again: "leaky" is right on those and off elsewhere, "honest" the reverse.
    y = {"a": np.arange(8.0), "b": np.arange(8.0)}
    keys = {"a": [f"a{i}" for i in range(8)], "b": [f"a{i}" for i in range(4)] + [f"b{i}" for i in range(4)]}
    scores = {"honest": {"a": np.arange(8.0), "b": np.array([3, 2, 1, 0, 4, 5, 6, 7.0])},
              "leaky": {"a": np.arange(8.0), "b": np.array([0, 1, 2, 3, 4, 5, 7, 6.0])}}
    _, with_shared, table = loo.choose_by_others(scores, y)
    kept, folds, _ = loo.choose_by_others(scores, y, keys=keys)
    assert table["leaky"]["b"] > table["honest"]["b"] and with_shared[0].chosen == "leaky"
    assert folds[0].chosen == "honest" and [f.dropped for f in folds] == [4, 4]
    assert kept == "leaky"  # the shipped choice reads every dataset whole: nothing is left out then
    with pytest.raises(ValueError, match="nothing to choose on without a: every other dataset's items are a's"):
        loo.choose_by_others(scores, y, keys={"a": keys["a"], "b": keys["a"]})


def test_select_takes_the_best_mean_left_out_correlation():
    rng = np.random.default_rng(2)
    x = [rng.normal(size=(60, 3)) for _ in range(3)]
    y = [xi[:, 0] + rng.normal(size=60) * 2 for xi in x]
    selection = loo.select(loo.ridge_candidates([0.0, 1e6]), x, y, ["a", "b", "c"])
    tables = selection.tables
    assert selection.chosen == max(tables, key=lambda k: loo.mean_r(tables[k]))
    assert loo.pearson([1, 2, 3], [2, 4, 7]) == pytest.approx(0.9933, abs=1e-4)
    assert np.isnan(loo.pearson([1, 1, 1], [1, 2, 3]))
    assert loo.pearson([1, 2, float("nan"), 3], [2, 4, 100, 7]) == pytest.approx(0.9933, abs=1e-4)  # NaN items left out


def test_simpeval_2022_is_never_training_data(data_dir):
    with pytest.raises(simpeval.UsageError, match="test data only"):
        check_trainable(["simplicity-da", "simpeval-2022"])
    with pytest.raises(simpeval.UsageError, match="test data only"):
        load_rated(data_dir, ["simpeval-2022"])
    assert all("simpeval-2022" not in labels for labels in LABELS.values())


def test_rated_sets_are_zscored_per_dataset(data_dir):
    sets = load_rated(data_dir, ["simplicity-da", "structural-simplicity", "simpeval-past"])
    assert [len(s) for s in sets] == [600, 1750, 2200]  # SimpEval_past without its two ASSET-reference systems
    for rated in sets:
        for labels in rated.labels.values():
            assert labels.mean() == pytest.approx(0, abs=1e-9) and labels.std() == pytest.approx(1)
    assert [s.name for s, _ in aspect_sets(sets, "fluency")] == ["simplicity-da", "structural-simplicity"]
    assert zscore(np.array([3.0, 3.0])).tolist() == [0.0, 0.0]


def test_baselines_are_every_registry_metric_that_needs_no_model():
    from simpeval.learning.baselines import baseline_metrics
    from simpeval.registry import load_registry

    registry = load_registry()
    names = baseline_metrics(registry)
    assert {"bleu", "ibleu", "bleu-sari-amean", "bleu-source", "sari", "fkgl", "length", "qe"} <= set(names)
    assert not any(registry.metrics[n].trained_on or registry.metrics[n].neural for n in names)
    assert "simpq" not in names and "lens-mini" not in names  # learned
    scores = baseline_scores(["The enormous feline sat on the mat."], ["The cat sat."], [["The cat sat."]])
    assert {"sari", "sari-del", "bleu", "bleu-source", "fkgl", "length-compression", "qe-deletions"} <= set(scores)
    assert scores["sari"][0] > 50
    free = baseline_scores(["a b"], ["a"], None)
    assert "sari" not in free and "bleu" not in free and "bleu-source" in free and "fkgl" in free


def test_sentence_baselines_leave_out_what_the_sentence_leaderboard_leaves_to_the_document_board():
    """One predicate (``Metric.documents_only``) for both: agg-bleu, agg-sari and d-sari score whole documents
    only, so neither the sentence leaderboard nor a learned metric's judge on rated sentences compares them."""
    from simpeval.cli.leaderboard import default_metrics
    from simpeval.learning.baselines import baseline_metrics
    from simpeval.registry import load_registry

    registry = load_registry()
    documents_only = {name for name, cls in registry.metrics.items() if cls.documents_only}
    assert {"agg-bleu", "agg-sari", "d-sari"} <= documents_only and not {"sari", "bleu", "fre", "lix"} & documents_only
    sentence = baseline_metrics(registry)
    assert not documents_only & set(sentence) and {"sari", "fre", "lix", "rix", "familiarity"} <= set(sentence)
    assert {"agg-bleu", "agg-sari", "d-sari"} <= set(baseline_metrics(registry, level="document"))
    _, left_out = default_metrics(registry, neural=False)
    board_documents = {line.split(":")[0] for line in left_out if line.endswith("on the document board")}
    assert board_documents == {name for name in documents_only if not registry.metrics[name].neural}


def test_single_feature_candidates_use_one_column_only():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(50, 3))
    y = -2 * x[:, 2] + 1
    fit, predict = loo.single_feature_candidates(["a", "b", "c"])["only(c)"]
    model = fit(x, y)
    assert model.weights[:2].tolist() == [0.0, 0.0] and model.weights[2] < 0
    assert predict(model, x) == pytest.approx(y, abs=1e-2)


def test_choose_by_others_picks_each_fold_on_the_other_datasets_only():
    rng = np.random.default_rng(4)
    labels = {n: rng.normal(size=30) for n in ("a", "b", "c")}
    noisy = {n: y + rng.normal(size=30) * 0.5 for n, y in labels.items()}
    # "exact" is perfect on a and b and exactly wrong on c; "noisy" is decent everywhere
    scores = {"exact": {"a": labels["a"], "b": labels["b"], "c": -labels["c"]}, "noisy": noisy}
    base = {n: {"fkgl": -y} for n, y in labels.items()}
    kept, folds, table = loo.choose_by_others(scores, labels, base)
    r_noisy = {n: float(np.corrcoef(noisy[n], labels[n])[0, 1]) for n in labels}
    assert table["exact"] == pytest.approx({"a": 1.0, "b": 1.0, "c": -1.0})
    assert table["noisy"] == pytest.approx(r_noisy)
    assert kept == "noisy"  # mean over all: 1/3 against about 0.9
    assert [f.chosen for f in folds] == ["noisy", "noisy", "exact"]  # c's choice sees only a and b
    assert folds[2].r == pytest.approx(-1.0) and folds[0].r == pytest.approx(r_noisy["a"])
    assert folds[2].baselines == {"fkgl": pytest.approx(-1.0)} and folds[2].n == 30
    with pytest.raises(ValueError, match="two datasets"):
        loo.choose_by_others(scores, {"a": labels["a"]})


def test_choose_by_others_ranks_a_candidate_undefined_somewhere_last():
    y = {"a": np.arange(5.0), "b": np.arange(5.0)[::-1].copy()}
    scores = {"constant": {"a": np.ones(5), "b": np.ones(5)}, "weak": {"a": np.array([0, 2, 1, 3, 4.0]), "b": -y["a"]}}
    kept, folds, _ = loo.choose_by_others(scores, y)
    assert kept == "weak" and {f.chosen for f in folds} == {"weak"}


def test_loo_table_shows_each_fold_beside_its_best_baseline():
    from simpeval.learning.report import folds_from_record, folds_record, loo_table, replace_section

    folds = [loo.Fold("simplicity-da", 600, 0.25, {"fkgl": -0.1, "compression": 0.05, "sari": 0.24}, "epoch 3"),
             loo.Fold("structural-simplicity", 1750, 0.39, {"sari": float("nan"), "fkgl": -0.3, "compression": -0.72})]
    lines = loo_table([("siera", folds)])
    assert lines[2] == "| siera | simplicity-da | 600 | 0 | epoch 3 | +0.250 | sari (of 3) | +0.240 | win (+0.010) |"
    assert lines[3] == ("| siera | structural-simplicity | 1750 | 0 | - | +0.390 | -compression (of 2) | +0.720 | "
                        "loss (-0.330) |")
    assert lines[1].count("---") == lines[0].count("|") - 1
    wrong_sign = loo.Fold("simpeval-past", 2200, -0.5, {"fkgl": 0.2})  # a learned metric's sign is fixed
    assert loo_table([("x", [wrong_sign])])[2].endswith("| -0.500 | fkgl (of 1) | +0.200 | loss (-0.700) |")
    assert lines[-1] == "- `siera`: mean left-out r +0.320 over 2 datasets."
    assert folds_record(folds)[0] == {"left_out": "simplicity-da", "n": 600, "r": 0.25, "chosen": "epoch 3",
                                      "dropped": 0, "baselines": {"fkgl": -0.1, "compression": 0.05, "sari": 0.24}}
    shared = loo.Fold("simplicity-da", 600, 0.25, {"sari": 0.24}, "epoch 3", dropped=63)
    assert loo_table([("x", [shared])])[2].startswith("| x | simplicity-da | 600 | 63 | epoch 3 |")
    assert folds_from_record(folds_record([shared])) == [shared]
    card = "# Card\n\n## A\nold\n\n## B\nkeep\n"
    assert replace_section(card, "A", "new") == "# Card\n\n## A\nnew\n\n## B\nkeep\n"
    assert replace_section(card, "C", "added") == card + "\n## C\nadded\n"


def test_the_judge_never_selects_on_simpeval_2022(data_dir):
    from simpeval.learning import DEFAULT_DATASETS
    from simpeval.learning.judge import load_judge
    from simpeval.learning.rated import TEST_ONLY

    assert not set(DEFAULT_DATASETS) & set(TEST_ONLY)
    with pytest.raises(simpeval.UsageError, match="test data only"):
        load_judge(data_dir, ["simplicity-da", "simpeval-2022"])
    judge = load_judge(data_dir, ["simplicity-da", "structural-simplicity"])
    assert judge.names == ["simplicity-da", "structural-simplicity"] and len(judge.labels["simplicity-da"]) == 600
    with pytest.raises(simpeval.UsageError, match="at least two datasets"):
        load_judge(data_dir, ["simpeval-past"])
