"""google-research-identify-contrails-reduce-global-warming: a U-Net on an ImageNet ResNet-18
encoder segmenting contrails in the "ash" false-colour image of each record's labelled frame,
binary cross-entropy plus Dice, flips; the threshold is tuned for global Dice on Kaggle's
validation records.

    python -m baselines run --task mlebench/google-research-identify-contrails-reduce-global-warming
    python -m baselines.mlebench.google_research_identify_contrails_reduce_global_warming --public-dir DATA/google-research-identify-contrails-reduce-global-warming/prepared/public --out submission.csv

Why: the ash composite (red: band 15 - band 14, green: band 14 - band 11, blue: band 14, each
scaled over the range published with the dataset) is how the labellers saw contrails, and
turns nine infrared bands into an image a pretrained encoder reads; contrails are thin, so
the U-Net keeps a full-resolution branch. The metric is one Dice over every pixel of every
record, so one global threshold is tuned. Reads band_11, band_14 and band_15 (the fifth of
eight frames, the labelled one) and human_pixel_masks.npy under train/ and validation/, the
bands under test/ (the ids and mask sizes from sample_submission.csv); bands smaller than the
masks are upsampled to them. Writes ``record_id,encoded_pixels,height,width`` (run-length
encoded down each column with ``rlecodec``, ``-`` for no contrail). Validation: Kaggle's
validation records. Metric: global Dice (higher is better).
"""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F

from baselines.kit import CORES, Budget, metric_line, standalone, write_submission
from baselines.segment import best_threshold, dice_bce, predict_probs, random_flips, resnet_unet
from baselines.torchkit import autocast, fit, pick_device, setup
from baselines.vision import describe
from rlecodec import CONVENTIONS, encode

METRIC = "dice"
SEED = 0  # weights of the decoder, batches, flips
HUB_ID = "microsoft/resnet-18"  # ImageNet-1k ResNet-18 as the U-Net's encoder
FRAME = 4  # the labelled frame of the eight (n_times_before = 4)
ASH = {  # channel: (band a, band b or None, low, high): (a - b) scaled from [low, high]
    "red": (15, 14, -4.0, 2.0),
    "green": (14, 11, -4.0, 5.0),
    "blue": (14, None, 243.0, 303.0),
}
EPOCHS = 20  # passes over the training records (the time budget may stop sooner)
BATCH_SIZE = 16  # records per step
LR = 1e-3  # AdamW peak learning rate (warm-up, then cosine decay)
TTA_FLIPS = ("", "h", "v")  # views averaged on validation and test
SMOKE_STEPS = 80  # --smoke: this many steps ...
SMOKE_BATCH = 8  # ... of this many records
TIME_BUDGET_S = 30 * 60.0  # the whole script, data to file (20,000 records to read)
THREADS = CORES  # reading and CPU training
RESERVE_S = 20.0  # kept back for writing (prediction time is measured and kept back too)
EMPTY = CONVENTIONS["google-research-identify-contrails-reduce-global-warming"].empty


def ash(folder: Path, side: int) -> np.ndarray:
    """A record's labelled frame as an ash false-colour uint8 image ``(3, side, side)``."""
    bands = {
        b: np.load(folder / f"band_{b:02}.npy")[:, :, FRAME].astype(np.float32)
        for b in (11, 14, 15)
    }
    channels = []
    for a, b, low, high in ASH.values():
        value = bands[a] - (bands[b] if b is not None else 0.0)
        channels.append(np.clip((value - low) / (high - low), 0, 1))
    image = torch.from_numpy(np.stack(channels))[None]
    if image.shape[-1] != side:
        image = F.interpolate(image, size=(side, side), mode="bilinear", align_corners=False)
    return (image[0] * 255).round().byte().numpy()


def read_records(
    folders: list[Path], side: int, threads: int, with_masks: bool
) -> tuple[np.ndarray, np.ndarray | None]:
    """Every record's ash image (and its pixel mask), read in ``threads`` threads."""
    with ThreadPoolExecutor(max(1, threads)) as pool:
        images = np.stack(list(pool.map(lambda f: ash(f, side), folders)))
        if not with_masks:
            return images, None
        masks = pool.map(lambda f: np.load(f / "human_pixel_masks.npy")[:, :, 0] > 0, folders)
        return images, np.stack(list(masks))


def global_dice(truth: np.ndarray, guess: np.ndarray) -> float:
    """One Dice over every pixel of every record; NaN when both are empty."""
    total = truth.sum() + guess.sum()
    return float(2 * (truth & guess).sum() / total) if total else float("nan")


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
    test = pd.read_csv(public_dir / "sample_submission.csv", dtype={"record_id": str})
    side = int(test["height"].iloc[0])  # every mask has one size (256 on Kaggle)
    train_folders = sorted((public_dir / "train").iterdir())
    val_folders = sorted((public_dir / "validation").iterdir())
    images, masks = read_records(train_folders, side, threads, with_masks=True)
    val_images, val_masks = read_records(val_folders, side, threads, with_masks=True)
    test_images, _ = read_records([public_dir / "test" / r for r in test["record_id"]], side,
                                  threads, with_masks=False)  # fmt: skip
    assert masks is not None and val_masks is not None
    budget.log(f"read {len(images):,} training, {len(val_images):,} validation and "
               f"{len(test_images):,} test records at {side}x{side}; device {where}")  # fmt: skip

    model = resnet_unet(HUB_ID, 3, 1, pretrained).to(where)
    budget.log(describe(model, HUB_ID, pretrained))
    flips = torch.Generator().manual_seed(SEED)

    def inputs(pixels: np.ndarray) -> torch.Tensor:
        return torch.from_numpy(pixels).to(where).float().div_(255).sub_(0.5).div_(0.25)

    def loss_of(rows: np.ndarray) -> torch.Tensor:
        y = torch.from_numpy(masks[rows]).to(where).float()[:, None]
        x, y = random_flips(inputs(images[rows]), y, flips, axes="hv")
        with autocast(where):
            return dice_bce(model(x), y)

    batch = SMOKE_BATCH if smoke else BATCH_SIZE
    fit(model, len(images), loss_of, epochs=EPOCHS, batch_size=batch, lr=LR, budget=budget,
        max_steps=SMOKE_STEPS if smoke else None,
        predict_rows=(len(val_images) + len(test_images)) * len(TTA_FLIPS), reserve_s=RESERVE_S,
        seed=SEED)  # fmt: skip

    def probabilities(pixels: np.ndarray) -> np.ndarray:
        return predict_probs(
            model, lambda rows: inputs(pixels[rows]), len(pixels), batch, TTA_FLIPS
        )[:, 0]

    val_probs = probabilities(val_images)
    threshold, score = best_threshold(lambda t: global_dice(val_masks, val_probs > t))
    budget.log(f"threshold {threshold:.2f}")
    metric_line(METRIC, score, f"{len(val_images):,} validation records, threshold tuned there")
    guesses = probabilities(test_images) > threshold
    encoded = [encode(m, "column", empty=EMPTY) for m in guesses]
    write_submission(test.assign(encoded_pixels=encoded), out_path, budget)
    return score


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
