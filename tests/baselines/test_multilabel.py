"""baselines/multilabel.py: micro F-beta, the tuned threshold and the label sets it writes."""

from __future__ import annotations

import numpy as np
from sklearn.metrics import fbeta_score

from baselines.multilabel import chosen, f_beta, label_sets, tune_threshold


def test_f_beta_agrees_with_scikit_learn() -> None:
    rng = np.random.default_rng(0)
    truth = rng.random((50, 7)) < 0.3
    picked = rng.random((50, 7)) < 0.4
    for beta in (1.0, 2.0):
        expected = fbeta_score(truth, picked, beta=beta, average="micro")
        assert abs(f_beta(picked, truth, beta) - expected) < 1e-12


def test_the_tuned_threshold_separates_and_no_row_is_left_empty() -> None:
    truth = np.array([[1, 0, 0], [0, 1, 1], [1, 1, 0]])
    probabilities = np.where(truth == 1, 0.35, 0.05) + np.array([0.0, 0.01, 0.02])
    threshold = tune_threshold(probabilities, truth)
    assert 0.07 < threshold <= 0.35 and f_beta(chosen(probabilities, threshold), truth) == 1.0
    low = np.full((2, 3), 0.01)
    low[1, 2] = 0.02
    assert label_sets(low, 0.5, ["a", "b", "c"]) == ["a", "c"]  # the likeliest, not nothing
    assert label_sets(probabilities, threshold, ["a", "b", "c"], sep=" ") == ["a", "b c", "a b"]
