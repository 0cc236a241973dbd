"""hubmap-kidney-segmentation: a U-Net on an ImageNet ResNet-18 encoder segmenting glomeruli in
tiles of the kidney slides at a quarter of their resolution, binary cross-entropy plus Dice,
flips and transposes; predicted tile by tile over each test slide, the threshold tuned for
mean Dice on held-out slides.

    python -m baselines run --task mlebench/hubmap-kidney-segmentation
    python -m baselines.mlebench.hubmap_kidney_segmentation --public-dir DATA/hubmap-kidney-segmentation/prepared/public --out submission.csv

Why: glomeruli are some 300 pixels across on slides of up to 50,000, so a quarter of the
resolution keeps them about 75 pixels wide while the slides shrink sixteenfold; tiles centred
half on glomeruli and half anywhere on the slide balance the classes. Masks are never built at
full size: the training encodings are read straight into the working resolution
(``segment.resized_from_runs``) and the predictions written straight from it
(``segment.intervals_at_size``, ``rlecodec.encode_intervals``). Reads train.csv,
HuBMAP-20-dataset_information.csv (each slide's true width and height), ``train/<id>.tiff``
and ``test/<id>.tiff`` (the ids from sample_submission.csv), one slide at a time with PIL.
Never reads the glomerulus polygons in ``test/<id>.json``: upstream leaves them in the public
folder, and they are the answers. Writes ``id,predicted`` (run-length encoded down each
column at the slide's full size, blank for none). Validation: 15% of the training slides held
out. Metric: Dice per slide, averaged (higher is better).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import torch
from PIL import Image

from baselines.kit import CORES, Budget, metric_line, standalone, write_submission
from baselines.segment import (
    best_threshold,
    dice_bce,
    intervals_at_size,
    predict_tiled,
    random_flips,
    resized_from_runs,
    resnet_unet,
    tile_count,
)
from baselines.torchkit import autocast, fit, pick_device, setup
from baselines.vision import IMAGENET_MEAN, IMAGENET_STD, describe
from rlecodec import encode_intervals, parse

METRIC = "dice"
SEED = 0  # held-out slides, weights of the decoder, tiles, flips
HUB_ID = "microsoft/resnet-18"  # ImageNet-1k ResNet-18 as the U-Net's encoder
SCALE = 0.25  # the working resolution, as a share of the slides' own
TILE = 512  # training and prediction tiles at the working resolution (pixels a side)
EPOCHS = 20  # passes over the training tiles (the time budget may stop sooner)
BATCH_SIZE = 16  # tiles per step
LR = 1e-3  # AdamW peak learning rate (warm-up, then cosine decay)
HOLDOUT = 0.15  # share of the training slides held out
GLOMERULUS_SHARE = 0.5  # share of training tiles centred on a glomerulus pixel
SMOKE_SCALE = 1.0  # --smoke: the slides' own resolution (the fixtures' are small) ...
SMOKE_TILE = 32  # ... smaller tiles ...
SMOKE_STEPS = 40  # ... for this many steps ...
SMOKE_BATCH = 8  # ... of this many tiles
TIME_BUDGET_S = 30 * 60.0  # the whole script, data to file
THREADS = CORES  # CPU training
RESERVE_S = 30.0  # kept back for writing (prediction time is measured and kept back too)


def read_slide(path: Path, width: int, height: int) -> np.ndarray:
    """A slide as RGB uint8 ``(height, width, 3)`` at the working size (a TIFF stored smaller
    than that is stretched to it)."""
    image = Image.open(path).convert("RGB")
    if image.size != (width, height):
        image = image.resize((width, height), Image.Resampling.BILINEAR, reducing_gap=2.0)
    return np.asarray(image)


def slide_dice(truth: np.ndarray, guess: np.ndarray) -> float:
    """Dice of one slide; 1 when both are empty."""
    total = truth.sum() + guess.sum()
    return float(2 * (truth & guess).sum() / total) if total else 1.0


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
    Image.MAX_IMAGE_PIXELS = None  # the slides are up to 2.5 gigapixels
    info = pd.read_csv(public_dir / "HuBMAP-20-dataset_information.csv")
    size_of = {
        Path(f).stem: (int(w), int(h))
        for f, w, h in zip(
            info["image_file"], info["width_pixels"], info["height_pixels"], strict=True
        )
    }
    train = pd.read_csv(public_dir / "train.csv")
    test = pd.read_csv(public_dir / "sample_submission.csv", dtype={"id": str, "predicted": str})
    scale = SMOKE_SCALE if smoke else SCALE

    def working_size(slide: str) -> tuple[int, int]:
        width, height = size_of[slide]
        return max(1, round(width * scale)), max(1, round(height * scale))

    slides, masks = [], []
    for slide, encoding in zip(train["id"], train["encoding"], strict=True):
        (width, height), (w, h) = size_of[slide], working_size(slide)
        slides.append(read_slide(public_dir / "train" / f"{slide}.tiff", w, h))
        runs = parse(encoding if isinstance(encoding, str) else "", width * height)
        masks.append(resized_from_runs(runs.lo, runs.hi, height, width, h, w))
        budget.log(f"read slide {slide}: {width}x{height}, working at {w}x{h}")
    budget.log(f"read {len(slides)} training slides; device {where}")

    rng = np.random.default_rng(SEED)
    order = rng.permutation(len(slides))
    n_held = max(1, round(HOLDOUT * len(slides)))
    held, fitting = order[:n_held], order[n_held:]
    tile = SMOKE_TILE if smoke else TILE
    on_glomeruli, anywhere = [], []  # (slide, row, column) of candidate tile centres
    for k in fitting:
        rows, cols = np.nonzero(masks[k])
        pick = rng.choice(len(rows), min(len(rows), 20_000), replace=False)
        on_glomeruli += [(k, rows[i], cols[i]) for i in pick]
        height, width = masks[k].shape
        anywhere += [
            (k, r, c)
            for r, c in zip(
                rng.integers(0, height, 20_000), rng.integers(0, width, 20_000), strict=True
            )
        ]
    mean = torch.tensor(IMAGENET_MEAN, device=where).view(1, 3, 1, 1)
    std = torch.tensor(IMAGENET_STD, device=where).view(1, 3, 1, 1)

    def cut(k: int, row: int, col: int) -> tuple[np.ndarray, np.ndarray]:
        """The tile of slide ``k`` centred near (row, col), white beyond the slide's edges."""
        height, width = masks[k].shape
        r0 = int(np.clip(row - tile // 2, 0, max(0, height - tile)))
        c0 = int(np.clip(col - tile // 2, 0, max(0, width - tile)))
        x = np.full((tile, tile, 3), 255, np.uint8)
        y = np.zeros((tile, tile), np.float32)
        piece = slides[k][r0 : r0 + tile, c0 : c0 + tile]
        x[: piece.shape[0], : piece.shape[1]] = piece
        y[: piece.shape[0], : piece.shape[1]] = masks[k][r0 : r0 + tile, c0 : c0 + tile]
        return x, y

    def inputs(x: torch.Tensor) -> torch.Tensor:
        """uint8 (B, 3, H, W) tiles, normalised as ImageNet was."""
        return (x.to(where).float().div_(255) - mean) / std

    model = resnet_unet(HUB_ID, 3, 1, pretrained).to(where)
    budget.log(describe(model, HUB_ID, pretrained) + f"; tiles of {tile} at {scale:g}x")
    flips = torch.Generator().manual_seed(SEED)

    def loss_of(rows: np.ndarray) -> torch.Tensor:
        tiles = []
        for _ in rows:
            pool = on_glomeruli if on_glomeruli and rng.random() < GLOMERULUS_SHARE else anywhere
            tiles.append(cut(*pool[rng.integers(len(pool))]))
        x = inputs(torch.from_numpy(np.stack([t[0] for t in tiles])).permute(0, 3, 1, 2))
        y = torch.from_numpy(np.stack([t[1] for t in tiles]))[:, None].to(where)
        x, y = random_flips(x, y, flips, axes="hvt")
        with autocast(where):
            return dice_bce(model(x), y)

    def forward(x: torch.Tensor) -> torch.Tensor:
        with autocast(where):
            return model(inputs(x))

    def probabilities(slide: np.ndarray) -> np.ndarray:
        """Glomerulus probabilities over a whole slide, tile by tile (overlapping by half)."""
        return predict_tiled(forward, slide.transpose(2, 0, 1), tile, tile // 2, batch, where)[0]

    batch = SMOKE_BATCH if smoke else BATCH_SIZE
    n_tiles = sum(tile_count(masks[k].shape, tile, 0) for k in fitting)
    to_predict = sum(tile_count(masks[k].shape, tile, tile // 2) for k in held) + sum(
        tile_count(working_size(s)[::-1], tile, tile // 2) for s in test["id"]
    )
    fit(model, n_tiles, loss_of, epochs=EPOCHS, batch_size=batch, lr=LR, budget=budget,
        max_steps=SMOKE_STEPS if smoke else None, predict_rows=to_predict, reserve_s=RESERVE_S,
        seed=SEED)  # fmt: skip

    model.eval()
    held_probs = [probabilities(slides[k]) for k in held]
    threshold, score = best_threshold(
        lambda t: float(
            np.mean([slide_dice(masks[k], p > t) for k, p in zip(held, held_probs, strict=True)])
        )
    )
    budget.log(f"threshold {threshold:.2f}")
    metric_line(METRIC, score, f"{len(held)} held-out slides, threshold tuned there")
    slides.clear()  # the training slides are done with: free them

    predicted = []
    for slide in test["id"]:  # one slide at a time: decoded, predicted, encoded, dropped
        (width, height), (w, h) = size_of[slide], working_size(slide)
        guess = probabilities(read_slide(public_dir / "test" / f"{slide}.tiff", w, h)) > threshold
        predicted.append(encode_intervals(*intervals_at_size(guess, height, width)))
        budget.log(f"predicted slide {slide}: {guess.mean():.2%} glomerulus")
    write_submission(test.assign(predicted=predicted), out_path, budget)
    return score


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
