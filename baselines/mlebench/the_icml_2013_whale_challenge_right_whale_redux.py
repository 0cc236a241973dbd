"""the-icml-2013-whale-challenge-right-whale-redux: on a GPU, an ImageNet ResNet-18
fine-tuned on log-mel spectrograms of the clips; on a CPU, LightGBM on MFCC and band-energy
statistics; with both (``--smoke`` runs both), the better on the hold-out, or their mean.

    python -m baselines run --task mlebench/the-icml-2013-whale-challenge-right-whale-redux
    python -m baselines.mlebench.the_icml_2013_whale_challenge_right_whale_redux --public-dir DATA/the-icml-2013-whale-challenge-right-whale-redux/prepared/public --out submission.csv

Why: an up-call is a shape in time and frequency (a rise from ~80 to ~220 Hz), which a CNN
reads off a spectrogram image better than any summary (the winning Kaggle entries were
spectrogram CNNs); without a GPU, per-band energies over time and MFCC statistics keep much of
the signal for a gradient-boosted model. Reads the AIFF clips in train2.zip (the label ends
each name) and test2.zip (the clips of sampleSubmission.csv); writes ``clip,probability``.
Validation: a stratified 10% hold-out. Metric: ROC-AUC (higher is better).
"""

from __future__ import annotations

import sys
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import lightgbm as lgb
import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

from baselines.audio import log_mel, mfcc, read
from baselines.kit import (
    CORES,
    Budget,
    StopAtDeadline,
    metric_line,
    predict,
    standalone,
    write_submission,
)
from baselines.torchkit import autocast, fit, pick_device, setup, sigmoid
from baselines.torchkit import predict as predict_rows
from baselines.vision import describe, image_classifier

METRIC = "auc"
SEED = 0  # hold-out split, LightGBM, network weights, batches
N_FFT, HOP, N_MELS = 256, 32, 64  # 2 kHz clips: 128 ms windows, 16 ms hops, 64 bands
F_MIN, F_MAX = 20.0, 500.0  # Hz: up-calls live at 50-250 Hz
N_MFCC = 20  # cepstral coefficients summarised per clip
GBM_ROUNDS = 2000  # LightGBM upper bound; early stopping ends sooner
HUB_ID = "microsoft/resnet-18"  # ImageNet-1k ResNet-18 on the spectrogram image
EPOCHS = 12  # passes over the training clips (the time budget may stop sooner)
BATCH_SIZE = 128  # clips per step
LR = 1e-3  # AdamW peak learning rate (warm-up, then cosine decay)
HOLDOUT = 0.1  # share of train held out for choosing and the metric
CNN_ON_CPU = False  # the CNN needs a GPU; a CPU runs the LightGBM model alone
SMOKE_ROWS = 300  # --smoke: train on this many clips ...
SMOKE_STEPS = 20  # ... for this many CNN steps (it runs on a CPU too) ...
SMOKE_BATCH = 16  # ... of this many clips ...
SMOKE_ROUNDS = 60  # ... and at most this many LightGBM rounds
TIME_BUDGET_S = 30 * 60.0  # the whole script, data to file
THREADS = CORES  # decoding, LightGBM and CPU training
RESERVE_S = 15.0  # kept back for writing (prediction time is measured and kept back too)


def spectrograms(sources: list[Any], threads: int) -> np.ndarray:
    """(N, N_MELS, frames) float32 log-mel images of every clip, standardised per clip,
    decoded in ``threads`` threads into one preallocated array."""

    def one(source: object) -> np.ndarray:
        samples, rate = read(source)  # type: ignore[arg-type]
        image = log_mel(samples, rate, N_FFT, HOP, N_MELS, F_MIN, F_MAX)
        return ((image - image.mean()) / (image.std() + 1e-6)).astype(np.float32)

    first = one(sources[0])
    out = np.zeros((len(sources), *first.shape), np.float32)

    def fill(i: int) -> None:
        out[i] = first if i == 0 else one(sources[i])

    with ThreadPoolExecutor(max(1, threads)) as pool:
        list(pool.map(fill, range(len(sources))))
    return out


def summary(images: np.ndarray) -> np.ndarray:
    """Per clip: each band's mean, max and spread over time, MFCC means and spreads, and the
    time of each band's peak (an up-call peaks in rising bands one after another)."""
    ceps = np.stack([mfcc(image, N_MFCC).astype(np.float32) for image in images])
    return np.column_stack([
        images.mean(axis=2), images.max(axis=2), images.std(axis=2), images.argmax(axis=2),
        ceps.mean(axis=2), ceps.std(axis=2),
    ])  # fmt: skip


def train_cnn(
    images: np.ndarray,
    y: np.ndarray,
    fit_rows: np.ndarray,
    rows_out: np.ndarray,
    *,
    smoke: bool,
    budget: Budget,
    where: torch.device,
    pretrained: str | None,
) -> np.ndarray:
    """Fine-tune the ResNet on the spectrograms of ``fit_rows`` (labels ``y``); the
    probabilities of a call for ``rows_out``."""
    model = image_classifier(HUB_ID, 1, pretrained).to(where)
    budget.log(describe(model, HUB_ID, pretrained))
    pixels = torch.from_numpy(images)
    targets = torch.tensor(y, dtype=torch.float32, device=where)

    def batch(rows: np.ndarray) -> torch.Tensor:  # one grey image as three channels
        return pixels[rows][:, None].expand(-1, 3, -1, -1).to(where)

    def loss_of(rows: np.ndarray) -> torch.Tensor:
        picked = fit_rows[rows]
        with autocast(where):
            logits = model(pixel_values=batch(picked)).logits.squeeze(1)
        return F.binary_cross_entropy_with_logits(logits.float(), targets[picked])

    size = SMOKE_BATCH if smoke else BATCH_SIZE
    fit(model, len(fit_rows), loss_of, epochs=EPOCHS, batch_size=size, lr=LR, budget=budget,
        max_steps=SMOKE_STEPS if smoke else None, predict_rows=len(rows_out),
        reserve_s=RESERVE_S, seed=SEED)  # fmt: skip
    model.eval()

    def forward(rows: np.ndarray) -> torch.Tensor:
        with autocast(where):
            return model(pixel_values=batch(rows_out[rows])).logits.float()

    return sigmoid(predict_rows(forward, len(rows_out), size)[:, 0])


def main(
    public_dir: Path,
    out_path: Path,
    *,
    smoke: bool = False,
    time_budget_s: float = TIME_BUDGET_S,
    threads: int = THREADS,
    device: str | None = None,
    pretrained: str | None = None,
) -> float:
    budget = Budget(time_budget_s)
    where = pick_device(device)
    setup(SEED, threads, where)
    with zipfile.ZipFile(public_dir / "train2.zip") as zf:
        names = sorted(n for n in zf.namelist() if n.endswith(".aif"))
    if smoke:
        names = list(
            np.random.default_rng(SEED).choice(names, min(SMOKE_ROWS, len(names)), replace=False)
        )
    test = pd.read_csv(public_dir / "sampleSubmission.csv")
    y = np.array([int(n.endswith("_1.aif")) for n in names])
    budget.log(f"train2.zip: {len(names):,} clips ({y.mean():.0%} calls); "
               f"{len(test):,} test clips; device {where}")  # fmt: skip
    sources = [(public_dir / "train2.zip", n) for n in names]
    sources += [(public_dir / "test2.zip", f"test2/{c}") for c in test["clip"]]
    images = spectrograms(sources, threads)
    budget.log(f"log-mel spectrograms: {images.shape[1]} bands x {images.shape[2]} frames")
    fit_rows, val_rows = train_test_split(
        np.arange(len(names)), test_size=HOLDOUT, stratify=y, random_state=SEED
    )
    test_rows = np.arange(len(names), len(images))

    features = summary(images)
    params = {"objective": "binary", "metric": "auc", "learning_rate": 0.05, "num_leaves": 31,
              "feature_fraction": 0.5, "num_threads": threads, "seed": SEED, "verbose": -1}  # fmt: skip
    gbm = lgb.train(
        params,
        lgb.Dataset(features[fit_rows], y[fit_rows]),
        num_boost_round=SMOKE_ROUNDS if smoke else GBM_ROUNDS,
        valid_sets=[lgb.Dataset(features[val_rows], y[val_rows])],
        callbacks=[
            lgb.early_stopping(100, verbose=False),
            StopAtDeadline(budget.deadline(2, RESERVE_S)),
        ],
    )
    candidates = {
        "mfcc+lightgbm": (predict(gbm, features[val_rows]), predict(gbm, features[test_rows]))
    }
    budget.log(f"LightGBM: {gbm.best_iteration} rounds")

    if where.type == "cuda" or CNN_ON_CPU or smoke:
        rows_out = np.concatenate([val_rows, test_rows])
        prob = train_cnn(images, y, fit_rows, rows_out, smoke=smoke, budget=budget, where=where,
                         pretrained=pretrained)  # fmt: skip
        gbm_val, gbm_test = candidates["mfcc+lightgbm"]
        candidates["cnn"] = (prob[: len(val_rows)], prob[len(val_rows) :])
        candidates["mean"] = (
            (gbm_val + prob[: len(val_rows)]) / 2,
            (gbm_test + prob[len(val_rows) :]) / 2,
        )

    scores = {name: roc_auc_score(y[val_rows], val) for name, (val, _) in candidates.items()}
    best = max(scores, key=lambda name: scores[name])
    budget.log("hold-out AUC: " + ", ".join(f"{n} {s:.5f}" for n, s in scores.items())
               + f"; submitting {best}")  # fmt: skip
    metric_line(METRIC, scores[best], f"{HOLDOUT:.0%} hold-out of {len(names):,} clips, {best}")
    write_submission(
        pd.DataFrame({"clip": test["clip"], "probability": candidates[best][1]}), out_path, budget
    )
    return float(scores[best])


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
