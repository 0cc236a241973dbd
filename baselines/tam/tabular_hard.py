"""tam/tabular/hard (OpenVaccine, RNA degradation): one LightGBM per target on per-base
features of the sequence, the structure and the loop type, hold-out by sequence.

    python -m baselines run --task tam/tabular/hard
    python -m baselines.tam.tabular_hard --public-dir DATA/tabular/hard/prepared/public --out submission.csv

Reads public/train.json and public/test.json (JSON lines); writes ``id_seqpos`` and the five
targets for every position of every test sequence (only the first ``seq_scored`` are scored).
Each base is one row: its position, the base, its structure mark and loop type, and those of
the WINDOW bases on either side. Training uses the scored positions of sequences that pass the
signal-to-noise filter (``SN_filter``), weighted by log(1 + signal_to_noise), so noisy
measurements count less. Metric: MCRMSE over reactivity, deg_Mg_pH10 and deg_Mg_50C on the
hold-out sequences (lower is better).
"""

from __future__ import annotations

import sys
from pathlib import Path

import lightgbm as lgb
import numpy as np
import pandas as pd

from baselines.kit import Budget, StopAtDeadline, metric_line, predict, standalone, write_submission

METRIC = "mcrmse"
SEED = 0  # hold-out split and LightGBM
HOLDOUT = 0.2  # share of the training sequences kept back
WINDOW = 3  # neighbouring bases on each side used as features
LEARNING_RATE = 0.05  # LightGBM shrinkage
NUM_LEAVES = 31  # tree size
MAX_ROUNDS = 1000  # upper bound per target; early stopping ends sooner
EARLY_STOPPING = 50  # rounds without hold-out gain before a target's model stops
SMOKE_SEQUENCES = 30  # --smoke: train on this many sequences
SMOKE_ROUNDS = 40  # --smoke: at most this many rounds per target
TIME_BUDGET_S = 15 * 60.0  # the whole script, data to file
THREADS = 1  # small data: one thread
RESERVE_S = 10.0  # kept back from training for prediction and writing
TARGETS = ["reactivity", "deg_Mg_pH10", "deg_pH10", "deg_Mg_50C", "deg_50C"]
SCORED = ["reactivity", "deg_Mg_pH10", "deg_Mg_50C"]
CODES = {"sequence": "ACGU", "structure": "().", "predicted_loop_type": "SMIBHEX"}


def per_base(frame: pd.DataFrame, scored_only: bool) -> pd.DataFrame:
    """One row per base: position, codes of the base and of its neighbours, and targets."""
    rows = []
    for _, rna in frame.iterrows():
        n = int(rna["seq_scored"]) if scored_only else int(rna["seq_length"])
        codes = {k: [v.find(c) for c in rna[k]] for k, v in CODES.items()}
        for j in range(n):
            row: dict[str, object] = {"id_seqpos": f"{rna['id']}_{j}", "id": rna["id"], "pos": j}
            for k, values in codes.items():
                for d in range(-WINDOW, WINDOW + 1):
                    i = j + d
                    row[f"{k}_{d}"] = values[i] if 0 <= i < len(values) else -1
            if scored_only:
                row.update({t: rna[t][j] for t in TARGETS})
                row["weight"] = float(np.log1p(rna["signal_to_noise"]))
            rows.append(row)
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
    train = pd.read_json(public_dir / "train.json", lines=True)
    test = pd.read_json(public_dir / "test.json", lines=True)
    train = train[train["SN_filter"] == 1]
    if smoke:
        train = train.sample(n=min(SMOKE_SEQUENCES, len(train)), random_state=SEED)
    budget.log(f"read train.json: {len(train):,} sequences; test.json: {len(test):,}")

    rng = np.random.default_rng(SEED)
    held = set(rng.choice(train["id"].to_numpy(), max(1, int(HOLDOUT * len(train))), replace=False))
    bases = per_base(train, scored_only=True)
    columns = [c for c in bases.columns if c not in {"id_seqpos", "id", "weight", *TARGETS}]
    fit, val = bases[~bases["id"].isin(held)], bases[bases["id"].isin(held)]
    x_test = per_base(test, scored_only=False)
    out = x_test[["id_seqpos"]].copy()
    errors = []
    params = {
        "objective": "regression",
        "learning_rate": LEARNING_RATE,
        "num_leaves": NUM_LEAVES,
        "min_data_in_leaf": 20,
        "num_threads": threads,
        "seed": SEED,
        "verbose": -1,
    }
    for k, target in enumerate(TARGETS):
        model = lgb.train(
            params,
            lgb.Dataset(fit[columns], fit[target], weight=fit["weight"]),
            num_boost_round=SMOKE_ROUNDS if smoke else MAX_ROUNDS,
            valid_sets=[lgb.Dataset(val[columns], val[target])],
            callbacks=[
                lgb.early_stopping(EARLY_STOPPING, verbose=False),
                StopAtDeadline(budget.deadline(len(TARGETS) - k, RESERVE_S)),
            ],
        )
        if target in SCORED:
            errors.append(
                float(np.sqrt(np.mean((predict(model, val[columns]) - val[target]) ** 2)))
            )
        out[target] = predict(model, x_test[columns])
        budget.log(f"{target}: {model.best_iteration} rounds")
    mcrmse = float(np.mean(errors))
    metric_line(METRIC, mcrmse, f"{len(held)} hold-out sequences")
    write_submission(out, out_path, budget)
    return mcrmse


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
