"""tabular-playground-series-may-2022: LightGBM with the f_27 letter features and the three
known feature interactions, one hold-out split.

    python -m baselines run --task mlebench/tabular-playground-series-may-2022
    python -m baselines.mlebench.tabular_playground_series_may_2022 --public-dir DATA/tabular-playground-series-may-2022/prepared/public --out submission.csv

Reads public/train.csv (800k rows) and public/test.csv; writes ``id,target`` probabilities.
Features: the 31 raw columns, f_27 split into its 10 letters (as 0-19) plus its count of
distinct letters, and the three ternary interaction flags that the competition's top public
notebooks found (f_21+f_02, f_22+f_05, f_00+f_01+f_26 past a threshold). One model, early
stopped on a 5% hold-out, predicts the test set. Metric: ROC-AUC (higher is better).
"""

from __future__ import annotations

import sys
from pathlib import Path

import lightgbm as lgb
import numpy as np
import pandas as pd
from sklearn.metrics import roc_auc_score
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

METRIC = "auc"
SEED = 0  # hold-out split and LightGBM
HOLDOUT = 0.05  # share of train used for early stopping and the reported metric
LEARNING_RATE = 0.1  # LightGBM shrinkage
NUM_LEAVES = 127  # the interactions are deep; large trees find them
MIN_DATA_IN_LEAF = 80  # rows per leaf
MAX_BIN = 511  # finer histograms for the continuous columns
LAMBDA_L2 = 2.0  # L2 penalty on leaf values
MAX_ROUNDS = 5000  # upper bound; early stopping or the time budget ends sooner
EARLY_STOPPING = 100  # rounds without validation gain before training stops
LOG_EVERY = 100  # progress line every this many rounds
SMOKE_ROWS = 2000  # --smoke: train on this many rows
SMOKE_ROUNDS = 30  # --smoke: at most this many rounds
TIME_BUDGET_S = 15 * 60.0  # the whole script, data to file
THREADS = CORES  # 800k rows: every core helps
RESERVE_S = 20.0  # kept back for writing; prediction time is measured and kept back too


def features(frame: pd.DataFrame) -> pd.DataFrame:
    out = frame.drop(columns=["id", "f_27", "target"], errors="ignore")
    ascii_codes = np.frombuffer("".join(frame["f_27"]).encode("ascii"), dtype=np.uint8)
    letters = ascii_codes.reshape(len(frame), 10).astype(np.int8) - ord("A")  # A=0 ... T=19
    for k in range(10):
        out[f"ch{k}"] = letters[:, k]
    distinct = (np.diff(np.sort(letters, axis=1), axis=1) != 0).sum(axis=1) + 1
    out["unique_letters"] = distinct
    for name, total, high, low in (
        ("i_02_21", frame["f_02"] + frame["f_21"], 5.2, -5.3),
        ("i_05_22", frame["f_05"] + frame["f_22"], 5.1, -5.4),
        ("i_00_01_26", frame["f_00"] + frame["f_01"] + frame["f_26"], 5.0, -5.0),
    ):
        out[name] = (total > high).astype(np.int8) - (total < low).astype(np.int8)
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

    x, y = features(train), train["target"].to_numpy()
    x_test = features(test)
    x_fit, x_val, y_fit, y_val = train_test_split(
        x, y, test_size=HOLDOUT, random_state=SEED, stratify=y
    )
    budget.log(f"features: {x.shape[1]} columns; fit on {len(x_fit):,}, hold out {len(x_val):,}")

    params = {
        "objective": "binary",
        "metric": "auc",
        "learning_rate": LEARNING_RATE,
        "num_leaves": NUM_LEAVES,
        "min_data_in_leaf": MIN_DATA_IN_LEAF,
        "max_bin": MAX_BIN,
        "lambda_l2": LAMBDA_L2,
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

    auc = float(roc_auc_score(y_val, predict(model, x_val)))
    metric_line(METRIC, auc, f"{HOLDOUT:.0%} hold-out of {len(x):,} rows")
    test_prob = predict(model, x_test)
    write_submission(pd.DataFrame({"id": test["id"], "target": test_prob}), out_path, budget)
    return auc


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
