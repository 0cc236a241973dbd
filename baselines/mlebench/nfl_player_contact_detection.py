"""nfl-player-contact-detection: LightGBM on tracking features of each player pair (distance,
speeds, relative motion, a few steps before and after) and a second LightGBM for contact with
the ground (the player's own motion), each cut at the threshold that maximises MCC.

    python -m baselines run --task mlebench/nfl-player-contact-detection
    python -m baselines.mlebench.nfl_player_contact_detection --public-dir DATA/nfl-player-contact-detection/prepared/public --out submission.csv

Why: two players touch only when they are within about a yard, and how they close in and part
shows in the 10 Hz tracking (distance now and a few steps around, closing speed, the two
players' speeds and accelerations); a fall to the ground shows as an acceleration spike and
a sudden slowing. Gradient boosting reads such features well, and the pairs far apart (more
than ``MAX_PAIR_YARDS``) are simply "no contact", which leaves a small, balanced-enough set to
train on. The helmet boxes and videos are not used. Reads train_labels.csv,
{train,test}_player_tracking.csv and sample_submission.csv (the test pairs, from their
``contact_id``); writes ``contact_id,contact`` (0/1).
Validation: 20% of the training plays held out. Metric: Matthews correlation (higher is better).
"""

from __future__ import annotations

import sys
from pathlib import Path

import lightgbm as lgb
import numpy as np
import pandas as pd
from sklearn.metrics import matthews_corrcoef
from sklearn.model_selection import GroupShuffleSplit

from baselines.kit import (
    CORES,
    Budget,
    StopAtDeadline,
    metric_line,
    predict,
    standalone,
    write_submission,
)

METRIC = "mcc"
SEED = 0  # hold-out split and LightGBM
MAX_PAIR_YARDS = 3.0  # pairs farther apart than this are "no contact", never modelled
SHIFTS = (-3, -2, -1, 1, 2, 3)  # steps around the labelled one whose motion is a feature
MOTION = ["speed", "acceleration", "sa", "distance"]  # per player, at each shift too
HOLDOUT = 0.2  # share of training plays held out for early stopping, thresholds and the metric
LEARNING_RATE = 0.05  # LightGBM shrinkage
NUM_LEAVES = 63  # leaves per tree
MAX_ROUNDS = 3000  # upper bound; early stopping ends sooner
EARLY_STOPPING = 100  # rounds without hold-out gain before a model stops
SMOKE_ROUNDS = 40  # --smoke: at most this many rounds per model
SMOKE_PLAYS = 20  # --smoke: train on at most this many plays
TIME_BUDGET_S = 15 * 60.0  # the whole script, data to file
THREADS = CORES  # 4M label rows at full size
RESERVE_S = 20.0  # kept back from training for prediction and writing


def split_ids(ids: pd.Series) -> pd.DataFrame:
    """``<game>_<play>_<step>_<id1>_<id2>`` -> game_play, step, the two ids (id2 may be G)."""
    parts = ids.str.split("_", expand=True)
    return pd.DataFrame(
        {
            "contact_id": ids,
            "game_play": parts[0] + "_" + parts[1],
            "step": parts[2].astype(int),
            "nfl_player_id_1": parts[3].astype(int),
            "nfl_player_id_2": parts[4],
        }
    )


def motion_table(tracking: pd.DataFrame) -> pd.DataFrame:
    """Per player and step: position and motion, and the same ``SHIFTS`` steps away."""
    keep = ["game_play", "nfl_player_id", "step", "team", "x_position", "y_position",
            "direction", "orientation", *MOTION]  # fmt: skip
    table = tracking[keep].sort_values(["game_play", "nfl_player_id", "step"])
    by_player = table.groupby(["game_play", "nfl_player_id"], sort=False)
    shifted = {
        f"{name}_{k:+d}": by_player[name].shift(-k)
        for k in SHIFTS
        for name in ["x_position", "y_position", *MOTION]
    }
    return pd.concat([table, pd.DataFrame(shifted, index=table.index)], axis=1)


def pair_rows(rows: pd.DataFrame, motion: pd.DataFrame) -> pd.DataFrame:
    """Each label row with both players' motion (``_1``, ``_2``; the ground has none)."""
    ground = rows["nfl_player_id_2"] == "G"
    rows = rows.assign(
        is_ground=ground,
        nfl_player_id_2=pd.to_numeric(rows["nfl_player_id_2"].where(~ground), errors="coerce"),
    )
    out = rows.merge(
        motion.add_suffix("_1"),
        how="left",
        left_on=["game_play", "step", "nfl_player_id_1"],
        right_on=["game_play_1", "step_1", "nfl_player_id_1"],
    )
    out = out.merge(
        motion.add_suffix("_2"),
        how="left",
        left_on=["game_play", "step", "nfl_player_id_2"],
        right_on=["game_play_2", "step_2", "nfl_player_id_2"],
    )
    return out


def features(rows: pd.DataFrame, ground: bool) -> pd.DataFrame:
    """Model inputs: the first player's motion, and for pairs the second's and the relative
    motion (distance now and at each shift, closing speed, same team)."""
    x = pd.DataFrame(index=rows.index)
    for name in MOTION:
        x[f"{name}_1"] = rows[f"{name}_1"]
        for k in SHIFTS:
            x[f"{name}_1_{k:+d}"] = rows[f"{name}_{k:+d}_1"]
    if ground:
        x["speed_change_1"] = rows["speed_+1_1"] - rows["speed_-1_1"]
        return x
    for name in MOTION:
        x[f"{name}_2"] = rows[f"{name}_2"]
        x[f"{name}_sum"] = rows[f"{name}_1"] + rows[f"{name}_2"]
    x["distance"] = np.hypot(
        rows["x_position_1"] - rows["x_position_2"], rows["y_position_1"] - rows["y_position_2"]
    )
    for k in SHIFTS:
        x[f"distance_{k:+d}"] = np.hypot(
            rows[f"x_position_{k:+d}_1"] - rows[f"x_position_{k:+d}_2"],
            rows[f"y_position_{k:+d}_1"] - rows[f"y_position_{k:+d}_2"],
        )
    x["closing"] = x["distance_-1"] - x["distance"]
    x["parting"] = x["distance_+1"] - x["distance"]
    x["min_distance"] = x[["distance", *(f"distance_{k:+d}" for k in SHIFTS)]].min(axis=1)
    x["same_team"] = (rows["team_1"] == rows["team_2"]).astype(float)
    for name in ("direction", "orientation"):
        gap = (rows[f"{name}_1"] - rows[f"{name}_2"]).abs() % 360
        x[f"{name}_gap"] = np.minimum(gap, 360 - gap)
    return x


def best_threshold(y: np.ndarray, prob: np.ndarray) -> tuple[float, float]:
    """The cut-point (of a grid) with the highest MCC on ``y``, and that MCC."""
    grid = np.linspace(0.05, 0.95, 37)
    scores = [matthews_corrcoef(y, prob > t) if len(set(y)) > 1 else 0.0 for t in grid]
    k = int(np.argmax(scores))
    return float(grid[k]), float(scores[k])


def main(
    public_dir: Path,
    out_path: Path,
    *,
    smoke: bool = False,
    time_budget_s: float = TIME_BUDGET_S,
    threads: int = THREADS,
) -> float:
    budget = Budget(time_budget_s)
    labels = pd.read_csv(public_dir / "train_labels.csv", dtype={"nfl_player_id_2": str})
    if smoke:
        plays = labels["game_play"].drop_duplicates()
        keep = plays.sample(min(SMOKE_PLAYS, len(plays)), random_state=SEED)
        labels = labels[labels["game_play"].isin(keep)]
    test = split_ids(pd.read_csv(public_dir / "sample_submission.csv")["contact_id"])
    budget.log(f"train_labels.csv: {len(labels):,} rows ({labels['contact'].mean():.1%} contact) "
               f"in {labels['game_play'].nunique():,} plays; test: {len(test):,} rows")  # fmt: skip
    train = pair_rows(
        labels.drop(columns="datetime"),
        motion_table(pd.read_csv(public_dir / "train_player_tracking.csv")),
    )
    test = pair_rows(test, motion_table(pd.read_csv(public_dir / "test_player_tracking.csv")))
    budget.log("joined the tracking to every label row")

    _, val_plays = next(
        GroupShuffleSplit(1, test_size=HOLDOUT, random_state=SEED).split(
            train, groups=train["game_play"]
        )
    )
    is_val = np.zeros(len(train), bool)
    is_val[val_plays] = True
    val_prob = np.zeros(len(train))
    test_prob = np.zeros(len(test))
    params = {"objective": "binary", "metric": "binary_logloss", "learning_rate": LEARNING_RATE,
              "num_leaves": NUM_LEAVES, "min_data_in_leaf": 20, "feature_fraction": 0.8,
              "bagging_fraction": 0.8, "bagging_freq": 1, "num_threads": threads, "seed": SEED,
              "verbose": -1}  # fmt: skip
    thresholds = {}
    for k, ground in enumerate((False, True)):
        kind = "ground" if ground else "pairs"
        x, x_test = features(train, ground), features(test, ground)
        rows = (train["is_ground"] == ground).to_numpy()
        rows_test = (test["is_ground"] == ground).to_numpy()
        if not ground:  # far apart: no contact, not modelled
            rows = rows & ~(x["min_distance"] > MAX_PAIR_YARDS).to_numpy()
            rows_test = rows_test & ~(x_test["min_distance"] > MAX_PAIR_YARDS).to_numpy()
        y = train["contact"].to_numpy()
        fit_rows, held = rows & ~is_val, rows & is_val
        budget.log(f"{kind}: {fit_rows.sum():,} rows to fit, {held.sum():,} held out, "
                   f"{rows_test.sum():,} test rows modelled")  # fmt: skip
        model = lgb.train(
            params,
            lgb.Dataset(x[fit_rows], y[fit_rows]),
            num_boost_round=SMOKE_ROUNDS if smoke else MAX_ROUNDS,
            valid_sets=[lgb.Dataset(x[held], y[held])],
            callbacks=[
                lgb.early_stopping(EARLY_STOPPING, verbose=False),
                lgb.log_evaluation(200),
                StopAtDeadline(
                    budget.deadline(2 - k, RESERVE_S), x_test[rows_test][:1000], rows_test.sum()
                ),
            ],
        )
        val_prob[held] = predict(model, x[held])
        test_prob[rows_test] = predict(model, x_test[rows_test])
        held_all = is_val & (train["is_ground"] == ground).to_numpy()
        thresholds[kind], mcc = best_threshold(y[held_all], val_prob[held_all])
        budget.log(f"{kind}: {model.best_iteration} rounds, threshold {thresholds[kind]:.3f}, "
                   f"hold-out MCC {mcc:.5f}")  # fmt: skip

    cut = np.where(train["is_ground"], thresholds["ground"], thresholds["pairs"])
    cut_test = np.where(test["is_ground"], thresholds["ground"], thresholds["pairs"])
    y_val = train["contact"].to_numpy()[is_val]
    mcc = float(matthews_corrcoef(y_val, val_prob[is_val] > cut[is_val]))
    metric_line(METRIC, mcc, f"{HOLDOUT:.0%} of {train['game_play'].nunique():,} plays held out")
    submission = pd.DataFrame(
        {"contact_id": test["contact_id"], "contact": (test_prob > cut_test).astype(int)}
    )
    write_submission(submission, out_path, budget)
    return mcc


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
