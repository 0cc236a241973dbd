"""tgs-salt-identification-challenge: a U-Net on an ImageNet ResNet-18 encoder, the 101x101
seismic images upsampled to 128, binary cross-entropy plus Dice, left-right flips; the mask
threshold and the smallest mask kept are tuned on a hold-out for the competition's metric.

    python -m baselines run --task mlebench/tgs-salt-identification-challenge
    python -m baselines.mlebench.tgs_salt_identification_challenge --public-dir DATA/tgs-salt-identification-challenge/prepared/public --out submission.csv

Why: the classic strong solution was a U-Net with a pretrained ResNet encoder; the metric
rewards an empty prediction on the ~40% of images without salt (1 when right, 0 when a single
pixel is predicted), hence the tuned smallest area, below which a mask is dropped. Only
left-right flips: salt sits under sediment, so an upside-down image is not a plausible one.
Reads train.csv, train/images/, train/masks/ and test/images/ (the ids from
sample_submission.csv); writes ``id,rle_mask`` (run-length encoded down each column, 1-based,
blank for no salt, with ``rlecodec``). Validation: a 10% hold-out. Metric: mean precision
over IoU thresholds 0.5 to 0.95, per image (higher is better).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F
from PIL import Image

from baselines.kit import CORES, Budget, metric_line, standalone, write_submission
from baselines.segment import dice_bce, predict_probs, random_flips, resnet_unet
from baselines.torchkit import autocast, fit, pick_device, setup
from baselines.vision import IMAGENET_MEAN, IMAGENET_STD, describe
from rlecodec import encode

METRIC = "precision"
SEED = 0  # hold-out split, weights of the decoder, batches
HUB_ID = "microsoft/resnet-18"  # ImageNet-1k ResNet-18 as the U-Net's encoder
SIDE = 101  # the images' side
SIZE = 128  # the network sees them upsampled to this side
EPOCHS = 60  # passes over the training images (the time budget may stop sooner)
BATCH_SIZE = 32  # images per step
LR = 3e-4  # AdamW peak learning rate (warm-up, then cosine decay)
HOLDOUT = 0.1  # share of train held out to tune the threshold and the smallest mask
THRESHOLDS = np.arange(0.5, 1.0, 0.05)  # the metric's IoU thresholds
MIN_AREAS = (0, 10, 25, 50, 100)  # candidate smallest masks kept (pixels)
TTA_FLIPS = ("", "h")  # views averaged at test time
SMOKE_SIZE = 64  # --smoke: a smaller input side ...
SMOKE_STEPS = 30  # ... for this many steps ...
SMOKE_BATCH = 16  # ... of this many images
TIME_BUDGET_S = 20 * 60.0  # the whole script, data to file
THREADS = CORES  # CPU training
RESERVE_S = 15.0  # kept back for writing (prediction time is measured and kept back too)


def read_grey(path: Path) -> np.ndarray:
    return np.asarray(Image.open(path).convert("L"), np.uint8)


def image_precision(truth: np.ndarray, guess: np.ndarray) -> float:
    """The metric on one image: 1 or 0 when there is no salt; else the share of IoU
    thresholds the predicted mask's IoU exceeds."""
    if not truth.any():
        return float(not guess.any())
    iou = (truth & guess).sum() / (truth | guess).sum()
    return float(np.mean(iou > THRESHOLDS))


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
    test = pd.read_csv(public_dir / "sample_submission.csv")
    images = np.stack(
        [read_grey(public_dir / "train" / "images" / f"{i}.png") for i in train["id"]]
    )
    masks = np.stack(
        [read_grey(public_dir / "train" / "masks" / f"{i}.png") > 127 for i in train["id"]]
    )
    test_images = np.stack(
        [read_grey(public_dir / "test" / "images" / f"{i}.png") for i in test["id"]]
    )
    budget.log(f"read {len(train):,} training and {len(test):,} test images; device {where}")

    rng = np.random.default_rng(SEED)
    order = rng.permutation(len(train))
    val_rows, fit_rows = (
        order[: max(2, round(HOLDOUT * len(train)))],
        order[max(2, round(HOLDOUT * len(train))) :],
    )
    size = SMOKE_SIZE if smoke else SIZE
    mean = torch.tensor(IMAGENET_MEAN, device=where).view(1, 3, 1, 1)
    std = torch.tensor(IMAGENET_STD, device=where).view(1, 3, 1, 1)

    def inputs(pixels: np.ndarray) -> torch.Tensor:
        """Grey images as normalised 3-channel tensors at the network's side."""
        x = torch.from_numpy(pixels).to(where).float().div_(255)[:, None].expand(-1, 3, -1, -1)
        x = F.interpolate(x, size=(size, size), mode="bilinear", align_corners=False)
        return (x - mean) / std

    model = resnet_unet(HUB_ID, 3, 1, pretrained).to(where)
    budget.log(describe(model, HUB_ID, pretrained))
    flips = torch.Generator().manual_seed(SEED)
    targets = torch.from_numpy(masks).float()

    def loss_of(rows: np.ndarray) -> torch.Tensor:
        picked = fit_rows[rows]
        y = F.interpolate(targets[picked][:, None].to(where), size=(size, size), mode="nearest")
        x, y = random_flips(inputs(images[picked]), y, flips, axes="h")
        with autocast(where):
            return dice_bce(model(x), y)

    batch = SMOKE_BATCH if smoke else BATCH_SIZE
    fit(model, len(fit_rows), loss_of, epochs=EPOCHS, batch_size=batch, lr=LR, budget=budget,
        max_steps=SMOKE_STEPS if smoke else None,
        predict_rows=(len(val_rows) + len(test)) * len(TTA_FLIPS), reserve_s=RESERVE_S,
        seed=SEED)  # fmt: skip

    def probabilities(pixels: np.ndarray) -> np.ndarray:
        """Salt probabilities at the images' own side."""
        probs = predict_probs(
            model, lambda rows: inputs(pixels[rows]), len(pixels), batch, TTA_FLIPS
        )
        back = F.interpolate(torch.from_numpy(probs), size=(SIDE, SIDE), mode="bilinear")
        return back[:, 0].numpy()

    def masks_at(probs: np.ndarray, threshold: float, min_area: int) -> np.ndarray:
        out = probs > threshold
        out[out.sum(axis=(1, 2)) < min_area] = False
        return out

    val_probs, truth = probabilities(images[val_rows]), masks[val_rows]
    best = (-1.0, 0.5, 0)
    for threshold in np.arange(0.2, 0.85, 0.05):
        for min_area in MIN_AREAS:
            guess = masks_at(val_probs, threshold, min_area)
            score = float(
                np.mean([image_precision(t, g) for t, g in zip(truth, guess, strict=True)])
            )
            best = max(best, (score, float(threshold), min_area))
    score, threshold, min_area = best
    budget.log(f"threshold {threshold:.2f}, masks under {min_area} pixels dropped")
    metric_line(METRIC, score, f"{len(val_rows):,} held-out images, tuned there")
    guesses = masks_at(probabilities(test_images), threshold, min_area)
    submission = pd.DataFrame({"id": test["id"], "rle_mask": [encode(m) for m in guesses]})
    write_submission(submission, out_path, budget)
    return score


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
