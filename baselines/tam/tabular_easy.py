"""tam/tabular/easy (NYC taxi fares): LightGBM on the four coordinates, passenger count, trip
distances and pickup time, one hold-out split.

    python -m baselines run --task tam/tabular/easy
    python -m baselines.tam.tabular_easy --public-dir DATA/tabular/easy/prepared/public --out submission.csv

Reads public/train.csv and public/test.csv; writes ``key,fare_amount`` for every test ride,
fares to two decimals as the sample submission has them. Training rows with fares outside
[2.5, 250] or more than 6 passengers are dropped (test rows never are). Features: the
pickup/dropoff longitude and latitude and passenger_count (the task's must-use features),
haversine and Manhattan distances, and the pickup's year, month, weekday and hour. The
hold-out split plays the role of the test set (cross-validation simulating a submission).
Metric: RMSE (lower is better).
"""

from __future__ import annotations

import sys
from pathlib import Path

import lightgbm as lgb
import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from baselines.kit import Budget, StopAtDeadline, metric_line, predict, standalone, write_submission

METRIC = "rmse"
SEED = 0  # hold-out split and LightGBM
HOLDOUT = 0.2  # share of the training rows kept back to measure the model
LEARNING_RATE = 0.05  # LightGBM shrinkage
NUM_LEAVES = 31  # tree size
MAX_ROUNDS = 2000  # upper bound; early stopping ends sooner
EARLY_STOPPING = 100  # rounds without hold-out gain before training stops
SMOKE_ROWS = 300  # --smoke: train on this many rows
SMOKE_ROUNDS = 50  # --smoke: at most this many rounds
TIME_BUDGET_S = 15 * 60.0  # the whole script, data to file
THREADS = 1  # small data: one thread
RESERVE_S = 10.0  # kept back from training for prediction and writing
COORDINATES = ["pickup_longitude", "pickup_latitude", "dropoff_longitude", "dropoff_latitude"]


def features(frame: pd.DataFrame) -> pd.DataFrame:
    lon1, lat1, lon2, lat2 = (np.radians(frame[c].to_numpy(float)) for c in COORDINATES)
    a = (
        np.sin((lat2 - lat1) / 2) ** 2
        + np.cos(lat1) * np.cos(lat2) * np.sin((lon2 - lon1) / 2) ** 2
    )
    when = pd.to_datetime(frame["pickup_datetime"].str.replace(" UTC", "", regex=False))
    out = frame[[*COORDINATES, "passenger_count"]].astype(float).copy()
    out["haversine_km"] = 2 * 6371 * np.arcsin(np.sqrt(a))
    out["manhattan"] = (frame[COORDINATES[2]] - frame[COORDINATES[0]]).abs() + (
        frame[COORDINATES[3]] - frame[COORDINATES[1]]
    ).abs()
    out["year"], out["month"] = when.dt.year, when.dt.month
    out["weekday"], out["hour"] = when.dt.day_of_week, when.dt.hour
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
    train = train[train.fare_amount.between(2.5, 250) & (train.passenger_count <= 6)]
    if smoke:
        train = train.sample(n=min(SMOKE_ROWS, len(train)), random_state=SEED)
    budget.log(f"read train.csv: {len(train):,} rows; test.csv: {len(test):,} rows")

    x, y = features(train), train["fare_amount"].to_numpy()
    x_fit, x_val, y_fit, y_val = train_test_split(x, y, test_size=HOLDOUT, random_state=SEED)
    params = {
        "objective": "regression",
        "metric": "rmse",
        "learning_rate": LEARNING_RATE,
        "num_leaves": NUM_LEAVES,
        "min_data_in_leaf": 10,
        "num_threads": threads,
        "seed": SEED,
        "verbose": -1,
    }
    model = lgb.train(
        params,
        lgb.Dataset(x_fit, y_fit),
        num_boost_round=SMOKE_ROUNDS if smoke else MAX_ROUNDS,
        valid_sets=[lgb.Dataset(x_val, y_val)],
        callbacks=[
            lgb.early_stopping(EARLY_STOPPING, verbose=False),
            StopAtDeadline(budget.deadline(1, RESERVE_S)),
        ],
    )
    rmse = float(np.sqrt(np.mean((predict(model, x_val) - y_val) ** 2)))
    metric_line(METRIC, rmse, f"{HOLDOUT:.0%} hold-out of {len(x):,} rows")
    fares = np.round(np.maximum(predict(model, features(test)), 2.5), 2)
    write_submission(pd.DataFrame({"key": test["key"], "fare_amount": fares}), out_path, budget)
    return rmse


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
