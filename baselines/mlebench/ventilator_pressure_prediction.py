"""ventilator-pressure-prediction: LightGBM (L1 loss) on per-breath sequence features, trained
on the scored (inspiratory) rows only, one hold-out split of breaths.

    python -m baselines run --task mlebench/ventilator-pressure-prediction
    python -m baselines.mlebench.ventilator_pressure_prediction --public-dir DATA/ventilator-pressure-prediction/prepared/public --out submission.csv

Reads public/train.csv (5.4M rows, 80 time steps per breath) and public/test.csv; writes
``id,pressure`` for every test row. Every breath is 80 consecutive rows, so each signal is
reshaped to a (breaths, 80) array and the sequence features are array operations: the step
index, time deltas, cumulative u_in and its time integral (the volume delivered), lags, leads
and differences of u_in, its running mean and maximum, per-breath u_in statistics, and the
lung attributes R, C and R*C. Only rows with u_out == 0 are scored, so only those are used for
training; the model still predicts every row. Metric: MAE on u_out == 0 rows (lower is better).
GBM baselines reach ~0.4 on the real data; the competition's leaders used sequence networks.
"""

from __future__ import annotations

import sys
from pathlib import Path

import lightgbm as lgb
import numpy as np
import pandas as pd

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
SEED = 0  # hold-out breaths and LightGBM
STEPS = 80  # rows per breath in every file
HOLDOUT = 0.05  # share of training breaths used for early stopping and the reported metric
LEARNING_RATE = 0.15  # LightGBM shrinkage: high, so the budget allows enough rounds
NUM_LEAVES = 255  # large trees: the pressure curve is a sharp function of the inputs
MIN_DATA_IN_LEAF = 60  # rows per leaf
FEATURE_FRACTION = 0.8  # columns sampled per tree
BAGGING_FRACTION = 0.7  # rows sampled per round
MAX_ROUNDS = 5000  # upper bound; early stopping or the time budget ends sooner
EARLY_STOPPING = 50  # rounds without validation gain before training stops
LOG_EVERY = 50  # progress line every this many rounds
SMOKE_BREATHS = 40  # --smoke: train on this many breaths
SMOKE_ROUNDS = 30  # --smoke: at most this many rounds
TIME_BUDGET_S = 15 * 60.0  # the whole script, data to file
THREADS = CORES  # millions of rows: every core helps
RESERVE_S = 30.0  # kept back for writing; prediction time is measured and kept back too

DTYPES = {"id": np.int32, "breath_id": np.int32, "R": np.int8, "C": np.int8, "u_out": np.int8}


def shift(a: np.ndarray, k: int) -> np.ndarray:
    """Each breath's row shifted k steps later (k < 0: earlier), padded with zeros."""
    out = np.zeros_like(a)
    if k > 0:
        out[:, k:] = a[:, :-k]
    else:
        out[:, :k] = a[:, -k:]
    return out


def features(frame: pd.DataFrame) -> pd.DataFrame:
    """One row of features per input row; ``frame`` holds whole breaths, 80 rows each."""
    if len(frame) % STEPS or np.ptp(frame["breath_id"].to_numpy().reshape(-1, STEPS), axis=1).any():
        raise ValueError(f"every breath must be {STEPS} consecutive rows")
    u_in = frame["u_in"].to_numpy(np.float32).reshape(-1, STEPS)
    time = frame["time_step"].to_numpy(np.float32).reshape(-1, STEPS)
    u_out = frame["u_out"].to_numpy(np.float32).reshape(-1, STEPS)
    step = np.broadcast_to(np.arange(STEPS, dtype=np.float32), u_in.shape)
    dt = time - shift(time, 1)
    u_in_cumsum = np.cumsum(u_in, axis=1)
    columns: dict[str, np.ndarray] = {
        "R": frame["R"].to_numpy(np.float32),
        "C": frame["C"].to_numpy(np.float32),
        "RC": (frame["R"].astype(np.float32) * frame["C"]).to_numpy(),
        "step": step,
        "time_step": time,
        "dt": dt,
        "u_in": u_in,
        "u_out": u_out,
        "u_out_lead1": shift(u_out, -1),
        "u_in_cumsum": u_in_cumsum,
        "volume": np.cumsum(u_in * dt, axis=1),
        "u_in_mean_so_far": u_in_cumsum / (step + 1),
        "u_in_max_so_far": np.maximum.accumulate(u_in, axis=1),
        "u_in_roll4": (u_in + shift(u_in, 1) + shift(u_in, 2) + shift(u_in, 3)) / 4,
        "breath_u_in_max": np.broadcast_to(u_in.max(axis=1, keepdims=True), u_in.shape),
        "breath_u_in_mean": np.broadcast_to(u_in.mean(axis=1, keepdims=True), u_in.shape),
    }
    for k in (1, 2, 3, 4):
        columns[f"u_in_lag{k}"] = shift(u_in, k)
        columns[f"u_in_diff{k}"] = u_in - shift(u_in, k)
    for k in (1, 2):
        columns[f"u_in_lead{k}"] = shift(u_in, -k)
    columns["u_in_less_breath_mean"] = u_in - columns["breath_u_in_mean"]
    columns["volume_over_C"] = columns["volume"] / columns["C"].reshape(-1, STEPS)
    columns["u_in_times_R"] = u_in * columns["R"].reshape(-1, STEPS)
    return pd.DataFrame({name: np.asarray(a).reshape(-1) for name, a in columns.items()})


def read(path: Path, n_rows: int | None) -> pd.DataFrame:
    frame = pd.read_csv(path, nrows=n_rows, dtype=DTYPES)
    return frame.sort_values(["breath_id", "id"], ignore_index=True)  # one block per breath


def main(
    public_dir: Path,
    out_path: Path,
    *,
    smoke: bool = False,
    time_budget_s: float = TIME_BUDGET_S,
    threads: int = THREADS,
) -> float:
    budget = Budget(time_budget_s)
    train = read(public_dir / "train.csv", SMOKE_BREATHS * STEPS if smoke else None)
    budget.log(f"read train.csv: {len(train):,} rows, {len(train) // STEPS:,} breaths")
    test = read(public_dir / "test.csv", None)
    budget.log(f"read test.csv: {len(test):,} rows")

    x, x_test = features(train), features(test)
    y = train["pressure"].to_numpy(np.float32)
    n_breaths = len(train) // STEPS
    n_held = max(1, round(HOLDOUT * n_breaths))
    held_out = np.random.default_rng(SEED).permutation(n_breaths)[:n_held]
    held = np.repeat(np.isin(np.arange(n_breaths), held_out), STEPS)  # whole breaths held out
    scored = train["u_out"].to_numpy() == 0
    fit, val = scored & ~held, scored & held
    budget.log(
        f"features: {x.shape[1]} columns; fit on {fit.sum():,} inspiratory rows, "
        f"hold out {val.sum():,} (of {len(held_out):,} breaths)"
    )

    params = {
        "objective": "l1",
        "metric": "l1",
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
        lgb.Dataset(x[fit], y[fit]),
        num_boost_round=SMOKE_ROUNDS if smoke else MAX_ROUNDS,
        valid_sets=[lgb.Dataset(x[val], y[val])],
        callbacks=[
            lgb.early_stopping(EARLY_STOPPING, verbose=False),
            lgb.log_evaluation(LOG_EVERY),
            StopAtDeadline(
                budget.deadline(1, RESERVE_S), x_test.iloc[:8000], len(x_test) + int(val.sum())
            ),
        ],
    )
    budget.log(f"trained: best round {model.best_iteration}")

    mae = float(np.abs(predict(model, x[val]) - y[val]).mean())
    metric_line(METRIC, mae, f"u_out == 0 rows of {HOLDOUT:.0%} held-out breaths")
    pressure = predict(model, x_test)
    submission = pd.DataFrame({"id": test["id"], "pressure": pressure}).sort_values("id")
    write_submission(submission, out_path, budget)  # in id order, as test.csv is
    return mae


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
