"""tam/tabular/medium (poisonous mushrooms): LightGBM on every feature, categories kept as
categories (values unseen in training become missing), cut at the threshold that maximises
MCC on a hold-out split.

    python -m baselines run --task tam/tabular/medium
    python -m baselines.tam.tabular_medium --public-dir DATA/tabular/medium/prepared/public --out submission.csv

Reads public/train.csv and public/test.csv; writes ``id,class`` (``e`` or ``p``) for every
test mushroom. All columns but id and class are features: numbers as numbers, text columns
as pandas categories whose levels come from the training rows only, so a category the model
never saw is treated as missing. Metric: Matthews correlation coefficient (higher is better).
"""

from __future__ import annotations

import sys
from pathlib import Path

import lightgbm as lgb
import numpy as np
import pandas as pd
from sklearn.metrics import matthews_corrcoef
from sklearn.model_selection import train_test_split

from baselines.kit import Budget, StopAtDeadline, metric_line, predict, standalone, write_submission

METRIC = "mcc"
SEED = 0  # hold-out split and LightGBM
HOLDOUT = 0.2  # share of the training rows kept back to measure the model and pick the cut
LEARNING_RATE = 0.05  # LightGBM shrinkage
NUM_LEAVES = 31  # tree size
MAX_ROUNDS = 2000  # upper bound; early stopping ends sooner
EARLY_STOPPING = 100  # rounds without hold-out gain before training stops
SMOKE_ROWS = 300  # --smoke: train on this many rows
SMOKE_ROUNDS = 50  # --smoke: at most this many rounds
TIME_BUDGET_S = 15 * 60.0  # the whole script, data to file
THREADS = 1  # small data: one thread
RESERVE_S = 10.0  # kept back from training for prediction and writing


def features(frame: pd.DataFrame, levels: dict[str, list[str]]) -> pd.DataFrame:
    out = frame.drop(columns=[c for c in ("id", "class") if c in frame.columns]).copy()
    for name, known in levels.items():
        out[name] = pd.Categorical(out[name].astype("string"), categories=known)
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

    text = [
        c
        for c in train.columns
        if c not in ("id", "class") and not pd.api.types.is_numeric_dtype(train[c])
    ]
    levels = {c: sorted(train[c].dropna().astype(str).unique()) for c in text}
    x, y = features(train, levels), (train["class"] == "p").astype(int).to_numpy()
    x_fit, x_val, y_fit, y_val = train_test_split(
        x, y, test_size=HOLDOUT, random_state=SEED, stratify=y
    )
    params = {
        "objective": "binary",
        "metric": "binary_logloss",
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
    p_val = predict(model, x_val)
    cuts = np.linspace(0.05, 0.95, 37)
    scores = [matthews_corrcoef(y_val, p_val > c) for c in cuts]
    cut = float(cuts[int(np.argmax(scores))])
    metric_line(METRIC, float(max(scores)), f"{HOLDOUT:.0%} hold-out, cut {cut:.3f}")
    poisonous = predict(model, features(test, levels)) > cut
    classes = np.where(poisonous, "p", "e")
    write_submission(pd.DataFrame({"id": test["id"], "class": classes}), out_path, budget)
    return float(max(scores))


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
