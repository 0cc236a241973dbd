"""vesuvius-challenge-ink-detection: a U-Net on an ImageNet ResNet-18 encoder over the middle
layers of the x-ray surface volume (the layers as channels), trained on tiles of the two
training fragments, binary cross-entropy plus Dice, flips and transposes; predicted tile by
tile over the test fragment, the threshold tuned for F0.5 on held-out strips.

    python -m baselines run --task mlebench/vesuvius-challenge-ink-detection
    python -m baselines.mlebench.vesuvius_challenge_ink_detection --public-dir DATA/vesuvius-challenge-ink-detection/prepared/public --out submission.csv

Why: ink is a faint change of the papyrus in the few layers around its surface, seen in
context (strokes), which is what a 2D U-Net over a stack of middle layers learns; the
fragments are tens of megapixels, so it trains on tiles and predicts overlapping tiles,
averaged. F0.5 weighs precision over recall, so the threshold is tuned for it rather than set
at 0.5. Reads ``surface_volume/<k>.tif`` (16-bit; only the ``DEPTH`` middle layers, as 8-bit),
``mask.png`` and ``inklabels.png`` of ``train/1`` and ``train/2``, and the volume and mask of
``test/a``; a volume smaller than its mask is worked at its own size and the prediction
stretched to the mask's. Writes ``Id,Predicted``: the ink of fragment ``a`` run-length encoded
left to right, then down (this competition's order, ``rlecodec``), a single space for none.
Validation: the bottom fifth of each training fragment. Metric: F0.5 over pixels (higher is
better).
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
    predict_tiled,
    random_flips,
    resnet_unet,
    tile_count,
)
from baselines.torchkit import autocast, fit, pick_device, setup
from baselines.vision import describe
from rlecodec import CONVENTIONS, encode

METRIC = "f0.5"
SEED = 0  # weights of the decoder, tiles, flips
HUB_ID = "microsoft/resnet-18"  # ImageNet-1k ResNet-18 as the U-Net's encoder
DEPTH = 16  # the middle layers of the volume used, as the network's input channels
TILE = 256  # training and prediction tiles (pixels a side)
EPOCHS = 30  # passes over the training tiles (the time budget may stop sooner)
BATCH_SIZE = 16  # tiles per step
LR = 1e-3  # AdamW peak learning rate (warm-up, then cosine decay)
HELD_SHARE = 0.2  # the bottom share of each training fragment, held out
INK_SHARE = 0.5  # share of training tiles centred on an ink pixel (the rest anywhere on papyrus)
SMOKE_TILE = 32  # --smoke: smaller tiles ...
SMOKE_STEPS = 40  # ... for this many steps ...
SMOKE_BATCH = 8  # ... of this many tiles
TIME_BUDGET_S = 30 * 60.0  # the whole script, data to file
THREADS = CORES  # CPU training
RESERVE_S = 30.0  # kept back for writing (prediction time is measured and kept back too)
EMPTY = CONVENTIONS["vesuvius-challenge-ink-detection"].empty  # " ": a blank cell is missing


def read_png(path: Path, size: tuple[int, int] | None = None) -> np.ndarray:
    """A 0/255 PNG as a boolean array, resized (nearest) to ``size`` = (width, height)."""
    image = Image.open(path).convert("L")
    if size is not None and image.size != size:
        image = image.resize(size, Image.Resampling.NEAREST)
    return np.asarray(image) > 127


def read_volume(folder: Path, depth: int) -> np.ndarray:
    """The ``depth`` middle layers of a fragment's surface volume, (depth, H, W) uint8."""
    layers = sorted((folder / "surface_volume").glob("*.tif"))
    first = max(0, (len(layers) - depth) // 2)
    chosen = layers[first : first + depth]
    return np.stack([(np.asarray(Image.open(p), np.uint16) >> 8).astype(np.uint8) for p in chosen])


def f_half(truth: np.ndarray, guess: np.ndarray) -> float:
    """F0.5 of boolean pixels (0 when nothing is predicted or true)."""
    tp, predicted, true = (truth & guess).sum(), guess.sum(), truth.sum()
    return float(1.25 * tp / (0.25 * true + predicted)) if predicted + true else 0.0


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
    Image.MAX_IMAGE_PIXELS = None  # the fragments are up to 141 megapixels
    fragments = sorted(p for p in (public_dir / "train").iterdir() if p.is_dir())
    test = pd.read_csv(public_dir / "sample_submission.csv", dtype={"Id": str})
    test_folders = [public_dir / "test" / i for i in test["Id"]]
    layers = [len(list((f / "surface_volume").glob("*.tif"))) for f in fragments + test_folders]
    depth = min(DEPTH, *layers)
    volumes, inks, papyri = [], [], []
    for folder in fragments:
        volume = read_volume(folder, depth)
        size = (volume.shape[2], volume.shape[1])
        volumes.append(volume)
        inks.append(read_png(folder / "inklabels.png", size))
        papyri.append(read_png(folder / "mask.png", size))
    budget.log(f"read {len(fragments)} training fragments ({depth} layers); device {where}")

    tile = SMOKE_TILE if smoke else TILE
    rng = np.random.default_rng(SEED)
    held_from = [round(ink.shape[0] * (1 - HELD_SHARE)) for ink in inks]
    centres = []  # (fragment, row, column) of papyrus pixels above the held-out strip
    for k, (papyrus, ink) in enumerate(zip(papyri, inks, strict=True)):
        top = np.zeros_like(papyrus)
        top[: held_from[k]] = True
        for pixels in (papyrus & top & ink, papyrus & top):
            rows, cols = np.nonzero(pixels)
            pick = rng.choice(len(rows), min(len(rows), 20_000), replace=False)
            centres.append([(k, rows[i], cols[i]) for i in pick])
    ink_centres, any_centres = centres[0] + centres[2], centres[1] + centres[3]
    n_tiles = sum(tile_count(ink.shape, tile, 0) for ink in inks)

    def cut(k: int, row: int, col: int) -> tuple[np.ndarray, np.ndarray]:
        """The tile of fragment ``k`` centred near (row, col), padded at the edges."""
        height, width = inks[k].shape
        r0 = int(np.clip(row - tile // 2, 0, max(0, height - tile)))
        c0 = int(np.clip(col - tile // 2, 0, max(0, width - tile)))
        x = np.zeros((depth, tile, tile), np.uint8)
        y = np.zeros((tile, tile), np.float32)
        piece = volumes[k][:, r0 : r0 + tile, c0 : c0 + tile]
        x[:, : piece.shape[1], : piece.shape[2]] = piece
        y[: piece.shape[1], : piece.shape[2]] = inks[k][r0 : r0 + tile, c0 : c0 + tile]
        return x, y

    def inputs(x: torch.Tensor) -> torch.Tensor:
        return x.to(where).float().div_(255).sub_(0.5).div_(0.25)

    model = resnet_unet(HUB_ID, depth, 1, pretrained).to(where)
    budget.log(describe(model, HUB_ID, pretrained) + f"; {depth} layers in, tiles of {tile}")
    flips = torch.Generator().manual_seed(SEED)

    def loss_of(rows: np.ndarray) -> torch.Tensor:
        tiles = []
        for _ in rows:
            pool = ink_centres if ink_centres and rng.random() < INK_SHARE else any_centres
            tiles.append(cut(*pool[rng.integers(len(pool))]))
        x = inputs(torch.from_numpy(np.stack([t[0] for t in tiles])))
        y = torch.from_numpy(np.stack([t[1] for t in tiles]))[:, None].to(where)
        x, y = random_flips(x, y, flips, axes="hvt")
        with autocast(where):
            return dice_bce(model(x), y)

    def forward(x: torch.Tensor) -> torch.Tensor:
        with autocast(where):
            return model(inputs(x))

    batch = SMOKE_BATCH if smoke else BATCH_SIZE
    held_tiles = sum(
        tile_count((ink.shape[0] - h, ink.shape[1]), tile, tile // 2)
        for ink, h in zip(inks, held_from, strict=True)
    )
    test_tiles = sum(
        tile_count(Image.open(f / "mask.png").size[::-1], tile, tile // 2) for f in test_folders
    )
    fit(model, n_tiles, loss_of, epochs=EPOCHS, batch_size=batch, lr=LR, budget=budget,
        max_steps=SMOKE_STEPS if smoke else None, predict_rows=held_tiles + test_tiles,
        reserve_s=RESERVE_S, seed=SEED)  # fmt: skip

    model.eval()
    truths, probs = [], []
    for k, start in enumerate(held_from):
        strip = predict_tiled(forward, volumes[k][:, start:], tile, tile // 2, batch, where)[0]
        papyrus = papyri[k][start:]
        truths.append(inks[k][start:][papyrus])
        probs.append(strip[papyrus])
    truth, prob = np.concatenate(truths), np.concatenate(probs)
    threshold, score = best_threshold(lambda t: f_half(truth, prob > t))
    budget.log(f"threshold {threshold:.2f}")
    metric_line(
        METRIC, score, f"bottom {HELD_SHARE:.0%} of each training fragment, threshold tuned there"
    )

    encoded = []
    for folder in test_folders:  # one fragment at a time (Kaggle's test set: one, "a")
        papyrus = read_png(folder / "mask.png")
        ink = predict_tiled(forward, read_volume(folder, depth), tile, tile // 2, batch, where)[0]
        height, width = papyrus.shape
        if ink.shape != (height, width):  # the volume is smaller than the mask: stretch
            ink = np.asarray(
                Image.fromarray(ink).resize((width, height), Image.Resampling.BILINEAR)
            )
        encoded.append(encode((ink > threshold) & papyrus, "row", empty=EMPTY))
        budget.log(f"predicted fragment {folder.name} ({height}x{width})")
    write_submission(test.assign(Predicted=encoded), out_path, budget)
    return score


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
