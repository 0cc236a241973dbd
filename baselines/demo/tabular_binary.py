"""demo/tabular-binary: standardised logistic regression, its C chosen by 5-fold CV.

    python -m baselines run --task demo/tabular-binary
    python -m baselines.demo.tabular_binary --public-dir ~/.cache/scaffolds/demo/v1/tabular-binary/prepared/public --out submission.csv

Reads public/train.csv (399 tumours, 30 measurements, target 1 = malignant) and
public/test.csv; writes ``id,target`` probabilities. With 30 correlated measurements and a few
hundred rows, a regularised linear model is hard to beat; the strength of the regularisation
is the one choice, made by cross-validated ROC-AUC. Metric: ROC-AUC (higher is better).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from baselines.kit import Budget, metric_line, standalone, write_submission

METRIC = "auc"
SEED = 0  # folds
N_FOLDS = 5  # stratified folds for choosing C
C_GRID = (0.01, 0.03, 0.1, 0.3, 1.0, 3.0)  # inverse regularisation strengths tried
SMOKE_ROWS = 150  # --smoke: train on this many rows
TIME_BUDGET_S = 60.0  # the whole script; it needs about a second
THREADS = 1  # a few hundred rows: one thread


def main(
    public_dir: Path,
    out_path: Path,
    *,
    smoke: bool = False,
    time_budget_s: float = TIME_BUDGET_S,
    threads: int = THREADS,
) -> float:
    budget = Budget(time_budget_s)
    train = pd.read_csv(public_dir / "train.csv")
    test = pd.read_csv(public_dir / "test.csv")
    if smoke:
        train = train.sample(n=min(SMOKE_ROWS, len(train)), random_state=SEED)
    budget.log(f"read train.csv: {len(train):,} rows; test.csv: {len(test):,} rows")

    feature_names = [c for c in test.columns if c != "id"]
    x, y = train[feature_names], train["target"]
    folds = StratifiedKFold(n_splits=N_FOLDS, shuffle=True, random_state=SEED)
    scores = {}
    for c in C_GRID:
        if budget.left() <= 0:
            break
        model = make_pipeline(StandardScaler(), LogisticRegression(C=c, max_iter=5000))
        scores[c] = float(
            np.mean(cross_val_score(model, x, y, cv=folds, scoring="roc_auc", n_jobs=threads))
        )
        budget.log(f"C={c:g}: CV AUC {scores[c]:.5f}")
    best_c = max(scores, key=lambda c: scores[c])
    metric_line(METRIC, scores[best_c], f"{N_FOLDS}-fold CV on {len(x):,} rows, C={best_c:g}")

    model = make_pipeline(StandardScaler(), LogisticRegression(C=best_c, max_iter=5000))
    model.fit(x, y)
    probability = model.predict_proba(test[feature_names])[:, 1]
    write_submission(pd.DataFrame({"id": test["id"], "target": probability}), out_path, budget)
    return scores[best_c]


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
