"""demo/tabular-regression: standardised ridge regression, its alpha chosen by 5-fold CV.

    python -m baselines run --task demo/tabular-regression
    python -m baselines.demo.tabular_regression --public-dir ~/.cache/scaffolds/demo/v1/tabular-regression/prepared/public --out submission.csv

Reads public/train.csv (309 patients, 10 baseline measurements, target = disease progression
a year later) and public/test.csv; writes ``id,target``. The relation is close to linear and
the data small, so a ridge regression with one tuned penalty is the sound choice; ``sex`` is
coded 1/2 and enters as a flag. Metric: RMSE (lower is better).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.linear_model import Ridge
from sklearn.model_selection import KFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from baselines.kit import Budget, metric_line, standalone, write_submission

METRIC = "rmse"
SEED = 0  # folds
N_FOLDS = 5  # folds for choosing alpha
ALPHA_GRID = (0.3, 1.0, 3.0, 10.0, 30.0, 100.0)  # ridge penalties tried (on standardised inputs)
SMOKE_ROWS = 120  # --smoke: train on this many rows
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
    folds = KFold(n_splits=N_FOLDS, shuffle=True, random_state=SEED)
    rmses = {}
    for alpha in ALPHA_GRID:
        if budget.left() <= 0:
            break
        model = make_pipeline(StandardScaler(), Ridge(alpha=alpha))
        mse = -cross_val_score(
            model, x, y, cv=folds, scoring="neg_mean_squared_error", n_jobs=threads
        )
        rmses[alpha] = float(np.sqrt(mse.mean()))
        budget.log(f"alpha={alpha:g}: CV RMSE {rmses[alpha]:.5f}")
    best = min(rmses, key=lambda a: rmses[a])
    metric_line(METRIC, rmses[best], f"{N_FOLDS}-fold CV on {len(x):,} rows, alpha={best:g}")

    model = make_pipeline(StandardScaler(), Ridge(alpha=best)).fit(x, y)
    prediction = model.predict(test[feature_names])
    write_submission(pd.DataFrame({"id": test["id"], "target": prediction}), out_path, budget)
    return rmses[best]


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
