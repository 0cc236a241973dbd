"""icecube-neutrinos-in-deep-ice: a direction fitted to each event's pulses (a line fit and a
plane fit of the arrival times), then LightGBM on those fits and the pulses' summary features
predicting the true direction's unit vector, a 10% hold-out of events.

    python -m baselines run --task mlebench/icecube-neutrinos-in-deep-ice
    python -m baselines.mlebench.icecube_neutrinos_in_deep_ice --public-dir DATA/icecube-neutrinos-in-deep-ice/prepared/public --out submission.csv

Why: light from the muon reaches the sensors along its track in order, so a least-squares fit
of the sensors' positions against the pulses' times (IceCube's classic "line fit": the
velocity of the light's centre) and of the times against the positions (the plane wave's
normal) already point along the track, in closed form for millions of events. Each fit has
biases that depend on the event (few pulses, noise pulses, a track clipping the detector's
edge); gradient boosting on the fits, the charge-weighted centre, the pulses' principal axis
and the event's size learns to correct them, predicting the three components of the direction
(normalised afterwards), with no assumption about which way the angles point. The auxiliary
(likely noise) pulses are left out of the fits when an event has at least three others.
Reads public/{train,test}_meta.parquet, public/{train,test}/batch_<id>.parquet and
sensor_geometry.csv; the training set is capped at ``MAX_TRAIN_EVENTS`` events (whole batches
read in order). Writes ``event_id,azimuth,zenith``. Metric: mean angular error in radians
(lower is better).
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

METRIC = "angular_error"
SEED = 0  # hold-out split and LightGBM
MAX_TRAIN_EVENTS = 1_000_000  # training events read (whole batches; 200k a batch)
MIN_MAIN_PULSES = 3  # fits use the non-auxiliary pulses when an event has at least this many
RIDGE = 1.0  # m^2 added to the pulses' position covariance before the plane fit solves it
HOLDOUT = 0.1  # share of the training events held out
LEARNING_RATE = 0.1  # LightGBM shrinkage
NUM_LEAVES = 63  # tree size
MIN_DATA_IN_LEAF = 40  # rows per leaf
MAX_ROUNDS = 2000  # upper bound per component; early stopping ends sooner
EARLY_STOPPING = 50  # rounds without hold-out gain before a component's model stops
LOG_EVERY = 250  # progress line every this many rounds
SMOKE_EVENTS = 300  # --smoke: train on this many events ...
SMOKE_ROUNDS = 60  # ... for at most this many rounds a component
TIME_BUDGET_S = 30 * 60.0  # the whole script, data to file (13.2M test events to read)
THREADS = CORES  # LightGBM on a million events, prediction on 13.2 million
RESERVE_S = 60.0  # kept back from training for writing 13.2M rows


def unit(vectors: np.ndarray) -> np.ndarray:
    norm = np.linalg.norm(vectors, axis=1, keepdims=True)
    return np.divide(vectors, norm, out=np.zeros_like(vectors), where=norm > 0)


def to_vector(azimuth: np.ndarray, zenith: np.ndarray) -> np.ndarray:
    return np.stack([np.sin(zenith) * np.cos(azimuth), np.sin(zenith) * np.sin(azimuth),
                     np.cos(zenith)], axis=1)  # fmt: skip


def to_angles(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    v = unit(vectors)
    return np.mod(np.arctan2(v[:, 1], v[:, 0]), 2 * np.pi), np.arccos(np.clip(v[:, 2], -1, 1))


def angular_error(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.arccos(np.clip((unit(a) * unit(b)).sum(axis=1), -1, 1)).mean())


def event_features(pulses: pd.DataFrame, sensors: np.ndarray) -> pd.DataFrame:
    """One row per event (in the file's order, indexed by event id): the line fit's and the
    plane fit's directions, the principal axis, and summaries of the pulses."""
    ids = pulses.index.to_numpy()
    starts = np.flatnonzero(np.r_[True, ids[1:] != ids[:-1]])
    counts = np.diff(np.r_[starts, len(ids)])
    event = np.repeat(np.arange(len(starts)), counts)

    def sums(values: np.ndarray) -> np.ndarray:
        return np.add.reduceat(values, starts, axis=0)

    r = sensors[pulses["sensor_id"].to_numpy()]
    t = pulses["time"].to_numpy(np.float64)
    t -= t[starts][event]  # ns since the event's first pulse
    q = pulses["charge"].to_numpy(np.float64)
    main = ~pulses["auxiliary"].to_numpy()
    n_main = sums(main.astype(np.float64))
    w = q * np.where((n_main >= MIN_MAIN_PULSES)[event], main, True)  # fitting weights

    total = sums(w)
    centre = sums(w[:, None] * r) / total[:, None]
    t_mean = sums(w * t) / total
    dr, dt = r - centre[event], t - t_mean[event]
    cov_rt = sums(w[:, None] * dr * dt[:, None])
    var_t = sums(w * dt * dt)
    cov_rr = np.stack(  # one product at a time: real events have thousands of pulses
        [np.stack([sums(w * dr[:, i] * dr[:, j]) for j in range(3)], axis=1) for i in range(3)],
        axis=1,
    )
    line = cov_rt / np.maximum(var_t, 1e-9)[:, None]  # metres a ns: where the light moves
    plane = np.linalg.solve(cov_rr + RIDGE * np.eye(3), cov_rt[:, :, None])[:, :, 0]
    _, axes = np.linalg.eigh(cov_rr)
    axis = axes[:, :, 2]  # the pulses' longest extent, turned to agree with the line fit
    axis *= np.where((axis * line).sum(axis=1) < 0, -1.0, 1.0)[:, None]

    out = {
        "pulses": counts.astype(np.float64),
        "main_pulses": n_main,
        "charge": sums(q),
        "main_charge": sums(q * main),
        "duration": sums(np.where(main, t, 0.0)) / np.maximum(n_main, 1),
        "spread": np.sqrt(np.trace(cov_rr, axis1=1, axis2=2) / total),
        "speed": np.linalg.norm(line, axis=1),
        "line_duration": np.sqrt(var_t / total),
    }
    for name, vectors in (("line", unit(line)), ("plane", unit(plane)), ("axis", axis),
                          ("centre", centre)):  # fmt: skip
        for k, c in enumerate("xyz"):
            out[f"{name}_{c}"] = vectors[:, k]
    return pd.DataFrame(out, index=pd.Index(ids[starts], name="event_id"))


def read_split(
    public_dir: Path, split: str, meta: pd.DataFrame, sensors: np.ndarray, budget: Budget
) -> pd.DataFrame:
    """Features of every event in ``meta``, in its order, a batch file at a time."""
    parts = []
    batches = meta["batch_id"].unique()
    for k, batch in enumerate(batches):
        pulses = pd.read_parquet(public_dir / split / f"batch_{batch}.parquet")
        parts.append(event_features(pulses, sensors))
        if (k + 1) % 5 == 0 or k + 1 == len(batches):
            budget.log(f"{split}: {k + 1} of {len(batches)} batches")
    return pd.concat(parts).reindex(meta["event_id"].to_numpy())


def main(
    public_dir: Path,
    out_path: Path,
    *,
    smoke: bool = False,
    time_budget_s: float = TIME_BUDGET_S,
    threads: int = THREADS,
) -> float:
    budget = Budget(time_budget_s)
    sensors = pd.read_csv(public_dir / "sensor_geometry.csv").sort_values("sensor_id")
    xyz = sensors[["x", "y", "z"]].to_numpy(np.float64)
    train_meta = pd.read_parquet(public_dir / "train_meta.parquet")
    test_meta = pd.read_parquet(public_dir / "test_meta.parquet")
    cap = SMOKE_EVENTS if smoke else MAX_TRAIN_EVENTS
    if len(train_meta) > cap:  # whole batches, then the first ``cap`` of their events
        sizes = train_meta.groupby("batch_id", sort=False).size().cumsum()
        batches = sizes.index[: int(np.searchsorted(sizes.to_numpy(), cap)) + 1]
        train_meta = train_meta[train_meta["batch_id"].isin(batches)].iloc[:cap]
    budget.log(f"read the meta tables: {len(train_meta):,} training events, "
               f"{len(test_meta):,} test events")  # fmt: skip
    x = read_split(public_dir, "train", train_meta, xyz, budget)
    x_test = read_split(public_dir, "test", test_meta, xyz, budget)
    y = to_vector(train_meta["azimuth"].to_numpy(), train_meta["zenith"].to_numpy())

    rng = np.random.default_rng(SEED)
    val = np.zeros(len(x), dtype=bool)
    val[rng.choice(len(x), max(1, round(HOLDOUT * len(x))), replace=False)] = True
    fit = ~val
    # The first estimate: the plane fit, turned the way the angles point on the training set.
    first = x[["plane_x", "plane_y", "plane_z"]].to_numpy()
    sign = 1.0 if (first[fit] * y[fit]).sum(axis=1).mean() >= 0 else -1.0
    first_error = angular_error(sign * first[val], y[val])
    budget.log(f"plane fit alone (sign {sign:+.0f}): hold-out angular error {first_error:.5f}")

    params = {
        "objective": "regression",
        "learning_rate": LEARNING_RATE,
        "num_leaves": NUM_LEAVES,
        "min_data_in_leaf": MIN_DATA_IN_LEAF,
        "feature_fraction": 0.9,
        "num_threads": threads,
        "seed": SEED,
        "verbose": -1,
    }
    # Boosting corrects the first estimate: each component's trees start from it (init_score).
    first_test = sign * x_test[["plane_x", "plane_y", "plane_z"]].to_numpy()
    first = sign * first
    val_pred, test_pred = first[val].copy(), first_test.copy()
    for k, component in enumerate("xyz"):
        model = lgb.train(
            params,
            lgb.Dataset(x[fit], y[fit, k], init_score=first[fit, k]),
            num_boost_round=SMOKE_ROUNDS if smoke else MAX_ROUNDS,
            valid_sets=[lgb.Dataset(x[val], y[val, k], init_score=first[val, k])],
            callbacks=[
                lgb.early_stopping(EARLY_STOPPING, verbose=False),
                lgb.log_evaluation(LOG_EVERY),
                StopAtDeadline(budget.deadline(3 - k, RESERVE_S), x_test.iloc[:2000],
                               len(x_test)),
            ],
        )  # fmt: skip
        val_pred[:, k] += predict(model, x[val])
        test_pred[:, k] += predict(model, x_test)
        budget.log(f"direction {component}: {model.best_iteration} rounds of correction")
    boosted_error = angular_error(val_pred, y[val])
    budget.log(f"corrected: hold-out angular error {boosted_error:.5f}")
    if first_error <= boosted_error:  # too few events to learn a correction from
        budget.log("submitting the plane fit: the correction did not help on the hold-out")
        test_pred = first_test
    error = min(first_error, boosted_error)

    metric_line(METRIC, error, f"{HOLDOUT:.0%} hold-out of {len(x):,} events")
    azimuth, zenith = to_angles(test_pred)
    submission = pd.DataFrame(
        {"event_id": test_meta["event_id"].to_numpy(), "azimuth": azimuth, "zenith": zenith}
    )
    write_submission(submission, out_path, budget)
    return error


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
