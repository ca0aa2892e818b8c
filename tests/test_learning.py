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


def test_select_takes_the_best_mean_left_out_correlation():
    rng = np.random.default_rng(2)
    x = [rng.normal(size=(60, 3)) for _ in range(3)]
    y = [xi[:, 0] + rng.normal(size=60) * 2 for xi in x]
    chosen, tables = loo.select(loo.ridge_candidates([0.0, 1e6]), x, y, ["a", "b", "c"])
    assert chosen == max(tables, key=lambda k: loo.mean_r(tables[k]))
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


def test_baselines_are_fkgl_compression_and_sari():
    scores = baseline_scores(["The enormous feline sat on the mat."], ["The cat sat."], [["The cat sat."]])
    assert set(scores) == {"fkgl", "compression", "sari"}
    assert scores["compression"][0] == pytest.approx(13 / 36)
    assert scores["sari"][0] > 50
    assert np.isnan(baseline_scores(["a b"], ["a"], None)["sari"][0])


def test_single_feature_candidates_use_one_column_only():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(50, 3))
    y = -2 * x[:, 2] + 1
    fit, predict = loo.single_feature_candidates(["a", "b", "c"])["only(c)"]
    model = fit(x, y)
    assert model.weights[:2].tolist() == [0.0, 0.0] and model.weights[2] < 0
    assert predict(model, x) == pytest.approx(y, abs=1e-2)
