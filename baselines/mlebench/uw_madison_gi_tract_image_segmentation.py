"""uw-madison-gi-tract-image-segmentation: a 2.5D U-Net on an ImageNet ResNet-18 encoder (each
MRI slice with its two neighbours as the three channels), three sigmoid outputs (large bowel,
small bowel, stomach), binary cross-entropy plus Dice, flips; the threshold is tuned on
held-out cases for the competition's metric.

    python -m baselines run --task mlebench/uw-madison-gi-tract-image-segmentation
    python -m baselines.mlebench.uw_madison_gi_tract_image_segmentation --public-dir DATA/uw-madison-gi-tract-image-segmentation/prepared/public --out submission.csv

Why: the strong public solutions were 2.5D U-Nets with pretrained encoders: neighbouring
slices tell a bowel loop from a vessel at little cost, and an organ's outline changes slowly
from slice to slice. The metric is 0.4 x Dice per row + 0.6 x (1 - the 3D Hausdorff distance
per case-day), and a stray blob far from the organs costs more than a missed edge, so the
threshold is chosen on the whole metric. Slices are scaled by their own brightest pixel and
resized to a square. Reads train.csv, test.csv and the 16-bit PNGs under train/ and test/
(``slice_<k>_<width>_<height>_<mm>_<mm>.png``); writes ``id,class,predicted`` in test.csv's row
order (the grader pairs rows by position), each mask at its slice's size, run-length encoded
down each column (``rlecodec``), blank for none. Validation: 10% of the cases held out.
Metric: 0.4 Dice + 0.6 (1 - Hausdorff) (higher is better).
"""

from __future__ import annotations

import math
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F
from PIL import Image
from scipy.spatial import cKDTree

from baselines.kit import CORES, Budget, metric_line, standalone, write_submission
from baselines.segment import dice_bce, predict_probs, random_flips, resnet_unet
from baselines.torchkit import autocast, fit, pick_device, setup
from baselines.vision import describe
from rlecodec import decode, encode

METRIC = "score"
SEED = 0  # held-out cases, weights of the decoder, batches
HUB_ID = "microsoft/resnet-18"  # ImageNet-1k ResNet-18 as the U-Net's encoder
CLASSES = ("large_bowel", "small_bowel", "stomach")  # the three outputs, as the rows name them
SIZE = 256  # slices (234 to 360 pixels a side) are resized to SIZE x SIZE
EPOCHS = 15  # passes over the training slices (the time budget may stop sooner)
BATCH_SIZE = 32  # slices per step
LR = 1e-3  # AdamW peak learning rate (warm-up, then cosine decay)
HOLDOUT = 0.1  # share of training cases held out
THRESHOLDS = (0.3, 0.4, 0.5, 0.6, 0.7)  # candidate mask thresholds
TTA_FLIPS = ("", "h")  # views averaged on held-out and test slices
SMOKE_SIZE = 32  # --smoke: a smaller side ...
SMOKE_STEPS = 40  # ... for this many steps ...
SMOKE_BATCH = 16  # ... of this many slices
TIME_BUDGET_S = 30 * 60.0  # the whole script, data to file
THREADS = CORES  # reading and CPU training
RESERVE_S = 30.0  # kept back for writing (prediction time is measured and kept back too)
SLICE_FILE = re.compile(r"slice_(\d+)_(\d+)_(\d+)_")


def slice_files(root: Path) -> pd.DataFrame:
    """Every slice under ``root``: its id, file, width and height, in case-day and slice order."""
    rows = []
    for path in root.glob("*/*/scans/*.png"):
        number, width, height = SLICE_FILE.match(path.name).groups()  # type: ignore[union-attr]
        day = path.parent.parent.name
        rows.append(
            (f"{day}_slice_{int(number):04}", day, int(number), path, int(width), int(height))
        )
    frame = pd.DataFrame(rows, columns=["id", "day", "number", "path", "width", "height"])
    return frame.sort_values(["day", "number"]).reset_index(drop=True)


def read_slice(path: Path, size: int) -> np.ndarray:
    """A slice scaled by its brightest pixel, resized to ``size`` x ``size``, as uint8."""
    pixels = np.asarray(Image.open(path), np.float32)
    pixels = pixels / max(float(pixels.max()), 1.0)
    image = Image.fromarray(pixels).resize((size, size), Image.Resampling.BILINEAR)
    return (np.asarray(image) * 255).clip(0, 255).astype(np.uint8)


def neighbours(slices: pd.DataFrame) -> np.ndarray:
    """For each slice, the rows of the slices before and after it in its case-day (itself at
    either end): ``(N, 3)``."""
    rows = np.arange(len(slices))
    same_before = np.r_[False, slices["day"].to_numpy()[1:] == slices["day"].to_numpy()[:-1]]
    same_after = np.r_[same_before[1:], False]
    return np.stack(
        [np.where(same_before, rows - 1, rows), rows, np.where(same_after, rows + 1, rows)], 1
    )


def masks_of(slices: pd.DataFrame, labels: pd.DataFrame, size: int) -> np.ndarray:
    """Each slice's three organ masks at ``size`` as bits of one uint8 (bit k: CLASSES[k])."""
    encoded = labels.pivot(index="id", columns="class", values="segmentation")
    out = np.zeros((len(slices), size, size), np.uint8)
    for k, row in enumerate(slices.itertuples()):
        for bit, organ in enumerate(CLASSES):
            cell = encoded.at[row.id, organ] if row.id in encoded.index else None
            if isinstance(cell, str) and cell.strip():
                mask = decode(cell, row.height, row.width)
                small = Image.fromarray(mask).resize((size, size), Image.Resampling.NEAREST)
                out[k] |= np.asarray(small, np.uint8) << bit
    return out


def hausdorff(guess: np.ndarray, truth: np.ndarray) -> float:
    """The metric's normalised 3D Hausdorff distance of two (slices, H, W) volumes: NaN when
    both are empty, 1 when one is (or the guess is over ten times the truth)."""
    if not guess.any() and not truth.any():
        return math.nan
    if not guess.any() or not truth.any() or guess.sum() > 10 * truth.sum():
        return 1.0
    scale = np.array(truth.shape, np.float64)
    a, b = np.argwhere(guess) / scale, np.argwhere(truth) / scale
    far = max(cKDTree(b).query(a)[0].max(), cKDTree(a).query(b)[0].max())
    return float(far / math.sqrt(3))


def score(guess: np.ndarray, truth: np.ndarray, days: np.ndarray) -> float:
    """0.4 x mean Dice over (slice, organ) rows (NaN rows skipped) + 0.6 x (1 - mean
    Hausdorff over case-days), on (N, 3, H, W) boolean masks."""
    overlap = (guess & truth).sum(axis=(2, 3))
    total = guess.sum(axis=(2, 3)) + truth.sum(axis=(2, 3))
    dice = np.nanmean(np.where(total > 0, 2 * overlap / np.maximum(total, 1), np.nan))
    distances = [
        hausdorff(guess[days == d].any(1), truth[days == d].any(1)) for d in np.unique(days)
    ]
    return float(0.4 * dice + 0.6 * (1 - np.nanmean(distances)))


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
    size = SMOKE_SIZE if smoke else SIZE
    labels = pd.read_csv(public_dir / "train.csv")
    test_rows = pd.read_csv(public_dir / "test.csv")
    train, test = slice_files(public_dir / "train"), slice_files(public_dir / "test")
    with ThreadPoolExecutor(max(1, threads)) as pool:
        images = np.stack(list(pool.map(lambda p: read_slice(p, size), train["path"])))
        test_images = np.stack(list(pool.map(lambda p: read_slice(p, size), test["path"])))
    masks = masks_of(train, labels, size)
    budget.log(f"read {len(train):,} training and {len(test):,} test slices at {size}x{size}; "
               f"device {where}")  # fmt: skip

    rng = np.random.default_rng(SEED)
    case = train["day"].str.split("_").str[0].to_numpy()
    cases = rng.permutation(np.unique(case))
    held = set(cases[: max(1, round(HOLDOUT * len(cases)))])
    val_rows = np.flatnonzero(np.isin(case, list(held)))
    fit_rows = np.flatnonzero(~np.isin(case, list(held)))
    stack, test_stack = neighbours(train), neighbours(test)
    bits = torch.tensor([1 << k for k in range(len(CLASSES))], dtype=torch.uint8)

    def inputs(pixels: np.ndarray, stacks: np.ndarray, rows: np.ndarray) -> torch.Tensor:
        x = torch.from_numpy(pixels[stacks[rows]]).to(where).float()  # (B, 3, H, W)
        return x.div_(255).sub_(0.25).div_(0.25)

    model = resnet_unet(HUB_ID, 3, len(CLASSES), pretrained).to(where)
    budget.log(describe(model, HUB_ID, pretrained))
    flips = torch.Generator().manual_seed(SEED)

    def loss_of(rows: np.ndarray) -> torch.Tensor:
        picked = fit_rows[rows]
        y = (torch.from_numpy(masks[picked])[:, None] & bits[None, :, None, None]) > 0
        x, y = random_flips(inputs(images, stack, picked), y.to(where).float(), flips, axes="hv")
        with autocast(where):
            return dice_bce(model(x), y)

    batch = SMOKE_BATCH if smoke else BATCH_SIZE
    fit(model, len(fit_rows), loss_of, epochs=EPOCHS, batch_size=batch, lr=LR, budget=budget,
        max_steps=SMOKE_STEPS if smoke else None,
        predict_rows=(len(val_rows) + len(test)) * len(TTA_FLIPS), reserve_s=RESERVE_S,
        seed=SEED)  # fmt: skip

    val_probs = predict_probs(model, lambda rows: inputs(images, stack, val_rows[rows]),
                              len(val_rows), batch, TTA_FLIPS)  # fmt: skip
    truth = (torch.from_numpy(masks[val_rows])[:, None] & bits[None, :, None, None]).numpy() > 0
    days = train["day"].to_numpy()[val_rows]
    results = {t: score(val_probs > t, truth, days) for t in THRESHOLDS}
    threshold = max(results, key=lambda t: (results[t], -abs(t - 0.5)))
    budget.log(
        f"threshold {threshold:.2f} ("
        + ", ".join(f"{t}: {v:.4f}" for t, v in results.items())
        + ")"
    )
    metric_line(METRIC, results[threshold], f"{len(held)} held-out cases, threshold tuned there")

    probs = predict_probs(model, lambda rows: inputs(test_images, test_stack, rows), len(test),
                          batch, TTA_FLIPS)  # fmt: skip
    encoded: dict[tuple[str, str], str] = {}
    for k, row in enumerate(test.itertuples()):
        full = F.interpolate(torch.from_numpy(probs[k : k + 1]), size=(row.height, row.width),
                             mode="bilinear", align_corners=False)[0].numpy()  # fmt: skip
        for organ, channel in zip(CLASSES, full, strict=True):
            encoded[(row.id, organ)] = encode(channel > threshold)
    predicted = [
        encoded.get((i, c), "") for i, c in zip(test_rows["id"], test_rows["class"], strict=True)
    ]
    write_submission(test_rows.assign(predicted=predicted), out_path, budget)
    return results[threshold]


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
