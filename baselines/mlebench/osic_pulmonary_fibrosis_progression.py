"""osic-pulmonary-fibrosis-progression: a small network with a Laplace head (a mean FVC and its
spread for any later week) on the first visit's facts and the CT scan's density histogram,
trained on the competition's own loss.

    python -m baselines run --task mlebench/osic-pulmonary-fibrosis-progression
    python -m baselines.mlebench.osic_pulmonary_fibrosis_progression --public-dir DATA/osic-pulmonary-fibrosis-progression/prepared/public --out submission.csv

Why: 176 patients are too few to learn a CT network; what the scan says about decline is how
much lung is scarred, which the share of lung voxels in each band of Hounsfield units measures
directly (normal lung near -850, ground glass and fibrosis from -700 to -250). Every pair of a
patient's visits is a training row (from the earlier, predict the later), so the network sees
the week gap; it outputs the change in FVC and a spread, and minimises the negative Laplace
log-likelihood that the grader scores, so its confidence is calibrated by the loss itself.
Reads public/train.csv, public/test.csv (each test patient's first visit),
public/sample_submission.csv (the ``<Patient>_<week>`` rows to predict), train/ and test/
(one folder of DICOM slices a patient); writes ``Patient_Week,FVC,Confidence``. Validation: a
20% hold-out of patients, predicted from their first visit on their last three (the grader's
rows). Metric: modified Laplace log-likelihood (higher is better; scores are negative).
"""

from __future__ import annotations

import sys
from itertools import pairwise
from pathlib import Path

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F

from baselines.dicom import read_volumes
from baselines.kit import Budget, metric_line, standalone, stratified_holdout, write_submission
from baselines.torchkit import fit, pick_device, setup

METRIC = "laplace_log_likelihood"
SEED = 0  # hold-out split, network weights, batches
HU_BANDS = (-1000, -900, -800, -700, -600, -500, -400, -250, 0, 200)  # histogram edges (HU)
DEPTH = 24  # slices read from each scan, evenly spaced
SIDE = 128  # each slice resized to this (the histogram needs no detail)
HIDDEN = 64  # units in each of the two hidden layers
FVC_SCALE = 100.0  # ml: the network's outputs are in this unit
MIN_SPREAD = 70.0  # ml: the grader floors the spread at 70, so the head starts there
EPOCHS = 300  # passes over the visit pairs (they are few)
BATCH_SIZE = 256  # visit pairs per step
LR = 3e-3  # AdamW peak learning rate (warm-up, then cosine decay)
HOLDOUT = 0.2  # share of the patients held out for the metric
SMOKE_STEPS = 300  # --smoke: steps (the data is small at any size)
TIME_BUDGET_S = 20 * 60.0  # the whole script, data to file
THREADS = 4  # DICOM decoding; training is tiny
RESERVE_S = 10.0  # kept back for predicting and writing


def ct_features(volumes: np.ndarray) -> np.ndarray:
    """Per scan: the share of voxels inside the body in each Hounsfield band."""
    inside = volumes > HU_BANDS[0]
    bands = pairwise(HU_BANDS)
    counts = [((volumes >= lo) & (volumes < hi)).sum(axis=(1, 2, 3)) for lo, hi in bands]
    return np.stack(counts, 1) / np.maximum(inside.sum(axis=(1, 2, 3)), 1)[:, None]


def pairs(visits: pd.DataFrame, first_only: bool) -> pd.DataFrame:
    """Rows of (base visit, later visit) of the same patient: every ordered pair, or the
    first visit against each later one."""
    base = visits.sort_values(["Patient", "Weeks"])
    if first_only:
        base = base.groupby("Patient").head(1)
    merged = base.merge(visits[["Patient", "Weeks", "FVC"]], on="Patient", suffixes=("", "_to"))
    return merged[merged["Weeks_to"] > merged["Weeks"]].reset_index(drop=True)


def tabular(rows: pd.DataFrame, ct: dict[str, np.ndarray]) -> np.ndarray:
    """The network's inputs: first-visit facts, the week gap, and the scan's histogram."""
    facts = np.stack(
        [
            rows["FVC"] / 1000,
            rows["Percent"] / 100,
            (rows["Age"] - 65) / 10,
            rows["Sex"].eq("Male"),
            rows["SmokingStatus"].eq("Ex-smoker"),
            rows["SmokingStatus"].eq("Currently smokes"),
            (rows["Weeks_to"] - rows["Weeks"]) / 50,
            rows["Weeks"] / 50,
        ],
        1,
    ).astype(np.float32)
    scans = np.stack([ct[p] for p in rows["Patient"]]).astype(np.float32)
    return np.concatenate([facts, scans * 5], 1)


def laplace_loss(out: torch.Tensor, base: torch.Tensor, fvc: torch.Tensor) -> torch.Tensor:
    """The grader's negative log-likelihood, without its clips (they stop the gradient)."""
    mean, spread = predicted(out, base)
    return (np.sqrt(2) * (fvc - mean).abs() / spread + torch.log(np.sqrt(2) * spread)).mean()


def predicted(out: torch.Tensor, base: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """The head's two outputs as an FVC (from the first visit's) and a spread (ml)."""
    return base + FVC_SCALE * out[:, 0], MIN_SPREAD + FVC_SCALE * F.softplus(out[:, 1])


def laplace_score(fvc: np.ndarray, mean: np.ndarray, spread: np.ndarray) -> float:
    """The grader's metric: spread floored at 70, error capped at 1000."""
    sd = np.maximum(spread, 70)
    delta = np.minimum(np.abs(fvc - mean), 1000)
    return float(np.mean(-np.sqrt(2) * delta / sd - np.log(np.sqrt(2) * sd)))


def main(
    public_dir: Path,
    out_path: Path,
    *,
    smoke: bool = False,
    time_budget_s: float = TIME_BUDGET_S,
    threads: int = THREADS,
    device: str | None = None,
) -> float:
    budget = Budget(time_budget_s)
    where = pick_device(device)
    setup(SEED, threads, where)
    train = pd.read_csv(public_dir / "train.csv").drop_duplicates(["Patient", "Weeks"])
    test = pd.read_csv(public_dir / "test.csv")
    sample = pd.read_csv(public_dir / "sample_submission.csv")
    budget.log(
        f"read train.csv: {len(train):,} visits of {train['Patient'].nunique()} patients; "
        f"{len(test)} test patients, {len(sample):,} rows to predict; device {where}"
    )

    patients = list(train["Patient"].unique()) + list(test["Patient"])
    folders = [public_dir / "train" / p for p in train["Patient"].unique()]
    folders += [public_dir / "test" / p for p in test["Patient"]]
    volumes = read_volumes(folders, DEPTH, SIDE, threads, budget.log)
    ct = dict(zip(patients, ct_features(volumes), strict=True))

    names = train["Patient"].unique()
    _, held = stratified_holdout(np.zeros(len(names)), HOLDOUT, SEED)
    val_patients = set(names[held])
    fit_rows = pairs(train[~train["Patient"].isin(val_patients)], first_only=False)
    val_rows = pairs(train[train["Patient"].isin(val_patients)], first_only=True)
    val_rows = val_rows.sort_values("Weeks_to").groupby("Patient").tail(3)  # the grader's rows
    budget.log(f"{len(fit_rows):,} visit pairs to fit, {len(val_patients)} patients held out")

    model = torch.nn.Sequential(
        torch.nn.Linear(8 + len(HU_BANDS) - 1, HIDDEN), torch.nn.ReLU(),
        torch.nn.Linear(HIDDEN, HIDDEN), torch.nn.ReLU(),
        torch.nn.Linear(HIDDEN, 2),
    ).to(where)  # fmt: skip
    inputs = torch.tensor(tabular(fit_rows, ct), device=where)
    base = torch.tensor(fit_rows["FVC"].to_numpy(np.float32), device=where)
    target = torch.tensor(fit_rows["FVC_to"].to_numpy(np.float32), device=where)
    fit(
        model,
        len(fit_rows),
        lambda rows: laplace_loss(model(inputs[rows]), base[rows], target[rows]),
        epochs=EPOCHS,
        batch_size=BATCH_SIZE,
        lr=LR,
        budget=budget,
        max_steps=SMOKE_STEPS if smoke else None,
        reserve_s=RESERVE_S,
        seed=SEED,
        log_every=100,
    )

    @torch.no_grad()
    def forecast(rows: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
        model.eval()
        x = torch.tensor(tabular(rows, ct), device=where)
        mean, spread = predicted(
            model(x), torch.tensor(rows["FVC"].to_numpy(np.float32), device=where)
        )
        return mean.cpu().numpy(), spread.cpu().numpy()

    mean, spread = forecast(val_rows)
    score = laplace_score(val_rows["FVC_to"].to_numpy(), mean, spread)
    metric_line(METRIC, score, f"{len(val_patients)} held-out patients, their last 3 visits")

    wanted = sample["Patient_Week"].str.rsplit("_", n=1, expand=True)
    rows = test.merge(
        pd.DataFrame({"Patient": wanted[0], "Weeks_to": wanted[1].astype(int)}), on="Patient"
    )
    mean, spread = forecast(rows)
    keys = rows["Patient"] + "_" + rows["Weeks_to"].astype(str)
    found = pd.DataFrame({"Patient_Week": keys, "FVC": mean, "Confidence": spread})
    submission = sample[["Patient_Week"]].merge(found, on="Patient_Week", how="left")
    write_submission(submission, out_path, budget)
    return score


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
