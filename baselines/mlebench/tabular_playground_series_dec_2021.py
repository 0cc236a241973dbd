"""tabular-playground-series-dec-2021: multiclass LightGBM on terrain features plus distance
combinations, trained on a row sample, one hold-out split.

    python -m baselines run --task mlebench/tabular-playground-series-dec-2021
    python -m baselines.mlebench.tabular_playground_series_dec_2021 --public-dir DATA/tabular-playground-series-dec-2021/prepared/public --out submission.csv

Reads public/train.csv (3.6M rows; its rows are in random order, so the first MAX_TRAIN_ROWS
are a random sample) and public/test.csv; writes ``Id,Cover_Type`` (the class labels, ints).
Features: the raw columns with Aspect wrapped to [0, 360) and hillshades clipped to [0, 255];
Euclidean and Manhattan distance to water; elevation less the vertical distance to water;
sums and differences of the horizontal distances to water, road and fire points; counts of
the soil and wilderness flags; constant columns dropped. Early stopping on a 2% hold-out.
Metric: accuracy (higher is better).
"""

from __future__ import annotations

import sys
from pathlib import Path

import lightgbm as lgb
import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from baselines.kit import (
    CORES,
    Budget,
    StopAtDeadline,
    metric_line,
    predict,
    standalone,
    write_submission,
)

METRIC = "accuracy"
SEED = 0  # hold-out split and LightGBM
MAX_TRAIN_ROWS = 1_500_000  # rows read from train.csv (of 3.6M): the 15-minute budget's share
HOLDOUT = 0.02  # share of the sample used for early stopping and the reported metric
LEARNING_RATE = 0.15  # LightGBM shrinkage: high, so the budget allows enough rounds
NUM_LEAVES = 63  # leaves per tree (7 trees per round, one per class)
MIN_DATA_IN_LEAF = 100  # rows per leaf
FEATURE_FRACTION = 0.7  # columns sampled per tree
BAGGING_FRACTION = 0.6  # rows sampled per round: faster rounds, little loss
MAX_ROUNDS = 2000  # upper bound; early stopping or the time budget ends sooner
EARLY_STOPPING = 50  # rounds without validation gain before training stops
LOG_EVERY = 25  # progress line every this many rounds
SMOKE_ROWS = 3000  # --smoke: train on this many rows
SMOKE_ROUNDS = 20  # --smoke: at most this many rounds
TIME_BUDGET_S = 15 * 60.0  # the whole script, data to file
THREADS = CORES  # millions of rows: every core helps
RESERVE_S = 30.0  # kept back for writing; prediction time is measured and kept back too

TERRAIN = [
    "Elevation",
    "Aspect",
    "Slope",
    "Horizontal_Distance_To_Hydrology",
    "Vertical_Distance_To_Hydrology",
    "Horizontal_Distance_To_Roadways",
    "Hillshade_9am",
    "Hillshade_Noon",
    "Hillshade_3pm",
    "Horizontal_Distance_To_Fire_Points",
]


def features(frame: pd.DataFrame) -> pd.DataFrame:
    out = frame.drop(columns=["Id", "Cover_Type"], errors="ignore").copy()
    out["Aspect"] = out["Aspect"] % 360
    for name in ("Hillshade_9am", "Hillshade_Noon", "Hillshade_3pm"):
        out[name] = out[name].clip(0, 255)
    water_h = out["Horizontal_Distance_To_Hydrology"]
    water_v = out["Vertical_Distance_To_Hydrology"]
    road, fire = out["Horizontal_Distance_To_Roadways"], out["Horizontal_Distance_To_Fire_Points"]
    out["water_euclid"] = np.hypot(water_h, water_v).astype(np.float32)
    out["water_manhattan"] = water_h.abs() + water_v.abs()
    out["elevation_less_water_v"] = out["Elevation"] - water_v
    out["elevation_less_water_h"] = out["Elevation"] - 0.2 * water_h
    for name, a, b in (("water_fire", water_h, fire), ("water_road", water_h, road)):
        out[f"{name}_sum"], out[f"{name}_diff"] = a + b, (a - b).abs()
    out["fire_road_sum"], out["fire_road_diff"] = fire + road, (fire - road).abs()
    out["soil_count"] = out.filter(like="Soil_Type").sum(axis=1)
    out["wilderness_count"] = out.filter(like="Wilderness_Area").sum(axis=1)
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
    n_rows = SMOKE_ROWS if smoke else MAX_TRAIN_ROWS
    train = pd.read_csv(public_dir / "train.csv", nrows=n_rows, dtype=np.int32)
    budget.log(f"read train.csv: first {len(train):,} rows")
    test = pd.read_csv(public_dir / "test.csv", dtype=np.int32)
    budget.log(f"read test.csv: {len(test):,} rows")

    x, x_test = features(train), features(test)
    constant = [c for c in x.columns if x[c].nunique() <= 1]
    x, x_test = x.drop(columns=constant), x_test.drop(columns=constant)
    classes = np.sort(train["Cover_Type"].unique())  # class k of the model is classes[k]
    y = np.searchsorted(classes, train["Cover_Type"].to_numpy())
    # Not stratified: a class can have a single row (class 5 has one in the real data).
    x_fit, x_val, y_fit, y_val = train_test_split(x, y, test_size=HOLDOUT, random_state=SEED)
    budget.log(
        f"features: {x.shape[1]} columns ({len(constant)} constant dropped); "
        f"{len(classes)} classes; fit on {len(x_fit):,}, hold out {len(x_val):,}"
    )

    params = {
        "objective": "multiclass",
        "num_class": len(classes),
        "metric": "multi_logloss",
        "learning_rate": LEARNING_RATE,
        "num_leaves": NUM_LEAVES,
        "min_data_in_leaf": MIN_DATA_IN_LEAF,
        "feature_fraction": FEATURE_FRACTION,
        "bagging_fraction": BAGGING_FRACTION,
        "bagging_freq": 1,
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
            lgb.log_evaluation(LOG_EVERY),
            StopAtDeadline(
                budget.deadline(1, RESERVE_S), x_test.iloc[:5000], len(x_test) + len(x_val)
            ),
        ],
    )
    budget.log(f"trained: best round {model.best_iteration}")

    val_pred = predict(model, x_val).argmax(axis=1)
    accuracy = float((val_pred == y_val).mean())
    metric_line(METRIC, accuracy, f"{HOLDOUT:.0%} hold-out of {len(x):,} rows")
    test_pred = predict(model, x_test).argmax(axis=1)
    submission = pd.DataFrame({"Id": test["Id"], "Cover_Type": classes[test_pred]})
    write_submission(submission, out_path, budget)
    return accuracy


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
