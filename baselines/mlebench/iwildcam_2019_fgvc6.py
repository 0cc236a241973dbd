"""iwildcam-2019-fgvc6: an ImageNet ResNet-18 fine-tuned at 384x384 on the camera-trap frames less
their trap's median frame (background subtraction; cross-entropy, rare classes up-weighted),
left-right flips as augmentation and at test time, its probabilities averaged over each burst
of frames before the likeliest class is taken.

    python -m baselines run --task mlebench/iwildcam-2019-fgvc6
    python -m baselines.mlebench.iwildcam_2019_fgvc6 --public-dir DATA/iwildcam-2019-fgvc6/prepared/public --out submission.csv

Why: 196k frames from camera traps, two thirds empty, the rest 13 animal classes, some rare;
the test traps are never seen in training, so the hold-out is by trap too. A trap never
moves, so its median frame (by day, and by night) is its scenery: subtracting it leaves the
animal, whatever the unseen trap looks like, and a light backbone learns from that quickly
(its budget goes on more frames at a larger size). Macro-F1 weighs
every class alike, hence the up-weighted rare classes (by 1 / sqrt of their share). A burst's
frames (``seq_id``) show one scene, so their probabilities are averaged: an animal seen
clearly in one frame labels the burst. Animals walk both ways, so left-right flips are free
views. Reads public/train.csv, public/test.csv and the JPEGs inside train_images.zip and
test_images.zip; writes ``Id,Category``. Validation: a hold-out of 10% of the traps.
Metric: macro-F1 (higher is better).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F
from sklearn.metrics import f1_score

from baselines.kit import (
    CORES,
    Budget,
    metric_line,
    standalone,
    stratified_holdout,
    write_submission,
)
from baselines.torchkit import autocast, fit, pick_device, setup, softmax
from baselines.vision import Batches, describe, image_classifier, load_images, predict_logits

METRIC = "macro_f1"
SEED = 0  # hold-out split, head weights, batches
HUB_ID = "microsoft/resnet-18"  # ImageNet-1k ResNet-18 (11.7M parameters)
IMAGE_SIZE = 384  # frames are 1024x747; small animals far from the trap
EPOCHS = 4  # passes over the training frames (the time budget may stop sooner)
BATCH_SIZE = 64  # frames per step
LR = 2e-4  # AdamW peak learning rate (warm-up, then cosine decay)
CLASS_WEIGHT_POWER = 0.5  # a class weighs share ** -power in the loss (macro-F1 counts rare ones)
DIFF_GAIN = 1.5  # how much a frame's difference from its trap's median frame is amplified
MIN_SCENE = 20  # frames a trap needs by day (by night) for a median of their own
MAX_TRAIN = 120_000  # frames decoded for training, a random sample (of 196k)
HOLDOUT = 0.1  # share of the traps held out for the metric
TTA_FLIPS = ("", "h")  # views averaged at test time
SMOKE_ROWS = 240  # --smoke: train on this many frames ...
SMOKE_SIZE = 32  # ... at this size ...
SMOKE_STEPS = 30  # ... for this many steps ...
SMOKE_BATCH = 16  # ... of this many frames
SMOKE_LR = 1e-3  # ... at a higher rate: random weights (--pretrained none) start slowly
TIME_BUDGET_S = 120 * 60.0  # the whole script, data to file
THREADS = CORES  # image decoding and CPU training
RESERVE_S = 30.0  # kept back for writing (prediction time is measured and kept back too)


def by_burst(probabilities: np.ndarray, bursts: pd.Series) -> np.ndarray:
    """Each frame's probabilities replaced by the mean over its burst's frames."""
    frame = pd.DataFrame(probabilities).groupby(bursts.to_numpy()).transform("mean")
    return frame.to_numpy()


def minus_background(images: np.ndarray, traps: pd.Series) -> np.ndarray:
    """Each frame less the median frame of its trap, around mid-grey (uint8): the trap's
    scenery cancels, and what is not always there (an animal) stands out in its own colours.
    Night frames (infrared, grey) and day frames have a median each where there are
    ``MIN_SCENE`` of them; else the trap's median serves both."""
    traps = traps.astype(str).to_numpy()
    spread = np.abs(np.diff(images.astype(np.int16), axis=3)).mean(axis=(1, 2, 3))
    scene = np.char.add(traps, np.where(spread < 2, "-night", "-day"))
    counts = pd.Series(scene).map(pd.Series(scene).value_counts()).to_numpy()
    scene = np.where(counts >= MIN_SCENE, scene, traps)
    out = np.empty_like(images)
    for rows in pd.Series(np.arange(len(images))).groupby(scene).indices.values():
        background = np.median(images[rows], axis=0)
        diff = images[rows].astype(np.float32) - background
        out[rows] = np.clip(128 + DIFF_GAIN * diff, 0, 255).astype(np.uint8)
    return out


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
    train = pd.read_csv(public_dir / "train.csv")
    test = pd.read_csv(public_dir / "test.csv")
    cap = SMOKE_ROWS if smoke else MAX_TRAIN
    train = train.sample(n=min(cap, len(train)), random_state=SEED).reset_index(drop=True)
    budget.log(
        f"read train.csv: {len(train):,} frames ({(train['category_id'] == 0).mean():.0%} "
        f"empty) from {train['location'].nunique()} traps; test.csv: {len(test):,}; "
        f"device {where}"
    )

    size = SMOKE_SIZE if smoke else IMAGE_SIZE
    archive = public_dir / "train_images.zip"
    images = load_images([(archive, f) for f in train["file_name"]], size, threads, budget.log)
    archive = public_dir / "test_images.zip"
    test_images = load_images([(archive, f) for f in test["file_name"]], size, threads, budget.log)
    images = minus_background(images, train["location"])
    test_images = minus_background(test_images, test["location"])
    classes, y = np.unique(train["category_id"].to_numpy(), return_inverse=True)
    fit_rows, val_rows = stratified_holdout(y, HOLDOUT, SEED, groups=train["location"])

    model = image_classifier(HUB_ID, len(classes), pretrained).to(where)
    budget.log(describe(model, HUB_ID, pretrained))
    batches = Batches(images, where, flips="h", seed=SEED)
    targets = torch.tensor(y, device=where)
    share = np.bincount(y[fit_rows], minlength=len(classes)) / len(fit_rows)
    weights = np.maximum(share, 1 / len(fit_rows)) ** -CLASS_WEIGHT_POWER
    class_weights = torch.tensor(
        weights / (weights * share).sum(), dtype=torch.float32, device=where
    )

    def loss_of(rows: np.ndarray) -> torch.Tensor:
        picked = fit_rows[rows]
        with autocast(where):
            logits = model(pixel_values=batches(picked, train=True)).logits
        return F.cross_entropy(logits.float(), targets[picked], weight=class_weights)

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

    val_prob = softmax(
        predict_logits(model, Batches(images[val_rows], where), len(val_rows), batch, TTA_FLIPS)
    )
    val_pred = classes[by_burst(val_prob, train["seq_id"].iloc[val_rows]).argmax(axis=1)]
    score = float(f1_score(classes[y[val_rows]], val_pred, average="macro"))
    metric_line(
        METRIC,
        score,
        f"{len(val_rows):,} frames of {train['location'].iloc[val_rows].nunique()} held-out traps",
    )
    test_prob = softmax(
        predict_logits(model, Batches(test_images, where), len(test), batch, TTA_FLIPS)
    )
    category = classes[by_burst(test_prob, test["seq_id"]).argmax(axis=1)]
    write_submission(pd.DataFrame({"Id": test["id"], "Category": category}), out_path, budget)
    return score


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
