"""predict-volcanic-eruptions-ingv-oe: LightGBM (L1) on each segment's per-sensor statistics
and band powers, 5-fold CV.

    python -m baselines run --task mlebench/predict-volcanic-eruptions-ingv-oe
    python -m baselines.mlebench.predict_volcanic_eruptions_ingv_oe --public-dir DATA/predict-volcanic-eruptions-ingv-oe/prepared/public --out submission.csv

Why: as an eruption nears, the tremor grows louder and its energy moves between frequency
bands; a segment's spread, percentiles and the power in a handful of bands of each sensor
summarise that, and gradient boosting on such summaries was the strong, cheap approach on
Kaggle (MAE near 5M of a 0-49M range). A sensor that recorded nothing is left as missing
features, which LightGBM handles natively. The L1 objective fits the metric, the mean
absolute error. Reads public/train.csv (``segment_id,time_to_eruption``),
public/sample_submission.csv (the test segments), train/<id>.csv and test/<id>.csv (ten
sensors); writes ``segment_id,time_to_eruption``. The five fold models' predictions are
averaged. Metric: MAE (lower is better).
"""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import lightgbm as lgb
import numpy as np
import pandas as pd
from sklearn.model_selection import KFold

from baselines.kit import (
    CORES,
    Budget,
    StopAtDeadline,
    metric_line,
    predict,
    standalone,
    write_submission,
)

METRIC = "mae"
SEED = 0  # folds and LightGBM
RATE = 100.0  # samples a second
BANDS = ((0.1, 1), (1, 2.5), (2.5, 5), (5, 10), (10, 20), (20, 50))  # Hz: power in each
PERCENTILES = (1, 5, 25, 50, 75, 95, 99)  # of each sensor's counts
FFT_MULTIPLE = 500  # the spectrum is taken over the longest such multiple of samples (fast)
N_FOLDS = 5  # folds; the test prediction averages the fold models
LEARNING_RATE = 0.03  # LightGBM shrinkage
NUM_LEAVES = 31  # tree size
MIN_DATA_IN_LEAF = 10  # rows per leaf (4k segments)
FEATURE_FRACTION = 0.5  # columns sampled per tree (about 170 features)
MAX_ROUNDS = 5000  # upper bound; early stopping ends sooner
EARLY_STOPPING = 200  # rounds without validation gain before a fold stops
LOG_EVERY = 500  # progress line every this many rounds
SMOKE_SEGMENTS = 60  # --smoke: train on this many segments ...
SMOKE_ROUNDS = 60  # ... for at most this many rounds a fold
TIME_BUDGET_S = 15 * 60.0  # the whole script, data to file
THREADS = CORES  # reading the 4.4k segment files (2.6 GB) and LightGBM
RESERVE_S = 10.0  # kept back from training for prediction and writing


def segment_features(path: Path) -> dict[str, float]:
    """Statistics and band powers of each sensor in one segment file (NaN for a blank one),
    all sensors at once."""
    counts = pd.read_csv(path, dtype=np.float32).to_numpy(np.float64)
    blank = np.isnan(counts).all(axis=0)
    signal = np.nan_to_num(counts - np.nanmean(np.where(blank, 0.0, counts), axis=0))
    stats = {
        "std": signal.std(axis=0),
        "mean_abs": np.abs(signal).mean(axis=0),
        "max_abs": np.abs(signal).max(axis=0),
        "diff_std": np.diff(signal, axis=0).std(axis=0),  # loudness of the fast part
    }
    for p, values in zip(PERCENTILES, np.percentile(signal, PERCENTILES, axis=0), strict=True):
        stats[f"p{p}"] = values
    n = len(signal) - len(signal) % FFT_MULTIPLE or len(signal)  # 60,001 is 29 x 2,069: slow
    power = np.abs(np.fft.rfft(signal[:n], axis=0)) ** 2 / n
    hz = np.fft.rfftfreq(n, 1 / RATE)
    total = power[1:].sum(axis=0)
    for low, high in BANDS:
        band = power[(hz >= low) & (hz < high)].sum(axis=0)
        stats[f"power_{low}_{high}"] = np.log1p(band)
        stats[f"share_{low}_{high}"] = band / np.where(total > 0, total, np.nan)  # the shape
    out = {
        f"s{k + 1}_{name}": float("nan") if blank[k] else float(values[k])
        for name, values in stats.items()
        for k in range(counts.shape[1])
    }
    out["blank_sensors"] = float(blank.sum())
    out["median_std"] = float(np.median(stats["std"][~blank])) if not blank.all() else np.nan
    return out


def read_features(folder: Path, ids: np.ndarray, threads: int, budget: Budget) -> pd.DataFrame:
    rows = []
    with ThreadPoolExecutor(threads) as pool:
        paths = [folder / f"{segment_id}.csv" for segment_id in ids]
        for k, row in enumerate(pool.map(segment_features, paths)):
            rows.append(row)
            if (k + 1) % 500 == 0:
                budget.log(f"{folder.name}/: {k + 1:,} of {len(ids):,} segments")
    return pd.DataFrame(rows)


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
    test = pd.read_csv(public_dir / "sample_submission.csv")
    if smoke:
        train = train.sample(n=min(SMOKE_SEGMENTS, len(train)), random_state=SEED)
    budget.log(f"read train.csv: {len(train):,} segments; {len(test):,} test segments")
    x = read_features(public_dir / "train", train["segment_id"].to_numpy(), threads, budget)
    x_test = read_features(public_dir / "test", test["segment_id"].to_numpy(), threads, budget)
    y = train["time_to_eruption"].to_numpy(np.float64)
    budget.log(f"{x.shape[1]} features a segment")

    params = {
        "objective": "l1",
        "learning_rate": LEARNING_RATE,
        "num_leaves": NUM_LEAVES,
        "min_data_in_leaf": MIN_DATA_IN_LEAF,
        "feature_fraction": FEATURE_FRACTION,
        "bagging_fraction": 0.8,
        "bagging_freq": 1,
        "num_threads": threads,
        "seed": SEED,
        "verbose": -1,
    }
    oof = np.zeros(len(x))
    test_pred = np.zeros(len(x_test))
    folds = KFold(n_splits=N_FOLDS, shuffle=True, random_state=SEED)
    for k, (fit, val) in enumerate(folds.split(x)):
        model = lgb.train(
            params,
            lgb.Dataset(x.iloc[fit], y[fit]),
            num_boost_round=SMOKE_ROUNDS if smoke else MAX_ROUNDS,
            valid_sets=[lgb.Dataset(x.iloc[val], y[val])],
            callbacks=[
                lgb.early_stopping(EARLY_STOPPING, verbose=False),
                lgb.log_evaluation(LOG_EVERY),
                StopAtDeadline(budget.deadline(N_FOLDS - k, RESERVE_S)),
            ],
        )
        oof[val] = predict(model, x.iloc[val])
        test_pred += predict(model, x_test) / N_FOLDS
        fold_mae = float(np.abs(oof[val] - y[val]).mean())
        budget.log(f"fold {k + 1}/{N_FOLDS}: {model.best_iteration} rounds, mae {fold_mae:,.0f}")

    mae = float(np.abs(oof - y).mean())
    metric_line(METRIC, mae, f"{N_FOLDS}-fold CV on {len(x):,} segments")
    submission = pd.DataFrame({"segment_id": test["segment_id"], "time_to_eruption": test_pred})
    write_submission(submission, out_path, budget)
    return mae


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
