"""ml2021spring-hw2: framewise phoneme classification (39 classes) with an MLP on the window of
11 neighbouring MFCC frames, a 2% hold-out.

    python -m baselines run --task mlebench/ml2021spring-hw2
    python -m baselines.mlebench.ml2021spring_hw2 --public-dir DATA/ml2021spring-hw2/prepared/public --out submission.csv

Why: each row already holds the frame and its five neighbours on either side (11 x 39 MFCC
values), so the context a phoneme needs is in the row; a wide MLP with batch normalisation
and dropout on the standardised window is the course's strong answer (about 0.75 accuracy on
TIMIT), and it trains in minutes on a GPU over the 0.9M frames. Reads
public/timit_11/timit_11/{train_11,train_label_11,test_11}.npy (memory-mapped; the labels are
the class numbers as text); writes ``Id,ClassId`` for every test frame in order.
Validation: a stratified 2% hold-out. Metric: accuracy (higher is better).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F

from baselines.kit import Budget, metric_line, standalone, stratified_holdout, write_submission
from baselines.torchkit import autocast, fit, pick_device, predict, setup

METRIC = "accuracy"
SEED = 0  # hold-out split, network weights, batches
N_CLASSES = 39  # TIMIT's folded phoneme set
HIDDEN = 1024  # units in each hidden layer
LAYERS = 3  # hidden layers (Linear, BatchNorm, ReLU, Dropout)
DROPOUT = 0.25  # after each hidden layer
EPOCHS = 20  # passes over the training frames (the time budget may stop sooner)
BATCH_SIZE = 512  # frames per step
LR = 1e-3  # AdamW peak learning rate (warm-up, then cosine decay)
HOLDOUT = 0.02  # share of the frames held out for the metric (18k at full size)
SMOKE_ROWS = 1_500  # --smoke: train on this many frames ...
SMOKE_HIDDEN = 128  # ... with layers this wide ...
SMOKE_STEPS = 150  # ... for this many steps
TIME_BUDGET_S = 15 * 60.0  # the whole script, data to file
THREADS = 4  # CPU training threads
RESERVE_S = 10.0  # kept back for writing (prediction time is measured and kept back too)


def network(inputs: int, hidden: int) -> torch.nn.Sequential:
    layers: list[torch.nn.Module] = []
    for k in range(LAYERS):
        layers += [torch.nn.Linear(inputs if k == 0 else hidden, hidden),
                   torch.nn.BatchNorm1d(hidden), torch.nn.ReLU(), torch.nn.Dropout(DROPOUT)]  # fmt: skip
    return torch.nn.Sequential(*layers, torch.nn.Linear(hidden, N_CLASSES))


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
    folder = public_dir / "timit_11" / "timit_11"
    x = np.load(folder / "train_11.npy", mmap_mode="r")
    y = np.load(folder / "train_label_11.npy").astype(np.int64)
    x_test = np.load(folder / "test_11.npy", mmap_mode="r")
    if smoke:
        x, y = x[:SMOKE_ROWS], y[:SMOKE_ROWS]
    budget.log(f"read {len(x):,} training frames, {len(x_test):,} test frames; device {where}")

    fit_rows, val_rows = stratified_holdout(y, HOLDOUT, SEED)
    sample = np.asarray(x[fit_rows[:100_000]], np.float64)
    mean, std = sample.mean(axis=0), sample.std(axis=0) + 1e-6

    def standardised(frames: np.ndarray) -> np.ndarray:
        """(frames - mean) / std as float32, 100k rows at a time (a float64 copy of the full
        training set would take 3 GB)."""
        out = np.empty(frames.shape, np.float32)
        for start in range(0, len(frames), 100_000):
            out[start : start + 100_000] = (frames[start : start + 100_000] - mean) / std
        return out

    inputs = torch.tensor(standardised(x), device=where)  # 1.5 GB at full size
    targets = torch.tensor(y, device=where)
    model = network(x.shape[1], SMOKE_HIDDEN if smoke else HIDDEN).to(where)

    def loss_of(rows: np.ndarray) -> torch.Tensor:
        picked = torch.as_tensor(fit_rows[rows], device=where)
        with autocast(where):
            logits = model(inputs[picked])
        return F.cross_entropy(logits.float(), targets[picked])

    fit(model, len(fit_rows), loss_of, epochs=EPOCHS, batch_size=BATCH_SIZE, lr=LR,
        budget=budget, max_steps=SMOKE_STEPS if smoke else None,
        predict_rows=len(val_rows) + len(x_test), reserve_s=RESERVE_S, seed=SEED, log_every=500)  # fmt: skip
    model.eval()

    def classes(frames: torch.Tensor) -> np.ndarray:
        def forward(rows: np.ndarray) -> torch.Tensor:
            with autocast(where):
                return model(frames[torch.as_tensor(rows, device=frames.device)].to(where))

        return predict(forward, len(frames), 4 * BATCH_SIZE).argmax(axis=1)

    val_pred = classes(inputs[torch.as_tensor(val_rows, device=where)])
    accuracy = float((val_pred == y[val_rows]).mean())
    metric_line(METRIC, accuracy, f"{HOLDOUT:.0%} hold-out of {len(y):,} frames")
    test_pred = classes(torch.from_numpy(standardised(x_test)))  # batches moved to the device
    submission = pd.DataFrame({"Id": np.arange(len(x_test)), "ClassId": test_pred})
    write_submission(submission, out_path, budget)
    return accuracy


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
