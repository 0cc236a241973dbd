"""new-york-city-taxi-fare-prediction: LightGBM on trip distance, landmark distances and local
time, trained on the first few million rows, one hold-out split.

    python -m baselines run --task mlebench/new-york-city-taxi-fare-prediction
    python -m baselines.mlebench.new_york_city_taxi_fare_prediction --public-dir DATA/new-york-city-taxi-fare-prediction/prepared/public --out submission.csv

Reads the first MAX_TRAIN_ROWS rows of public/labels.csv (the training set, 55M rows upstream,
in random order after upstream's split, so the head is a random sample) in chunks, and
public/test.csv; writes ``key,fare_amount`` for every test ride. Training rows with fares
outside [2.5, 250], more than 6 passengers or either end outside the New York area are
dropped (test rows never are). Features: the coordinates, haversine distance, absolute
latitude/longitude deltas, bearing, each end's distance to JFK, LaGuardia, Newark and Midtown,
and pickup time in New York (year, fractional year, month, weekday, hour). Metric: RMSE (lower
is better).
"""

from __future__ import annotations

import sys
from pathlib import Path

import lightgbm as lgb
import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
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

METRIC = "rmse"
SEED = 0  # hold-out split and LightGBM
MAX_TRAIN_ROWS = 4_000_000  # rows read from labels.csv (of 55M): the 15-minute budget's share
CHUNK_ROWS = 1_000_000  # labels.csv is read in chunks of this many rows (a progress line each)
HOLDOUT = 0.01  # share of the sample used for early stopping and the reported metric
LEARNING_RATE = 0.1  # LightGBM shrinkage
NUM_LEAVES = 255  # large trees: fares are sharp functions of place and time
MIN_DATA_IN_LEAF = 100  # rows per leaf
FEATURE_FRACTION = 0.8  # columns sampled per tree
BAGGING_FRACTION = 0.8  # rows sampled per round
MAX_ROUNDS = 5000  # upper bound; early stopping or the time budget ends sooner
EARLY_STOPPING = 50  # rounds without validation gain before training stops
LOG_EVERY = 100  # progress line every this many rounds
SMOKE_ROWS = 5000  # --smoke: train on this many rows
SMOKE_ROUNDS = 30  # --smoke: at most this many rounds
TIME_BUDGET_S = 15 * 60.0  # the whole script, data to file
THREADS = CORES  # millions of rows: every core helps
RESERVE_S = 20.0  # kept back for writing; prediction time is measured and kept back too

FARE_RANGE = (2.5, 250.0)  # plausible metered fares (USD); the meter starts at 2.50
LON_RANGE, LAT_RANGE = (-74.3, -72.9), (40.5, 41.8)  # the New York area, for cleaning train
LANDMARKS = {  # (latitude, longitude)
    "jfk": (40.6413, -73.7781),
    "lga": (40.7769, -73.8740),
    "ewr": (40.6895, -74.1745),
    "midtown": (40.7580, -73.9855),
}
COLUMNS = {
    "fare_amount": np.float32,
    "pickup_datetime": str,
    "pickup_longitude": np.float64,
    "pickup_latitude": np.float64,
    "dropoff_longitude": np.float64,
    "dropoff_latitude": np.float64,
    "passenger_count": np.float32,
}


def haversine_km(lat1: ArrayLike, lon1: ArrayLike, lat2: ArrayLike, lon2: ArrayLike) -> np.ndarray:
    """Great-circle distance in km between points given in degrees."""
    phi1, lam1, phi2, lam2 = (
        np.radians(np.asarray(v, np.float64)) for v in (lat1, lon1, lat2, lon2)
    )
    a = (
        np.sin((phi2 - phi1) / 2) ** 2
        + np.cos(phi1) * np.cos(phi2) * np.sin((lam2 - lam1) / 2) ** 2
    )
    return 2 * 6371.0 * np.arcsin(np.sqrt(a))


def features(frame: pd.DataFrame) -> pd.DataFrame:
    when = pd.to_datetime(frame["pickup_datetime"], format="%Y-%m-%d %H:%M:%S UTC", utc=True)
    when = when.dt.tz_convert("America/New_York")
    p_lat, p_lon = frame["pickup_latitude"], frame["pickup_longitude"]
    d_lat, d_lon = frame["dropoff_latitude"], frame["dropoff_longitude"]
    out = pd.DataFrame(
        {
            "pickup_lat": p_lat,
            "pickup_lon": p_lon,
            "dropoff_lat": d_lat,
            "dropoff_lon": d_lon,
            "passengers": frame["passenger_count"],
            "km": haversine_km(p_lat, p_lon, d_lat, d_lon),
            "abs_dlat": (d_lat - p_lat).abs(),
            "abs_dlon": (d_lon - p_lon).abs(),
            "bearing": np.arctan2(d_lat - p_lat, d_lon - p_lon),
            "year": when.dt.year,
            "year_frac": when.dt.year + when.dt.day_of_year / 366,
            "month": when.dt.month,
            "weekday": when.dt.day_of_week,
            "hour": when.dt.hour + when.dt.minute / 60,
        },
        index=frame.index,
    )
    for name, (lat, lon) in LANDMARKS.items():
        out[f"pickup_km_{name}"] = haversine_km(p_lat, p_lon, lat, lon)
        out[f"dropoff_km_{name}"] = haversine_km(d_lat, d_lon, lat, lon)
    return out.astype(np.float32)


def plausible(frame: pd.DataFrame) -> pd.Series:
    """Training rows worth learning from: real fares, real passenger counts, inside New York."""
    keep = frame["fare_amount"].between(*FARE_RANGE) & frame["passenger_count"].between(0, 6)
    for end in ("pickup", "dropoff"):
        keep &= frame[f"{end}_longitude"].between(*LON_RANGE)
        keep &= frame[f"{end}_latitude"].between(*LAT_RANGE)
    return keep


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
    chunks = []
    reader = pd.read_csv(
        public_dir / "labels.csv",
        usecols=list(COLUMNS),
        dtype=COLUMNS,
        nrows=n_rows,
        chunksize=CHUNK_ROWS,
    )
    for chunk in reader:
        chunks.append(chunk[plausible(chunk)])
        budget.log(f"read labels.csv: {sum(len(c) for c in chunks):,} plausible rows so far")
    train = pd.concat(chunks, ignore_index=True)
    test = pd.read_csv(public_dir / "test.csv")
    budget.log(f"read test.csv: {len(test):,} rows")

    x, y = features(train), train["fare_amount"].to_numpy()
    x_test = features(test)
    del chunks, train
    x_fit, x_val, y_fit, y_val = train_test_split(x, y, test_size=HOLDOUT, random_state=SEED)
    budget.log(f"features: {x.shape[1]} columns; fit on {len(x_fit):,}, hold out {len(x_val):,}")

    params = {
        "objective": "regression",
        "metric": "rmse",
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
            StopAtDeadline(budget.deadline(1, RESERVE_S), x_test, len(x_test) + len(x_val)),
        ],
    )
    budget.log(f"trained: best round {model.best_iteration}")

    val_pred = predict(model, x_val)
    rmse = float(np.sqrt(np.mean((val_pred - y_val) ** 2)))
    metric_line(METRIC, rmse, f"{HOLDOUT:.0%} hold-out of {len(x):,} plausible rows")
    fare = np.clip(predict(model, x_test), FARE_RANGE[0], None)
    write_submission(pd.DataFrame({"key": test["key"], "fare_amount": fare}), out_path, budget)
    return rmse


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
