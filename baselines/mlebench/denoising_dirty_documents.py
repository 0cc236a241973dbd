"""denoising-dirty-documents: a small fully convolutional denoiser (eight 3x3 convolutions,
a residual to the input) trained on random crops of dirty/clean page pairs with squared
error, then run on each whole test page.

    python -m baselines run --task mlebench/denoising-dirty-documents
    python -m baselines.mlebench.denoising_dirty_documents --public-dir DATA/denoising-dirty-documents/prepared/public --out submission.csv

Why: 115 aligned image pairs are plenty for a local filter but far too few for a large
pretrained model, and the noise (stains, creases, speckle) is local: a few convolutions
predicting the correction to each pixel is the classic strong solution, and being fully
convolutional it runs on pages of any size. Reads the PNGs in train/, train_cleaned/ and
test/; writes one ``id,value`` row per test pixel (``<page>_<row>_<col>``, 1-based; value in
[0, 1]). Validation: whole pages held out. Metric: RMSE over pixels (lower is better).
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F
from PIL import Image

from baselines.kit import CORES, Budget, metric_line, standalone, write_submission
from baselines.torchkit import fit, pick_device, setup

METRIC = "rmse"
SEED = 0  # held-out pages, weights, crops
CHANNELS = 48  # feature maps per convolution
LAYERS = 8  # 3x3 convolutions (receptive field 17 pixels)
CROP = 96  # training crops are CROP x CROP pixels
EPOCHS = 400  # passes over the (cropped) training pages; the time budget may stop sooner
BATCH_SIZE = 32  # crops per step
LR = 1e-3  # AdamW peak learning rate (warm-up, then cosine decay)
HOLDOUT = 0.1  # share of training pages held out for the metric
SMOKE_CROP = 24  # --smoke: smaller crops ...
SMOKE_STEPS = 60  # ... for this many steps
TIME_BUDGET_S = 15 * 60.0  # the whole script, data to file
THREADS = CORES  # CPU training
RESERVE_S = 20.0  # kept back for predicting and writing every pixel


class Denoiser(torch.nn.Module):
    """clean = clamp(dirty + f(dirty)): the network learns only the correction."""

    def __init__(self) -> None:
        super().__init__()
        widths = [1] + [CHANNELS] * (LAYERS - 1)
        self.body = torch.nn.ModuleList(
            torch.nn.Conv2d(a, b, 3, padding=1) for a, b in itertools.pairwise(widths)
        )
        self.head = torch.nn.Conv2d(CHANNELS, 1, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = x
        for conv in self.body:
            h = F.relu(conv(h))
        return (x + self.head(h)).clamp(0, 1)


def read(path: Path) -> np.ndarray:
    return np.asarray(Image.open(path).convert("L"), np.float32) / 255


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
    names = sorted(p.name for p in (public_dir / "train").glob("*.png"))
    dirty = [read(public_dir / "train" / n) for n in names]
    clean = [read(public_dir / "train_cleaned" / n) for n in names]
    test_paths = sorted((public_dir / "test").glob("*.png"))
    budget.log(f"read {len(names)} training pages, {len(test_paths)} test pages; device {where}")

    rng = np.random.default_rng(SEED)
    held = set(rng.choice(len(names), max(1, round(HOLDOUT * len(names))), replace=False))
    fit_pages = [k for k in range(len(names)) if k not in held]
    crop = min(SMOKE_CROP if smoke else CROP, *(min(page.shape) for page in dirty))

    def loss_of(rows: np.ndarray) -> torch.Tensor:
        xs, ys = [], []
        for row in rows:  # one random crop of a training page per row
            page = fit_pages[row % len(fit_pages)]
            height, width = dirty[page].shape
            top, left = rng.integers(0, height - crop + 1), rng.integers(0, width - crop + 1)
            xs.append(dirty[page][top : top + crop, left : left + crop])
            ys.append(clean[page][top : top + crop, left : left + crop])
        x = torch.tensor(np.stack(xs))[:, None].to(where)
        y = torch.tensor(np.stack(ys))[:, None].to(where)
        return F.mse_loss(model(x), y)

    model = Denoiser().to(where)
    budget.log(
        f"model: {LAYERS}-layer residual CNN, {sum(p.numel() for p in model.parameters()):,} weights"
    )
    pixels = sum(p.size for p in dirty) + sum(
        Image.open(p).size[0] * Image.open(p).size[1] for p in test_paths
    )
    fit(
        model,
        len(fit_pages) * 8,  # an "epoch" is eight crops of each page
        loss_of,
        epochs=EPOCHS,
        batch_size=BATCH_SIZE,
        lr=LR,
        budget=budget,
        max_steps=SMOKE_STEPS if smoke else None,
        predict_rows=pixels // (crop * crop),
        reserve_s=RESERVE_S,
        seed=SEED,
        log_every=200,
    )

    model.eval()

    @torch.no_grad()
    def denoise(page: np.ndarray) -> np.ndarray:
        return model(torch.tensor(page)[None, None].to(where))[0, 0].cpu().numpy()

    errors = [(denoise(dirty[k]) - clean[k]) ** 2 for k in sorted(held)]
    rmse = float(np.sqrt(np.concatenate([e.ravel() for e in errors]).mean()))
    metric_line(METRIC, rmse, f"{len(held)} held-out pages")
    frames = []
    for path in test_paths:
        out = denoise(read(path))
        rows, cols = np.indices(out.shape)
        ids = [
            f"{path.stem}_{r}_{c}" for r, c in zip(rows.ravel() + 1, cols.ravel() + 1, strict=True)
        ]
        frames.append(pd.DataFrame({"id": ids, "value": out.ravel()}))
    write_submission(pd.concat(frames, ignore_index=True), out_path, budget)
    return rmse


if __name__ == "__main__":
    sys.exit(standalone(main, __doc__))
