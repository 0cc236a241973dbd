"""spaceship-titanic: LightGBM on passenger-group, cabin and spending features, 5-fold CV.

    python -m baselines run --task mlebench/spaceship-titanic
    python -m baselines.mlebench.spaceship_titanic --public-dir DATA/spaceship-titanic/prepared/public --out submission.csv

Reads public/train.csv and public/test.csv; writes ``PassengerId,Transported`` (True/False) for
every test passenger. Features: the passenger's group (from ``gggg_pp``) and its size, the
cabin's deck/number/side, each spending column (log) and their total, a no-spend flag, and the
size of the surname's family, counted over train and test together. The five fold models'
probabilities are averaged and cut at 0.5. Metric: accuracy (higher is better).
"""

from __future__ import annotations

import sys
from pathlib import Path

import lightgbm as lgb
import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold

from baselines.kit import Budget, StopAtDeadline, metric_line, predict, standalone, write_submission

METRIC = "accuracy"
SEED = 0  # folds and LightGBM
N_FOLDS = 5  # stratified folds; the test prediction averages the fold models
LEARNING_RATE = 0.02  # LightGBM shrinkage
NUM_LEAVES = 15  # small trees: 8.7k rows
MIN_DATA_IN_LEAF = 20  # rows per leaf
FEATURE_FRACTION = 0.7  # columns sampled per tree
MAX_ROUNDS = 3000  # upper bound; early stopping ends sooner
EARLY_STOPPING = 200  # rounds without validation gain before a fold stops
LOG_EVERY = 500  # progress line every this many rounds
SMOKE_ROWS = 300  # --smoke: train on this many rows
SMOKE_ROUNDS = 40  # --smoke: at most this many rounds per fold
TIME_BUDGET_S = 15 * 60.0  # the whole script, data to file
THREADS = 1  # 8.7k rows: a second thread costs more in synchronisation than it saves
RESERVE_S = 10.0  # kept back from training for prediction and writing

SPENDS = ["RoomService", "FoodCourt", "ShoppingMall", "Spa", "VRDeck"]
CATEGORIES = ["HomePlanet", "Destination", "deck", "side"]


def as_flag(column: pd.Series) -> pd.Series:
    """True/False/blank (read as bool or text) -> 1.0/0.0/NaN."""
    return column.astype("string").str.lower().map({"true": 1.0, "false": 0.0}).astype(float)


def features(frame: pd.DataFrame) -> pd.DataFrame:
    """Model inputs for train and test rows together (group and family sizes span both)."""
    group = frame["PassengerId"].str.slice(0, 4).astype(int)
    cabin = frame["Cabin"].str.split("/", expand=True).reindex(columns=[0, 1, 2])
    surname = frame["Name"].str.split(" ").str[-1]
    spend = frame[SPENDS]
    out = pd.DataFrame(
        {
            "group": group,
            "group_size": group.map(group.value_counts()),
            "member": frame["PassengerId"].str.slice(5, 7).astype(int),
            "deck": cabin[0],
            "cabin_num": pd.to_numeric(cabin[1], errors="coerce"),
            "side": cabin[2],
            "HomePlanet": frame["HomePlanet"],
            "Destination": frame["Destination"],
            "cryo": as_flag(frame["CryoSleep"]),
            "vip": as_flag(frame["VIP"]),
            "age": frame["Age"],
            "family_size": surname.map(surname.value_counts()),
            "total_spend": spend.sum(axis=1, min_count=1),
            "no_spend": (spend.fillna(0).sum(axis=1) == 0).astype(float),
        },
        index=frame.index,
    )
    for name in SPENDS:
        out[f"log_{name}"] = np.log1p(spend[name])
    out["log_total_spend"] = np.log1p(out["total_spend"])
    for name in CATEGORIES:
        out[name] = out[name].astype("category")
    return out


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

    x_all = features(pd.concat([train.drop(columns="Transported"), test], ignore_index=True))
    x, x_test = x_all.iloc[: len(train)], x_all.iloc[len(train) :]
    y = train["Transported"].astype(int).to_numpy()

    params = {
        "objective": "binary",
        "metric": "binary_logloss",
        "learning_rate": LEARNING_RATE,
        "num_leaves": NUM_LEAVES,
        "min_data_in_leaf": MIN_DATA_IN_LEAF,
        "feature_fraction": FEATURE_FRACTION,
        "bagging_fraction": 0.8,
        "bagging_freq": 1,
        "lambda_l2": 1.0,
        "num_threads": threads,
        "seed": SEED,
        "verbose": -1,
    }
    rounds = SMOKE_ROUNDS if smoke else MAX_ROUNDS
    oof = np.zeros(len(x))
    test_prob = np.zeros(len(x_test))
    folds = StratifiedKFold(n_splits=N_FOLDS, shuffle=True, random_state=SEED)
    for k, (fit, val) in enumerate(folds.split(x, y)):
        model = lgb.train(
            params,
            lgb.Dataset(x.iloc[fit], y[fit]),
            num_boost_round=rounds,
            valid_sets=[lgb.Dataset(x.iloc[val], y[val])],
            callbacks=[
                lgb.early_stopping(EARLY_STOPPING, verbose=False),
                lgb.log_evaluation(LOG_EVERY),
                StopAtDeadline(budget.deadline(N_FOLDS - k, RESERVE_S)),
            ],
        )
        oof[val] = predict(model, x.iloc[val])
        test_prob += predict(model, x_test) / N_FOLDS
        fold_acc = float(((oof[val] > 0.5) == y[val]).mean())
        budget.log(f"fold {k + 1}/{N_FOLDS}: {model.best_iteration} rounds, acc {fold_acc:.5f}")

    accuracy = float(((oof > 0.5) == y).mean())
    metric_line(METRIC, accuracy, f"{N_FOLDS}-fold CV on {len(x):,} rows")
    submission = pd.DataFrame({"PassengerId": test["PassengerId"], "Transported": test_prob > 0.5})
    write_submission(submission, out_path, budget)
    return accuracy


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
