"""hms-harmful-brain-activity-classification: a small CNN trained from scratch on spectrograms
of the raw EEG (one image channel per electrode, 0.5-20 Hz, 50 s), fitted to the experts' vote
shares by KL divergence, with a temperature fitted on the hold-out.

    python -m baselines run --task mlebench/hms-harmful-brain-activity-classification
    python -m baselines.mlebench.hms_harmful_brain_activity_classification --public-dir DATA/hms-harmful-brain-activity-classification/prepared/public --out submission.csv

Why: the six kinds of activity differ in rhythm (spikes, periodic discharges, slow waves), in
frequency and in where on the scalp they show (one side or everywhere), which spectrograms of
each electrode lay out as an image a CNN reads (spectrogram CNNs were the competition's
standard entry). The target is the vote distribution itself (KL divergence, the metric), and a
temperature fitted on the hold-out keeps an unsure model close to the uniform sample rather
than confidently wrong. Each training EEG counts once: its windows' vote shares averaged, the
middle labelled 50-s window as its input (the test EEGs are 50 s). The provided
``*_spectrograms`` files are not used. Reads train.csv, test.csv, train_eegs/ and test_eegs/;
writes ``eeg_id`` and the six ``*_vote`` probabilities for each row of sample_submission.csv.
Validation: 10% of the patients held out. Metric: KL divergence (lower is better).
"""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F

from baselines.kit import (
    CORES,
    Budget,
    metric_line,
    standalone,
    stratified_holdout,
    write_submission,
)
from baselines.spectrocnn import SpectrogramCNN, standardise
from baselines.torchkit import autocast, fit, pick_device, setup, softmax
from baselines.torchkit import predict as predict_rows

METRIC = "kl_divergence"
SEED = 0  # hold-out split, network weights, batches
TARGETS = ["seizure_vote", "lpd_vote", "gpd_vote", "lrda_vote", "grda_vote", "other_vote"]
RATE = 200  # EEG samples a second
WINDOW_S = 50  # seconds of EEG a prediction reads (a labelled window)
N_FFT, HOP = 400, 200  # 2-s windows (0.5 Hz apart), 1-s hops
F_MAX = 20.0  # Hz: the bands kept, 0.5 Hz up to this
WIDTH = 32  # channels of the CNN's first block
EPOCHS = 20  # passes over the training EEGs (the time budget may stop sooner)
BATCH_SIZE = 64  # EEGs per step
CPU_BATCH = 16  # EEGs per step on a CPU: the first steps, timed to plan the budget, take seconds
LR = 2e-3  # AdamW peak learning rate (warm-up, then cosine decay)
HOLDOUT = 0.1  # share of patients held out for the temperature and the metric
SMOKE_ROWS = 400  # --smoke: train on the EEGs of this many label rows ...
SMOKE_STEPS = 40  # ... for this many steps ...
SMOKE_BATCH = 16  # ... of this many EEGs, with a narrower CNN
SMOKE_WIDTH = 16
TIME_BUDGET_S = 30 * 60.0  # the whole script, data to file
THREADS = CORES  # reading, spectrograms and CPU training
RESERVE_S = 15.0  # kept back for writing (prediction time is measured and kept back too)


def spectrogram(path: Path, offset_s: float | None) -> np.ndarray:
    """(electrodes, bands, frames) standardised log power of a ``WINDOW_S`` window from
    ``offset_s`` (None: the middle one), clipped to the recording and padded if short."""
    signal = pd.read_parquet(path).to_numpy(np.float32)
    size = WINDOW_S * RATE
    start = (len(signal) - size) // 2 if offset_s is None else int(offset_s * RATE)
    start = max(0, min(start, len(signal) - size))
    window = signal[start : start + size]
    window = np.nan_to_num(window - np.nanmean(window, axis=0))
    window = np.pad(window, ((0, max(0, N_FFT - len(window))), (0, 0)))
    frames = np.lib.stride_tricks.sliding_window_view(window, N_FFT, axis=0)[::HOP]
    power = np.abs(np.fft.rfft(frames * np.hanning(N_FFT), axis=2)) ** 2  # (frames, ch, bins)
    bands = slice(1, int(F_MAX * N_FFT / RATE) + 1)
    return standardise(np.log(power[:, :, bands] + 1e-6).transpose(1, 2, 0))


def kl(shares: np.ndarray, prob: np.ndarray) -> float:
    """Mean over rows of the summed y log(y / p) (the metric, per EEG)."""
    p = np.clip(prob, 1e-15, 1 - 1e-15)
    with np.errstate(divide="ignore", invalid="ignore"):
        cells = np.where(shares > 0, shares * np.log(shares / p), 0.0)
    return float(cells.sum(axis=1).mean())


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
    rows = pd.read_csv(public_dir / "train.csv")
    if smoke:
        rows = rows.head(SMOKE_ROWS)
    rows[TARGETS] = rows[TARGETS].div(rows[TARGETS].sum(axis=1), axis=0)
    by_eeg = rows.groupby("eeg_id", sort=True)
    eegs = by_eeg[TARGETS].mean()
    middle = by_eeg["eeg_label_offset_seconds"].agg(lambda s: s.iloc[len(s) // 2])
    patients = by_eeg["patient_id"].first()
    test_ids = pd.read_csv(public_dir / "test.csv")["eeg_id"].drop_duplicates().to_numpy()
    budget.log(f"train.csv: {len(rows):,} rows, {len(eegs):,} EEGs of {patients.nunique():,} "
               f"patients; {len(test_ids):,} test EEGs; device {where}")  # fmt: skip

    def train_image(eeg_id: int) -> np.ndarray:
        return spectrogram(public_dir / "train_eegs" / f"{eeg_id}.parquet", middle[eeg_id])

    def test_image(eeg_id: int) -> np.ndarray:
        return spectrogram(public_dir / "test_eegs" / f"{eeg_id}.parquet", None)

    with ThreadPoolExecutor(max(1, threads)) as pool:
        images = list(pool.map(train_image, eegs.index))
        test_images = list(pool.map(test_image, test_ids))
    x, x_test = torch.from_numpy(np.stack(images)), torch.from_numpy(np.stack(test_images))
    budget.log(f"EEG spectrograms: {x.shape[1]} electrodes x {x.shape[2]} bands x "
               f"{x.shape[3]} frames")  # fmt: skip

    shares = eegs.to_numpy(np.float64)
    fit_rows, val_rows = stratified_holdout(
        shares.argmax(axis=1), HOLDOUT, SEED, groups=patients.to_numpy()
    )
    model = SpectrogramCNN(x.shape[1], len(TARGETS), SMOKE_WIDTH if smoke else WIDTH).to(where)
    targets = torch.from_numpy(shares.astype(np.float32)).to(where)

    def loss_of(batch: np.ndarray) -> torch.Tensor:
        picked = fit_rows[batch]
        with autocast(where):
            logits = model(x[picked].float().to(where))
        return F.kl_div(
            F.log_softmax(logits.float(), dim=1), targets[picked], reduction="batchmean"
        )

    size = SMOKE_BATCH if smoke else BATCH_SIZE if where.type == "cuda" else CPU_BATCH
    fit(model, len(fit_rows), loss_of, epochs=EPOCHS, batch_size=size, lr=LR, budget=budget,
        max_steps=SMOKE_STEPS if smoke else None, predict_rows=len(val_rows) + len(x_test),
        reserve_s=RESERVE_S, seed=SEED)  # fmt: skip
    model.eval()

    def logits_of(images: torch.Tensor) -> np.ndarray:
        def forward(batch: np.ndarray) -> torch.Tensor:
            with autocast(where):
                return model(images[batch].float().to(where)).float()

        return predict_rows(forward, len(images), 4 * size)

    val_logits = logits_of(x[val_rows])
    grid = np.geomspace(0.3, 100, 60)
    losses = [kl(shares[val_rows], softmax(val_logits, t)) for t in grid]
    temperature = float(grid[int(np.argmin(losses))])
    score = float(min(losses))
    metric_line(METRIC, score, f"{len(val_rows):,} EEGs of held-out patients, "
                f"temperature {temperature:.2f}")  # fmt: skip
    prob = pd.DataFrame(softmax(logits_of(x_test), temperature), columns=TARGETS, index=test_ids)
    sample = pd.read_csv(public_dir / "sample_submission.csv")
    submission = pd.concat(
        [sample[["eeg_id"]], prob.loc[sample["eeg_id"]].reset_index(drop=True)], axis=1
    )
    write_submission(submission, out_path, budget)
    return score


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
