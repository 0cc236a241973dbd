"""statoil-iceberg-classifier-challenge: an ImageNet ResNet-18 fine-tuned on the two radar bands
(HH, HV and their mean as the three channels, upsampled to 150x150) to tell icebergs from ships
(binary cross-entropy, flips of both axes as augmentation and at test time, a temperature
fitted on the hold-out), and LightGBM on statistics of the bands and the incidence angle; the
submission is whichever of the two, or their mean, has the lower hold-out log loss.

    python -m baselines run --task mlebench/statoil-iceberg-classifier-challenge
    python -m baselines.mlebench.statoil_iceberg_classifier_challenge --public-dir DATA/statoil-iceberg-classifier-challenge/prepared/public --out submission.csv

Why: 1.3k 75x75 satellite radar chips; the target's size, brightness and its strength in the
cross-polarised band tell a ship from an iceberg, which a small pretrained CNN picks up fast
(a large one over-fits so few images). Seen from above a chip has no orientation, so every
flip is a free view. Log loss punishes confident mistakes, hence a fitted temperature. The
boosted trees see what the CNN may miss at this data size: peak brightness, the bright blob's
area, the bands' ratio, and the incidence angle (missing only for ships in Kaggle's training
data, a leak every strong entry used). Reads
train.json and test.json from their .7z archives (to a temporary folder); writes
``id,is_iceberg``. Validation: a stratified 15% hold-out. Metric: log loss (lower is better).
"""

from __future__ import annotations

import json
import math
import sys
import tempfile
from pathlib import Path

import lightgbm as lgb
import numpy as np
import pandas as pd
import py7zr
import torch
import torch.nn.functional as F
from PIL import Image
from sklearn.metrics import log_loss

from baselines.kit import (
    CORES,
    Budget,
    metric_line,
    standalone,
    stratified_holdout,
    write_submission,
)
from baselines.torchkit import autocast, fit, fit_temperature, pick_device, setup, sigmoid
from baselines.vision import Batches, describe, image_classifier, predict_logits

METRIC = "log_loss"
SEED = 0  # hold-out split, head weights, batches
HUB_ID = "microsoft/resnet-18"  # ImageNet-1k ResNet-18 (11.7M parameters)
IMAGE_SIZE = 150  # the chips are 75x75: upsampled 2x for the ImageNet filters
DB_RANGE = (-45.0, 5.0)  # radar backscatter in dB, mapped onto 0-255 (clipped)
EPOCHS = 30  # passes over the training chips (the time budget may stop sooner)
BATCH_SIZE = 32  # chips per step
LR = 3e-4  # AdamW peak learning rate (warm-up, then cosine decay)
HOLDOUT = 0.15  # share of train held out for the metric and the temperature
TTA_FLIPS = ("", "h", "v", "hv")  # views averaged at test time
GBM_PARAMS = {  # LightGBM on the band statistics: shallow trees, few rows
    "objective": "binary",
    "learning_rate": 0.03,
    "num_leaves": 15,
    "min_child_samples": 10,
    "feature_fraction": 0.8,
    "bagging_fraction": 0.8,
    "bagging_freq": 1,
    "verbose": -1,
}
GBM_ROUNDS = 400  # boosting rounds (no early stopping: the hold-out judges the blend)
SMOKE_ROWS = 48  # --smoke: train on this many chips ...
SMOKE_SIZE = 32  # ... at this size ...
SMOKE_STEPS = 20  # ... for this many steps ...
SMOKE_BATCH = 16  # ... of this many chips
SMOKE_LR = 1e-3  # ... at a higher rate: random weights (--pretrained none) start slowly
TIME_BUDGET_S = 20 * 60.0  # the whole script, data to file
THREADS = CORES  # CPU training
RESERVE_S = 10.0  # kept back for writing (prediction time is measured and kept back too)


def read_json_7z(archive: Path) -> pd.DataFrame:
    """The one JSON list inside ``archive`` (``train.json.7z`` holds ``train.json``)."""
    with tempfile.TemporaryDirectory(prefix="statoil-") as folder, py7zr.SevenZipFile(archive) as z:
        z.extractall(folder)
        return pd.DataFrame(json.loads((Path(folder) / archive.stem).read_text()))


def chips(frame: pd.DataFrame, size: int) -> np.ndarray:
    """(N, size, size, 3) uint8: HH, HV and their mean, in dB mapped onto 0-255."""
    low, high = DB_RANGE
    out = np.zeros((len(frame), size, size, 3), np.uint8)
    for i, (hh, hv) in enumerate(zip(frame["band_1"], frame["band_2"], strict=True)):
        bands = np.stack([np.asarray(hh, np.float32), np.asarray(hv, np.float32)])
        bands = bands.reshape(2, 75, 75)
        rgb = np.stack([bands[0], bands[1], bands.mean(axis=0)], axis=-1)
        scaled = np.clip((rgb - low) / (high - low) * 255, 0, 255).astype(np.uint8)
        out[i] = np.asarray(Image.fromarray(scaled).resize((size, size), Image.Resampling.BILINEAR))
    return out


def band_statistics(frame: pd.DataFrame) -> pd.DataFrame:
    """Per chip: each band's and the HV-HH difference's quantiles, spread and bright area (the
    pixels 3 standard deviations above the band's median), and the incidence angle."""
    rows = []
    for hh, hv, angle in zip(frame["band_1"], frame["band_2"], frame["inc_angle"], strict=True):
        bands = {"hh": np.asarray(hh, np.float32), "hv": np.asarray(hv, np.float32)}
        bands["diff"] = bands["hv"] - bands["hh"]
        row = {"angle": float(angle) if angle != "na" else math.nan}
        for name, band in bands.items():
            for q in (50, 90, 99, 100):
                row[f"{name}_q{q}"] = float(np.percentile(band, q))
            row[f"{name}_std"] = float(band.std())
            row[f"{name}_area"] = float((band > np.median(band) + 3 * band.std()).sum())
        rows.append(row)
    return pd.DataFrame(rows)


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
    train = read_json_7z(public_dir / "train.json.7z")
    test = read_json_7z(public_dir / "test.json.7z")
    if smoke:
        train = train.sample(n=min(SMOKE_ROWS, len(train)), random_state=SEED)
    budget.log(
        f"read train.json: {len(train):,} chips ({train['is_iceberg'].mean():.0%} icebergs); "
        f"test.json: {len(test):,}; device {where}"
    )

    size = SMOKE_SIZE if smoke else IMAGE_SIZE
    images, test_images = chips(train, size), chips(test, size)
    y = train["is_iceberg"].to_numpy()
    fit_rows, val_rows = stratified_holdout(y, HOLDOUT, SEED)

    features, test_features = band_statistics(train), band_statistics(test)
    gbm = lgb.train(
        {**GBM_PARAMS, "seed": SEED, "num_threads": threads},
        lgb.Dataset(features.iloc[fit_rows], y[fit_rows]),
        num_boost_round=GBM_ROUNDS,
    )
    gbm_val = gbm.predict(features.iloc[val_rows])
    budget.log(f"LightGBM on {features.shape[1]} band statistics: {GBM_ROUNDS} rounds")

    model = image_classifier(HUB_ID, 1, pretrained).to(where)
    budget.log(describe(model, HUB_ID, pretrained))
    batches = Batches(images, where, flips="hv", seed=SEED)
    targets = torch.tensor(y, dtype=torch.float32, device=where)

    def loss_of(rows: np.ndarray) -> torch.Tensor:
        picked = fit_rows[rows]
        with autocast(where):
            logits = model(pixel_values=batches(picked, train=True)).logits.squeeze(1)
        return F.binary_cross_entropy_with_logits(logits.float(), targets[picked])

    batch = SMOKE_BATCH if smoke else BATCH_SIZE
    fit(
        model,
        len(fit_rows),
        loss_of,
        epochs=EPOCHS,
        batch_size=batch,
        lr=SMOKE_LR if smoke else LR,
        budget=budget,
        max_steps=SMOKE_STEPS if smoke else None,
        predict_rows=(len(val_rows) + len(test)) * len(TTA_FLIPS),
        reserve_s=RESERVE_S,
        seed=SEED,
    )

    val_logits = predict_logits(
        model, Batches(images[val_rows], where), len(val_rows), batch, TTA_FLIPS
    )[:, 0]
    temperature = fit_temperature(val_logits, y[val_rows], multiclass=False)
    cnn_val = sigmoid(val_logits, temperature)
    candidates = {"cnn": cnn_val, "gbm": gbm_val, "mean": (cnn_val + gbm_val) / 2}
    losses = {
        name: float(log_loss(y[val_rows], np.clip(p, 1e-4, 1 - 1e-4), labels=[0, 1]))
        for name, p in candidates.items()
    }
    chosen = min(losses, key=losses.__getitem__)
    budget.log("hold-out log loss: " + ", ".join(f"{k} {v:.4f}" for k, v in losses.items()))
    metric_line(
        METRIC,
        losses[chosen],
        f"{HOLDOUT:.0%} hold-out of {len(train):,} chips, {chosen}, T={temperature:.2f}",
    )
    test_logits = predict_logits(model, Batches(test_images, where), len(test), batch, TTA_FLIPS)
    cnn_test, gbm_test = sigmoid(test_logits[:, 0], temperature), gbm.predict(test_features)
    probability = {"cnn": cnn_test, "gbm": gbm_test, "mean": (cnn_test + gbm_test) / 2}[chosen]
    submission = pd.DataFrame(
        {"id": test["id"], "is_iceberg": np.clip(probability, 1e-4, 1 - 1e-4)}
    )
    write_submission(submission, out_path, budget)
    return losses[chosen]


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
